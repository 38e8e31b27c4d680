/**
 * What a scripted model plays: conversations of turns, written once and served in any of the
 * four wire protocols. A request is matched to a conversation by its text (a marker in a user
 * message, a phrase of its system prompt), and the turn to play is the number of model turns
 * already in its history: the first request of a conversation plays turn 0, the request that
 * carries the results of turn 0's tool calls plays turn 1, and so on (parallel tool calls are
 * one turn). A retried request (after an HTTP error or a cut stream) has the same history, so
 * it asks for the same turn again: its attempts are counted.
 */

/** One model turn: streamed in this order (reasoning, text, tool calls), then the usage. */
export interface Turn {
  reasoning?: string;
  text?: string;
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

export interface ToolUse {
  name: string;
  /** The arguments: a JSON object, sent as its JSON text. For a freeform (`custom`) tool, the input text. */
  input: unknown;
  /** Sent as the arguments text instead of `input`'s JSON: malformed arguments. */
  rawArguments?: string;
  /** An OpenAI Responses freeform tool call (`custom_tool_call`, e.g. Codex's apply_patch). */
  custom?: boolean;
}

/**
 * Token counts in the OpenAI sense: `input` includes the `cached` tokens, `output` includes the
 * `reasoning` tokens. Each protocol reports them its own way (Anthropic's `input_tokens` is the
 * uncached part, Gemini's `candidatesTokenCount` excludes thoughts).
 */
export interface Usage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
}

export const DEFAULT_USAGE: Usage = { input: 1200, output: 40 };

/**
 * An HTTP error status (the body is the API's own error shape), or `'drop'`: the stream is cut after its first events.
 */
export type Failure = number | HttpFailure | 'drop';

export interface HttpFailure {
  status: number;
  message?: string;
  headers?: Readonly<Record<string, string>>;
}

/** Which requests belong to a conversation: every given field must hold. */
export interface Match {
  /** Some user message's text contains this. */
  user?: string;
  /** The last user message's text contains this. */
  lastUser?: string;
  /** The system prompt contains this. */
  system?: string;
  /** The request offers tools (true) or none (false). */
  tools?: boolean;
}

export interface Conversation {
  /** The conversation's name in the request log ("main", "subagent", "title", ...). */
  name: string;
  match: Match;
  /** Turn i answers a request with i model turns in its history. */
  turns?: readonly Turn[];
  /**
   * Instead of turns: the answer to every request of this conversation, whatever its history (titles, memory
   * extraction).
   */
  reply?: Turn;
}

/** What the server plays: the first conversation whose match fits a request answers it. */
export interface Script {
  conversations: readonly Conversation[];
}

/** A one-conversation script: `turns` for the requests whose user messages contain `prompt`. */
export function scriptFor(prompt: string, turns: readonly Turn[], others: readonly Conversation[] = []): Script {
  return { conversations: [...others, { name: 'main', match: { user: prompt }, turns }] };
}

/** What the server reads of a request, whatever its protocol. */
export interface RequestView {
  model: string;
  stream: boolean;
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

export function matches(match: Match, view: RequestView): boolean {
  if (match.user !== undefined && !view.userTexts.some((text) => text.includes(match.user!))) return false;
  if (match.lastUser !== undefined && !(view.userTexts.at(-1) ?? '').includes(match.lastUser)) return false;
  if (match.system !== undefined && !view.system.includes(match.system)) return false;
  if (match.tools !== undefined && match.tools !== view.tools.length > 0) return false;
  return true;
}

export type Choice = { conversation: Conversation; turnIndex: number; turn: Turn } | { unexpected: string };

/** The conversation and turn a request asks for, or why none fits. */
export function choose(script: Script, view: RequestView): Choice {
  const conversation = script.conversations.find((c) => matches(c.match, view));
  if (!conversation) {
    const user = view.userTexts.at(-1) ?? '';
    return {
      unexpected:
        `no conversation matches this request (system: ${quote(view.system)}, last user text: ` + `${quote(user)})`,
    };
  }
  if (conversation.reply) return { conversation, turnIndex: view.modelTurns, turn: conversation.reply };
  const turn = conversation.turns?.[view.modelTurns];
  if (!turn) {
    return {
      unexpected:
        `conversation "${conversation.name}" has ${conversation.turns?.length ?? 0} turns; the request ` +
        `asks for turn ${view.modelTurns + 1}`,
    };
  }
  return { conversation, turnIndex: view.modelTurns, turn };
}

/** The failure for attempt `attempt` (0-based) of a turn, if it fails. */
export function failureFor(turn: Turn, attempt: number): Failure | undefined {
  return turn.failAlways ?? turn.failures?.[attempt];
}

export function httpFailure(failure: number | HttpFailure): HttpFailure {
  return typeof failure === 'number' ? { status: failure } : failure;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > 120 ? `${flat.slice(0, 120)}…` : flat);
}
