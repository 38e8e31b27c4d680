/**
 * What every wire protocol serves and reads: a model turn (reasoning, text, tool calls, usage,
 * failures), and the view of a request the server matches a conversation by.
 */

/** One model turn: streamed in this order (reasoning, text, tool calls), then the usage. */
export interface Turn {
  /** The model's reasoning, streamed first. */
  reasoning?: string;
  /** The model's answer text. */
  text?: string;
  /** The tool calls the model makes, in order. */
  tools?: readonly ToolUse[];
  /** Token counts reported for the turn. Default: 1200 input, 40 output. */
  usage?: Usage;
  /** Extra response headers of a served turn (rate-limit headers, say). */
  headers?: Readonly<Record<string, string>>;
  /** Attempts that fail, in order, before the turn is served: attempt i fails with failures[i]. */
  failures?: readonly Failure[];
  /** Every attempt fails this way: the turn is never served. */
  failAlways?: Failure;
}

/** One tool call a scripted turn makes. */
export interface ToolUse {
  /** The tool's name, as the agent offered it (`Bash`, `shell`, `read_file`, ...). */
  name: string;
  /** The arguments: a JSON object, sent as its JSON text. For a freeform (`custom`) tool, the input text. */
  input: unknown;
  /** Sent as the arguments text instead of `input`'s JSON: malformed arguments. */
  rawArguments?: string;
  /** An OpenAI Responses freeform tool call (`custom_tool_call`, e.g. Codex's apply_patch). */
  custom?: boolean;
  /** OpenAI Responses: the function call's `namespace` (Codex's sub-agent tools are `multi_agent_v1`'s). */
  namespace?: string;
  /**
   * The arguments computed from the request's JSON body, in place of `input`: what only an earlier tool result says
   * (the id of the sub-agent a `spawn_agent` call started).
   */
  inputFrom?: (request: Record<string, unknown>) => unknown;
}

/**
 * Token counts in the OpenAI sense: `input` includes the `cached` tokens, `output` includes the
 * `reasoning` tokens. Each protocol reports them its own way (Anthropic's `input_tokens` is the
 * uncached part, Gemini's `candidatesTokenCount` excludes thoughts).
 */
export interface Usage {
  /** Input tokens, the cached ones included. */
  input: number;
  /** Output tokens, the reasoning ones included. */
  output: number;
  /** Of the input, the tokens read from the prompt cache. */
  cached?: number;
  /** Of the output, the reasoning tokens. */
  reasoning?: number;
}

/** The usage a turn reports when its script gives none: 1200 input, 40 output. */
export const DEFAULT_USAGE: Usage = { input: 1200, output: 40 };

/**
 * An HTTP error status (the body is the API's own error shape), or `'drop'`: the stream is cut after its first events.
 */
export type Failure = number | HttpFailure | 'drop';

/** A failed attempt answered with an HTTP error. */
export interface HttpFailure {
  /** The HTTP status (429, 500, ...). */
  status: number;
  /** The error's message, in the API's own error body. */
  message?: string;
  /** Extra response headers (`retry-after`, say). */
  headers?: Readonly<Record<string, string>>;
}

/** What the server reads of a request, whatever its protocol. */
export interface RequestView {
  /** The model asked for. */
  model: string;
  /** Whether the request asked for a streamed answer. */
  stream: boolean;
  /** The system prompt's text. */
  system: string;
  /** The text of each user message, in order (tool results are not user text). */
  userTexts: string[];
  /** How many model turns the history holds. */
  modelTurns: number;
  /** How many tool results the history holds. */
  toolResults: number;
  /** The names of the tools offered. */
  tools: string[];
}
