/**
 * What a scripted model plays: conversations of turns, written once and served in any of the
 * four wire protocols. A request is matched to a conversation by its text (a marker in a user
 * message, a phrase of its system prompt), and the turn to play is the number of model turns
 * already in its history: the first request of a conversation plays turn 0, the request that
 * carries the results of turn 0's tool calls plays turn 1, and so on (parallel tool calls are
 * one turn). A retried request (after an HTTP error or a cut stream) has the same history, so
 * it asks for the same turn again: its attempts are counted.
 */
import type { Failure, HttpFailure, RequestView, Turn } from './protocols/turn.js';

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

/** One conversation of a script: which requests it answers, and its turns. */
export interface Conversation {
  /** The conversation's name in the request log ("main", "subagent", "title", ...). */
  name: string;
  /** Which requests belong to it. */
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
  /** The conversations, tried in order. */
  conversations: readonly Conversation[];
}

/** A one-conversation script: `turns` for the requests whose user messages contain `prompt`. */
export function scriptFor(prompt: string, turns: readonly Turn[], others: readonly Conversation[] = []): Script {
  return { conversations: [...others, { name: 'main', match: { user: prompt }, turns }] };
}

function matches(match: Match, view: RequestView): boolean {
  if (match.user !== undefined && !view.userTexts.some((text) => text.includes(match.user!))) return false;
  if (match.lastUser !== undefined && !(view.userTexts.at(-1) ?? '').includes(match.lastUser)) return false;
  if (match.system !== undefined && !view.system.includes(match.system)) return false;
  if (match.tools !== undefined && match.tools !== view.tools.length > 0) return false;
  return true;
}

type Choice = { conversation: Conversation; turnIndex: number; turn: Turn } | { unexpected: string };

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

/** The turn as served to a request: each tool's `inputFrom` computed from the request's JSON body. */
export function withInputs(turn: Turn, body: Record<string, unknown>): Turn {
  const tools = turn.tools;
  if (!tools?.some((tool) => tool.inputFrom !== undefined)) return turn;
  return {
    ...turn,
    tools: tools.map(({ inputFrom, ...tool }) =>
      inputFrom === undefined ? tool : { ...tool, input: inputFrom(body) },
    ),
  };
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
