/** The seam between the server and one wire protocol. */
import { DEFAULT_USAGE, type HttpFailure, type RequestView, type ToolUse, type Turn, type Usage } from './turn.js';

/** The wire protocols served: Anthropic Messages, OpenAI Responses, OpenAI Chat Completions, Gemini. */
export type ProtocolName = 'anthropic' | 'responses' | 'chat' | 'gemini';

/** One server-sent event: `event:` line (when named) and `data:` line; `'[DONE]'` is written as is. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export interface TurnContext {
  /** The model the request asked for; answers echo it. */
  model: string;
  /** A new id with this prefix, unique in the server's life (deterministic: a counter). */
  id(prefix: string): string;
}

export interface Protocol {
  readonly name: ProtocolName;
  /**
   * When this protocol serves the path (a POST): the model named in the path (Gemini) and whether the path asks for a
   * stream.
   */
  route(path: string): { model?: string; stream?: boolean } | undefined;
  /** What the server needs of a request body. */
  read(body: Record<string, unknown>, route: { model?: string; stream?: boolean }): RequestView;
  /** A served turn as server-sent events. */
  stream(turn: Turn, context: TurnContext): SseEvent[];
  /** A served turn as one JSON body (a request with `stream: false`). */
  complete(turn: Turn, context: TurnContext): unknown;
  /** An HTTP error's body in the API's own shape. */
  errorBody(failure: HttpFailure): unknown;
}

export function usageOf(turn: Turn): Required<Usage> {
  const usage = turn.usage ?? DEFAULT_USAGE;
  return { input: usage.input, output: usage.output, cached: usage.cached ?? 0, reasoning: usage.reasoning ?? 0 };
}

export function argumentsText(tool: ToolUse): string {
  if (tool.rawArguments !== undefined) return tool.rawArguments;
  return typeof tool.input === 'string' && tool.custom ? tool.input : JSON.stringify(tool.input ?? {});
}

/** A text cut into `count` pieces (fewer when it is shorter): streamed text arrives in deltas. */
export function pieces(text: string, count: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length > 0 ? parts : [''];
}

/** The text of a message content: a string, or the `text` of its text parts joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (part): part is { text: string } =>
        typeof part === 'object' &&
        part !== null &&
        typeof (part as { text?: unknown }).text === 'string' &&
        ['text', 'input_text', undefined].includes((part as { type?: string }).type),
    )
    .map((part) => part.text)
    .join('\n');
}

export function toolNames(tools: unknown, nameOf: (tool: Record<string, unknown>) => unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool) => nameOf(tool ?? {})).filter((name): name is string => typeof name === 'string');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
