/**
 * Gemini (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`, and `:generateContent`),
 * as Gemini CLI calls it: `GenerateContentResponse` chunks, thought parts (`thought: true`)
 * first, the text in two chunks, the `functionCall` parts (without ids, as the API sends
 * them), the last chunk with `finishReason: "STOP"` and `usageMetadata`.
 */
import type { Turn } from './turn.js';
import { isObject, pieces, usageOf, type Protocol, type SseEvent, type TurnContext } from './protocol.js';

const statuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function usageMetadata(turn: Turn) {
  const { input, output, cached, reasoning } = usageOf(turn);
  return {
    promptTokenCount: input,
    candidatesTokenCount: output - reasoning,
    cachedContentTokenCount: cached,
    thoughtsTokenCount: reasoning,
    totalTokenCount: input + output,
  };
}

function partsOf(value: unknown): Record<string, unknown>[] {
  return isObject(value) && Array.isArray(value.parts) ? value.parts.filter(isObject) : [];
}

function functionCalls(turn: Turn): Record<string, unknown>[] {
  return (turn.tools ?? []).map((tool) => ({ functionCall: { name: tool.name, args: tool.input ?? {} } }));
}

export const gemini: Protocol = {
  name: 'gemini',
  route(path) {
    const match = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path);
    return match ? { model: decodeURIComponent(match[1]!), stream: match[2] === 'streamGenerateContent' } : undefined;
  },
  read(body, route) {
    const contents = Array.isArray(body.contents) ? body.contents.filter(isObject) : [];
    const text = (content: unknown) =>
      partsOf(content)
        .filter((part) => typeof part.text === 'string' && part.thought !== true)
        .map((part) => part.text as string)
        .join('\n');
    const declarations = (Array.isArray(body.tools) ? body.tools.filter(isObject) : []).flatMap((tool) =>
      Array.isArray(tool.functionDeclarations) ? tool.functionDeclarations.filter(isObject) : [],
    );
    return {
      model: route.model ?? '',
      stream: route.stream === true,
      system: text(body.systemInstruction),
      userTexts: contents
        .filter((c) => c.role === 'user')
        .map(text)
        .filter((t) => t !== ''),
      modelTurns: contents.filter((c) => c.role === 'model').length,
      toolResults: contents.flatMap(partsOf).filter((part) => isObject(part.functionResponse)).length,
      tools: declarations.map((d) => d.name).filter((name): name is string => typeof name === 'string'),
    };
  },
  stream(turn, context) {
    const responseId = context.id('scripted-');
    const chunk = (parts: unknown[], last = false): SseEvent => ({
      data: {
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
        ...(last ? { usageMetadata: usageMetadata(turn) } : {}),
        modelVersion: context.model,
        responseId,
      },
    });
    const chunks: unknown[][] = [];
    if (turn.reasoning !== undefined) chunks.push([{ text: turn.reasoning, thought: true }]);
    if (turn.text !== undefined) for (const piece of pieces(turn.text, 2)) chunks.push([{ text: piece }]);
    if (turn.tools?.length) chunks.push(functionCalls(turn));
    if (chunks.length === 0) chunks.push([{ text: '' }]);
    return chunks.map((parts, index) => chunk(parts, index === chunks.length - 1));
  },
  complete(turn: Turn, context: TurnContext) {
    const parts: unknown[] = [];
    if (turn.reasoning !== undefined) parts.push({ text: turn.reasoning, thought: true });
    if (turn.text !== undefined) parts.push({ text: turn.text });
    parts.push(...functionCalls(turn));
    return {
      candidates: [{ content: { role: 'model', parts }, index: 0, finishReason: 'STOP' }],
      usageMetadata: usageMetadata(turn),
      modelVersion: context.model,
      responseId: context.id('scripted-'),
    };
  },
  errorBody: ({ status, message }) => ({
    error: { code: status, message: message ?? `scripted HTTP ${status}`, status: statuses[status] ?? 'UNKNOWN' },
  }),
};
