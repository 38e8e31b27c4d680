/**
 * Approvals routed to the caller (`permissions: 'ask'`, docs/library.md "Approvals"): each tool call the agent asks
 * about becomes one normalized request for the caller's `onPermission`, and its answer is mapped onto the agent's own
 * through the agent's table of answers. An answer the agent cannot express is refused, never widened.
 */
import type { Harness } from './harness.js';
import { isObject, type JsonObject } from './json.js';
import { ToolCall } from './tool-call.js';

/**
 * How long an allow lasts: this call (`once`), the rest of the agent's session (`session`), or past it, where the agent
 * keeps rules (`always`).
 *
 * @enum
 */
export const permissionScopes = {
  once: 'this call only',
  session: 'this call and the same call later in the session, unasked (the agent decides what "the same" covers)',
  always: 'a rule the agent keeps past the session (its settings file)',
} as const;

/** A key of {@link permissionScopes}. */
export type PermissionScope = keyof typeof permissionScopes;

/** A tool call the agent asks about, normalized: what `onPermission` is given. */
export interface PermissionRequest {
  /** The tool call's id (Claude's and Qwen's `tool_use_id`, ACP's `toolCallId`): its events' and trace's `call_id`. */
  call_id: string;
  /** The harness (`claude-code`, `qwen`, `acp`). */
  harness: string;
  /** The tool's name, as the agent gives it (`Bash`, `Write`, `run_shell_command`). */
  tool: string;
  /**
   * What the call is, in the event vocabulary (`command`, `read`, `write`, `search`, `list`, ...), as the harness's
   * tool table classifies it; `unknown` when no row fits.
   */
  kind: string;
  /** The tool's input, as the agent gave it. */
  input: unknown;
  /** The file or directory the call touches, where known (absolute when the run's working directory is). */
  path?: string;
  /** The shell command, for a command. */
  command?: string;
  /** The subagent making the call (Claude's `agent_id`); absent: the run's own agent. */
  agent_id?: string;
  /** The scopes an allow may take here (`once` always; `session`, `always` where the agent offers them). */
  scopes: PermissionScope[];
  /** The agent's request, verbatim. */
  raw: unknown;
}

/**
 * The caller's answer: allow (for a scope of the request's `scopes`, optionally with a rewritten `input`, which the
 * agent then runs instead), or deny (`true`, or a message for the model), optionally ending the agent's turn (`stop`).
 */
export type PermissionAnswer =
  | {
      /** Allow the call, for this scope (one of the request's `scopes`). */
      allow: PermissionScope;
      /** The input to run instead of the agent's, where the agent can (Claude Code). */
      input?: JsonObject;
    }
  | {
      /** Deny the call: `true`, or the message the model reads (where the agent passes one). */
      deny: true | string;
      /** End the agent's turn too (Claude Code). */
      stop?: true;
    };

/** What the callback is given beside the request. */
export interface PermissionContext {
  /**
   * Aborted when the answer is no longer wanted: the run was aborted, the agent withdrew the request, or
   * `permissionTimeoutMs` passed (the call was then denied). An answer given after it is ignored.
   */
  signal: AbortSignal;
}

/**
 * The caller's decision on each tool call of a `permissions: 'ask'` run. A throw, a rejection or a malformed answer
 * denies the call (with a `permission_answer` warning): nothing runs that the caller did not allow.
 */
export type OnPermission = (
  request: PermissionRequest,
  context: PermissionContext,
) => PermissionAnswer | Promise<PermissionAnswer>;

/** The answers an agent's table can map: a scope of allow, a rewritten input, a deny, its message, a stop. */
export type AnswerKey = PermissionScope | 'input' | 'deny' | 'message' | 'stop';

/** One row of an agent's table: what the answer becomes on the agent's side, as measured. */
export interface AnswerRow {
  /** The row's stable id (`claude.allow-session`), named in warnings and docs. */
  readonly rule: string;
  /** What the agent is sent, and what it then does. */
  readonly does: string;
}

