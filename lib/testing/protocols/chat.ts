/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), as OpenCode, Qwen Code, pi, Kilo and
 * Copilot's BYOK provider call it: `chat.completion.chunk`s with `delta.reasoning_content`,
 * `delta.content`, `delta.tool_calls` (arguments in three pieces), a chunk with the finish
 * reason, a usage-only chunk (`stream_options.include_usage`) and `[DONE]`.
 */
import type { Turn } from './turn.js';
import {
  argumentsText,
  isObject,
  pieces,
  textOf,
  toolNames,
  usageOf,
  type Protocol,
  type SseEvent,
  type TurnContext,
} from './protocol.js';

function usage(turn: Turn) {
  const { input, output, cached, reasoning } = usageOf(turn);
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
}

function finishReason(turn: Turn): string {
  return turn.tools?.length ? 'tool_calls' : 'stop';
}

export const chat: Protocol = {
  name: 'chat',
  route: (path) => (path === '/v1/chat/completions' ? {} : undefined),
  read(body) {
    const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
    return {
      model: String(body.model ?? ''),
      stream: body.stream === true,
      system: messages
        .filter((m) => m.role === 'system' || m.role === 'developer')
        .map((m) => textOf(m.content))
        .join('\n'),
      userTexts: messages
        .filter((m) => m.role === 'user')
        .map((m) => textOf(m.content))
        .filter((text) => text !== ''),
      modelTurns: messages.filter((m) => m.role === 'assistant').length,
      toolResults: messages.filter((m) => m.role === 'tool').length,
      tools: toolNames(body.tools, (tool) => (isObject(tool.function) ? tool.function.name : tool.name)),
    };
  },
  stream(turn, context) {
    const id = context.id('chatcmpl-');
    const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
      data: {
        id,
        object: 'chat.completion.chunk',
        created: 0,
        model: context.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      },
    });
    const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
    if (turn.reasoning !== undefined)
      for (const piece of pieces(turn.reasoning, 2)) events.push(chunk({ reasoning_content: piece }));
    if (turn.text !== undefined) for (const piece of pieces(turn.text, 2)) events.push(chunk({ content: piece }));
    (turn.tools ?? []).forEach((tool, index) => {
      events.push(
        chunk({
          tool_calls: [
            { index, id: context.id('call_'), type: 'function', function: { name: tool.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of pieces(argumentsText(tool), 3))
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    events.push(chunk({}, finishReason(turn)));
    events.push({
      data: { id, object: 'chat.completion.chunk', created: 0, model: context.model, choices: [], usage: usage(turn) },
    });
    events.push({ data: '[DONE]' });
    return events;
  },
  complete(turn: Turn, context: TurnContext) {
    const message: Record<string, unknown> = { role: 'assistant', content: turn.text ?? null };
    if (turn.reasoning !== undefined) message.reasoning_content = turn.reasoning;
    if (turn.tools?.length) {
      message.tool_calls = turn.tools.map((tool) => ({
        id: context.id('call_'),
        type: 'function',
        function: { name: tool.name, arguments: argumentsText(tool) },
      }));
    }
    return {
      id: context.id('chatcmpl-'),
      object: 'chat.completion',
      created: 0,
      model: context.model,
      choices: [{ index: 0, message, finish_reason: finishReason(turn) }],
      usage: usage(turn),
    };
  },
  errorBody: ({ status, message }) => ({
    error: {
      message: message ?? `scripted HTTP ${status}`,
      type: status === 429 ? 'rate_limit_exceeded' : status < 500 ? 'invalid_request_error' : 'server_error',
      code: null,
      param: null,
    },
  }),
};
