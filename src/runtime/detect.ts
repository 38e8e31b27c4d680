/**
 * Which harness wrote a stream, told from its first records (`harness: 'auto'`): each harness
 * opens its stream in a shape of its own (see each page in docs/harnesses/), so the first record that has
 * one of these shapes decides. Records no signature knows (a banner line, an unknown type) are
 * held and the next ones read. Pure: records in, a harness name (or not yet) out.
 */
import { isObject, type JsonObject } from '../kernel/json.js';

/** One row: a harness, and the shape of the records that open its stream. */
interface Signature {
  harness: string;
  /** What the row checks, for the README and the error when nothing matches. */
  shape: string;
  matches(record: JsonObject): boolean;
}

const CODEX_TYPES = new Set([
  'thread.started',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'item.started',
  'item.updated',
  'item.completed',
]);
const OPENCODE_TYPES = new Set(['step_start', 'step_finish', 'text', 'reasoning', 'tool_use', 'error']);
const GOOSE_TYPES = new Set(['message', 'notification', 'complete', 'model_change']);

/** In this order: the first row that matches decides. */
export const signatures: readonly Signature[] = [
  { harness: 'acp', shape: 'a JSON-RPC 2.0 message (`"jsonrpc": "2.0"`)', matches: (r) => r.jsonrpc === '2.0' },
  {
    harness: 'pi',
    shape: '`{"type": "session", "version": N}`',
    matches: (r) => r.type === 'session' && typeof r.version === 'number',
  },
  {
    harness: 'codex',
    shape: '`thread.started`, `turn.*` or `item.*`',
    matches: (r) => typeof r.type === 'string' && CODEX_TYPES.has(r.type),
  },
  {
    harness: 'gemini',
    shape: '`{"type": "init", "session_id"}` (no subtype)',
    matches: (r) => r.type === 'init' && r.subtype === undefined && typeof r.session_id === 'string',
  },
  {
    harness: 'qwen',
    shape: '`system` `init` with `qwen_code_version` (or `permission_mode`)',
    matches: (r) => r.type === 'system' && r.subtype === 'init' && ('qwen_code_version' in r || 'permission_mode' in r),
  },
  {
    harness: 'claude-code',
    shape:
      '`system` with a `subtype` and a `session_id`, or a `result` with `total_cost_usd` (a run that failed at once)',
    matches: (r) =>
      (r.type === 'system' && typeof r.subtype === 'string' && typeof r.session_id === 'string') ||
      (r.type === 'result' && 'total_cost_usd' in r),
  },
  {
    harness: 'copilot',
    shape: 'a dotted `type` with `data`, `id` and `parentId` (`session.skills_loaded`, ...)',
    matches: (r) =>
      typeof r.type === 'string' &&
      r.type.includes('.') &&
      isObject(r.data) &&
      typeof r.id === 'string' &&
      'parentId' in r,
  },
  {
    harness: 'goose',
    shape: '`message` with `message.role` and `content` blocks, `notification`, `complete`',
    matches: (r) =>
      typeof r.type === 'string' && GOOSE_TYPES.has(r.type) && (r.type !== 'message' || isGooseMessage(r)),
  },
  {
    harness: 'cline',
    shape:
      '`agent_event` or `team_event` with an `event` object, `hook_event` with `hookEventName`, `run_start` with ' +
      '`providerId`, `run_result` with `finishReason`',
    matches: (r) =>
      ((r.type === 'agent_event' || r.type === 'team_event') && isObject(r.event)) ||
      (r.type === 'hook_event' && typeof r.hookEventName === 'string') ||
      (r.type === 'run_start' && 'providerId' in r) ||
      (r.type === 'run_result' && 'finishReason' in r),
  },
  // OpenCode and its fork Kilo write the same records: told apart below.
  {
    harness: 'opencode',
    shape: '`step_start`, `text`, `tool_use`, ... with `sessionID` (OpenCode, or Kilo)',
    matches: (r) => typeof r.type === 'string' && OPENCODE_TYPES.has(r.type) && 'sessionID' in r,
  },
];

function isGooseMessage(record: JsonObject): boolean {
  return isObject(record.message) && typeof record.message.role === 'string' && Array.isArray(record.message.content);
}

/** Tools only Kilo offers (docs/harnesses/kilo.md difference 1), and only OpenCode (its `apply_patch`, `lsp`, ...). */
const KILO_TOOLS = new Set(['board_post', 'board_read', 'kilo_local_recall', 'schedule_wakeup', 'cancel_wakeup']);
const OPENCODE_TOOLS = new Set(['apply_patch', 'lsp', 'agent_manager', 'todo']);

/**
 * OpenCode or Kilo, from a record of their shared stream, once one says (docs/harnesses/kilo.md): Kilo's
 * `step_finish` carries `part.metrics`, its `error` may be a plain string, and some tools are one
 * fork's only. Undefined while nothing has said.
 */
function openCodeOrKilo(record: JsonObject): 'opencode' | 'kilo' | undefined {
  const part = isObject(record.part) ? record.part : undefined;
  if (record.type === 'step_finish' && part) return isObject(part.metrics) ? 'kilo' : 'opencode';
  if (record.type === 'error' && typeof record.error === 'string') return 'kilo';
  const tool = typeof part?.tool === 'string' ? part.tool.toLowerCase() : undefined;
  if (tool !== undefined && KILO_TOOLS.has(tool)) return 'kilo';
  if (tool !== undefined && OPENCODE_TOOLS.has(tool)) return 'opencode';
  return undefined;
}

/** Reads records one by one until it knows which harness wrote them. */
export class HarnessDetector {
  /** The harness, once known. */
  harness: string | undefined;
  /** OpenCode's dialect was seen, but not yet whether OpenCode or Kilo wrote it. */
  private openCodeFamily = false;
  /** What was seen that no signature placed: record types, or kinds of value. */
  readonly seen: string[] = [];

  /** Reads one parsed record; returns the harness once it is known. */
  read(value: unknown): string | undefined {
    if (this.harness !== undefined) return this.harness;
    if (!isObject(value))
      return this.note(value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);
    if (this.openCodeFamily) return (this.harness = openCodeOrKilo(value));
    const row = signatures.find((signature) => signature.matches(value));
    if (row === undefined)
      return this.note(typeof value.type === 'string' ? `type "${value.type}"` : 'an object without a type');
    if (row.harness !== 'opencode') return (this.harness = row.harness);
    this.openCodeFamily = true;
    return (this.harness = openCodeOrKilo(value));
  }

  /**
   * No more records will come (the input ended, or the detector read as many as it may): the
   * harness if it can be named now. OpenCode's dialect that never said which fork wrote it is
   * read as OpenCode's: Kilo's stream is OpenCode's, its differences are in tools and errors.
   */
  settle(): string | undefined {
    if (this.harness === undefined && this.openCodeFamily) this.harness = 'opencode';
    return this.harness;
  }

  private note(what: string): undefined {
    if (this.seen.length < 10 && !this.seen.includes(what)) this.seen.push(what);
    return undefined;
  }
}