/**
 * An agent's table of answers (docs/library.md "Approvals"): a row for each answer it can express; an answer without
 * a row is refused (a `permission_answer` warning, and the call denied), never widened.
 */
export type AnswerTable = Readonly<Partial<Record<AnswerKey, AnswerRow>>>;

/** A normalized decision, checked against the agent's table: what a transport sends. */
export type Decision = { allow: PermissionScope; input?: JsonObject } | { deny: true; message?: string; stop: boolean };

/**
 * The answer as a decision the agent can express, or why it is refused: malformed (`malformed`) or beyond what the
 * agent or this request offers (`unexpressible`).
 */
export function decisionOf(
  answer: unknown,
  table: AnswerTable,
  scopes: readonly PermissionScope[],
): Decision | { refused: 'malformed' | 'unexpressible'; why: string } {
  if (!isObject(answer)) return { refused: 'malformed', why: 'the answer is not an object' };
  const keys = Object.keys(answer);
  if ('allow' in answer && !('deny' in answer)) {
    const { allow, input } = answer;
    if (typeof allow !== 'string' || !Object.hasOwn(permissionScopes, allow))
      return { refused: 'malformed', why: `allow must be one of once, session, always, got ${String(allow)}` };
    const extra = keys.find((key) => key !== 'allow' && key !== 'input');
    if (extra !== undefined) return { refused: 'malformed', why: `an allow has no ${extra}` };
    if (input !== undefined && !isObject(input)) return { refused: 'malformed', why: 'input must be an object' };
    const scope = allow as PermissionScope;
    if (table[scope] === undefined || !scopes.includes(scope))
      return { refused: 'unexpressible', why: `this request cannot be allowed for "${scope}" (scopes: ${scopes})` };
    if (input !== undefined && table.input === undefined)
      return { refused: 'unexpressible', why: 'this agent cannot run a rewritten input' };
    return input === undefined ? { allow: scope } : { allow: scope, input };
  }
  if ('deny' in answer && !('allow' in answer)) {
    const { deny, stop } = answer;
    if (deny !== true && typeof deny !== 'string')
      return { refused: 'malformed', why: 'deny must be true or a message (a string)' };
    if (stop !== undefined && stop !== true) return { refused: 'malformed', why: 'stop must be true when given' };
    const extra = keys.find((key) => key !== 'deny' && key !== 'stop');
    if (extra !== undefined) return { refused: 'malformed', why: `a deny has no ${extra}` };
    if (stop === true && table.stop === undefined)
      return { refused: 'unexpressible', why: 'this agent cannot end its turn at a denial' };
    const message = typeof deny === 'string' && deny !== '' ? deny : undefined;
    if (message !== undefined && table.message === undefined)
      return { refused: 'unexpressible', why: 'this agent passes no deny message to its model' };
    return { deny: true, ...(message === undefined ? {} : { message }), stop: stop === true };
  }
  return { refused: 'malformed', why: 'an answer has either allow or deny' };
}

/** The kind, path and command of a call as the harness's tool table classifies it (its input, before it runs). */
export function describeCall(
  harness: Harness,
  name: string,
  input: unknown,
  cwd: string | undefined,
  home?: string,
): Pick<PermissionRequest, 'kind' | 'path' | 'command'> {
  const call = new ToolCall({ name, input, raw: input }, cwd, new Date(0).toISOString(), undefined, home, harness);
  const key = harness.toolKey ? harness.toolKey(name) : name;
  const event = harness.tools.get(key)?.(call)?.[0];
  if (event === undefined) return { kind: 'unknown' };
  const path = 'path' in event && typeof event.path === 'string' ? event.path : undefined;
  const command = event.type === 'command' ? event.command : undefined;
  return { kind: event.type, ...(path === undefined ? {} : { path }), ...(command === undefined ? {} : { command }) };
}
