/**
 * Claude Code, `claude --print --output-format stream-json --verbose`: claude-code.md's
 * "Raw event stream" and "Normalized mapping" tables, as tables.
 *
 * Stateful in two ways. Text and thinking blocks are joined per message: one API message
 * arrives as several `assistant` lines sharing `message.id`, one block each, so adjacent
 * blocks of one kind wait in a span until something else arrives. A `tool_use` waits, by its
 * id, for the `tool_result` that says how it went; only then is it classified (tools.ts).
 */
import type { Correlator, RunContext } from '../../lib/harness.js';
import { addTokens, amount, tokenCount, tokensOf } from '../../lib/metrics.js';
import { PendingCalls } from '../../lib/pending-calls.js';
import { TextSpan } from '../../lib/text-span.js';
import type { Tokens } from '../../lib/events.js';
import { isObject, safeStringify, type JsonObject } from '../../lib/json.js';
import { recordTable, type RecordRows, type RecordRule } from '../../lib/record-table.js';

/** claude-code.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = {
  system: {
    handling: "session metadata: init's `cwd` resolves relative paths; init, status and thinking_tokens emit no event; any other subtype is unknown",
    rules: { init: 'system/init: consumed', status: 'system/status: consumed', thinkingTokens: 'system/thinking_tokens: consumed', other: 'system, other subtype: unknown' },
  },
  assistant: {
    handling: 'text blocks joined per message -> agent; thinking -> reasoning; redacted_thinking consumed; tool_use recorded until its result',
    rules: { blocks: 'assistant', malformed: 'assistant, malformed: unknown' },
  },
  user: {
    handling: "tool_result blocks resolve a recorded tool use (the tool table); text (echoed prompt, injected context) emits nothing",
    rules: { blocks: 'user', text: 'user text: consumed', malformed: 'user, malformed: unknown' },
  },
  rate_limit_event: {
    handling: 'consumed while `allowed`; any other status is a warning (code `rate_limit_<status>`)',
    rules: { allowed: 'rate_limit_event allowed: consumed', other: 'rate_limit_event not allowed: warning' },
  },
  result: {
    handling: 'the terminal record: usage, cost, turns, duration and final output go to the metrics; only a reported error is an event (error)',
    rules: { success: 'result: consumed', error: 'result reporting an error: error' },
  },
  stream_event: {
    handling: 'partial telemetry that the completed assistant and user records restate: consumed',
    rules: { consumed: 'stream_event: consumed' },
  },
} as const satisfies RecordRows;

type BlockRule = (block: JsonObject, record: JsonObject, messageId: string | null) => void;

/** A tool_use waiting for its result. Different uses under one id make it ambiguous. */
interface Pending {
  uses: JsonObject[];
  /** The uses' name and input, serialized, to tell a restated use from a different one; made when an id repeats. */
  seen?: Set<string>;
}

export function correlator(run: RunContext): Correlator {
  const span = new TextSpan(run);
  // Ambiguous uses are held too: the bound counts uses, not ids, so one id repeated cannot escape it.
  let heldUses = 0;
  const pending = new PendingCalls<Pending>(run.limits.maxPendingTools, settle);

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  // `system` subtypes: init's cwd resolves relative paths; these emit no event.
  const systemSubtypes = new Map<string, RecordRule>([
    ['init', (record) => (run.reportCwd(record.cwd), records.system.rules.init)],
    ['status', () => records.system.rules.status],
    ['thinking_tokens', () => records.system.rules.thinkingTokens],
  ]);

  // Assistant content blocks (claude-code.md "Normalized mapping").
  const assistantBlocks = new Map<string, BlockRule>([
    ['text', (block, _record, id) => spanText(block, 'text', 'agent', id)],
    ['thinking', (block, _record, id) => spanText(block, 'thinking', 'reasoning', id)],
    // No readable text.
    ['redacted_thinking', () => {}],
    ['tool_use', recordToolUse],
  ]);

  // User content blocks: tool results resolve a recorded call; text is the echoed prompt or injected context.
  const userBlocks = new Map<string, BlockRule>([
    ['tool_result', resolveToolResult],
    ['text', () => {}],
  ]);

  function system(record: JsonObject): string {
    const rule = typeof record.subtype === 'string' ? systemSubtypes.get(record.subtype) : undefined;
    if (rule) return rule(record);
    unknown(record);
    return records.system.rules.other;
  }

  function assistant(record: JsonObject): string {
    const message = record.message;
    if (!isObject(message) || !Array.isArray(message.content)) {
      span.flush();
      unknown(record);
      return records.assistant.rules.malformed;
    }
    const id = typeof message.id === 'string' ? message.id : null;
    for (const block of message.content) eachBlock(assistantBlocks, block, record, id);
    return records.assistant.rules.blocks;
  }

  function user(record: JsonObject): string {
    const message = record.message;
    const content = isObject(message) ? message.content : undefined;
    if (typeof content === 'string') return records.user.rules.text;
    if (!Array.isArray(content)) {
      unknown(record);
      return records.user.rules.malformed;
    }
    for (const block of content) eachBlock(userBlocks, block, record, null);
    return records.user.rules.blocks;
  }

  function eachBlock(rules: Map<string, BlockRule>, block: unknown, record: JsonObject, id: string | null): void {
    const rule = isObject(block) && typeof block.type === 'string' ? rules.get(block.type) : undefined;
    if (rule) return rule(block as JsonObject, record, id);
    span.flush();
    unknown(block);
  }

  function spanText(block: JsonObject, field: string, kind: 'agent' | 'reasoning', id: string | null): void {
    const text = block[field];
    if (typeof text !== 'string') {
      span.flush();
      return unknown(block);
    }
    // 2.1.x sends thinking blocks with only a signature: nothing to report.
    if (text !== '') span.add(kind, id, text);
  }

  function recordToolUse(block: JsonObject): void {
    span.flush();
    const { id, name } = block;
    if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') return unknown(block);
    const waiting = pending.get(id);
    if (!waiting) {
      heldUses++;
      return pending.add(id, { uses: [block] });
    }
    // The same call restated is not a second call; a different one under the same id is ambiguous.
    waiting.seen ??= new Set([callKey(waiting.uses[0]!)]);
    const key = callKey(block);
    if (waiting.seen.has(key)) return;
    waiting.uses.push(block);
    waiting.seen.add(key);
    if (++heldUses > run.limits.maxPendingTools) pending.settleOldest();
  }

  function resolveToolResult(block: JsonObject, record: JsonObject): void {
    const meta = record.tool_use_result;
    const interrupted = isObject(meta) && meta.interrupted === true;
    const is_success = block.is_error !== true && !interrupted;
    const waiting = typeof block.tool_use_id === 'string' ? pending.take(block.tool_use_id) : undefined;
    if (waiting) heldUses -= waiting.uses.length;
    if (waiting?.uses.length === 1) {
      const use = waiting.uses[0]!;
      return run.tool({ name: use.name as string, input: use.input, is_success, result: meta, output: block.content, raw: { tool_use: use, tool_result: block } });
    }
    if (waiting) return unknown({ tool_use: waiting.uses, tool_result: block });
    // A Read result with no recorded call still names its file (claude-code.md "Tool mapping").
    const file = isObject(meta) && isObject(meta.file) ? meta.file : undefined;
    if (file && typeof file.filePath === 'string' && file.filePath !== '') {
      const input = { file_path: file.filePath, offset: file.startLine, limit: file.numLines };
      return run.tool({ name: 'Read', input, is_success, result: meta, output: block.content, raw: { tool_result: block } });
    }
    unknown(block);
  }

  /** A call whose result never came: classified with its outcome unset (CONTRACT.md). */
  function settle(call: Pending): void {
    heldUses -= call.uses.length;
    if (call.uses.length > 1) return unknown({ tool_use: call.uses });
    const use = call.uses[0]!;
    run.tool({ name: use.name as string, input: use.input, raw: { tool_use: use } });
  }

  function rateLimitEvent(record: JsonObject): string {
    const info = isObject(record.rate_limit_info) ? record.rate_limit_info : {};
    if (info.status === 'allowed') return records.rate_limit_event.rules.allowed;
    const status = typeof info.status === 'string' ? info.status : 'unknown';
    run.emit({ type: 'warning', code: `rate_limit_${status}`, message: describeRateLimit(status, info) });
    return records.rate_limit_event.rules.other;
  }

  function result(record: JsonObject): string {
    const { metrics } = run;
    metrics.ended = true;
    if (isObject(record.usage)) addTokens(metrics.tokens, claudeTokens(record.usage));
    // total_cost_usd is the process's running total; usage, turns and duration are per result.
    const cost = amount(record.total_cost_usd);
    if (cost !== undefined) metrics.cost = cost;
    const turns = tokenCount(record.num_turns);
    if (turns !== undefined) metrics.turns = (metrics.turns ?? 0) + turns;
    const duration = amount(record.duration_ms);
    if (duration !== undefined) metrics.duration_ms = (metrics.duration_ms ?? 0) + duration;
    if (typeof record.result === 'string') metrics.final_output = record.result;
    const subtype = typeof record.subtype === 'string' ? record.subtype : '';
    const failed = record.is_error === true || subtype.startsWith('error_');
    metrics.is_error = failed;
    if (!failed) return records.result.rules.success;
    run.emit({ type: 'error', message: errorMessage(record, subtype), code: errorCode(record, subtype) });
    return records.result.rules.error;
  }

  return {
    // Text waits only for more assistant lines of its message; anything else ends it.
    record: recordTable<typeof records>(run, { system, assistant, user, rate_limit_event: rateLimitEvent, result, stream_event: () => records.stream_event.rules.consumed }, (record) => {
      if (record?.type !== 'assistant') span.flush();
      run.reportSession(record?.session_id);
    }),
    end() {
      span.flush();
      pending.settleAll();
    },
    flush: () => span.flush(),
  };
}

let unserializable = 0;

/** A use's name and input as one string; an input too deep to serialize makes a key of its own (it cannot be shown to restate another). */
function callKey(use: JsonObject): string {
  const input = safeStringify(use.input);
  return input === undefined ? `\u0001${++unserializable}` : `${use.name as string}\0${input}`;
}

/** The shared token mapping (CONTRACT.md): Claude's input is already uncached; thinking is part of output. */
export function claudeTokens(usage: JsonObject): Tokens {
  const details = isObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  const reasoning = tokenCount(details.thinking_tokens);
  const output = tokenCount(usage.output_tokens);
  return tokensOf({
    input: usage.input_tokens,
    output: output !== undefined && reasoning !== undefined ? Math.max(0, output - reasoning) : output,
    reasoning,
    cache_read: usage.cache_read_input_tokens,
    cache_write: usage.cache_creation_input_tokens,
  });
}

function errorMessage(record: JsonObject, subtype: string): string {
  const errors = Array.isArray(record.errors) ? record.errors.filter((e): e is string => typeof e === 'string' && e !== '') : [];
  if (errors.length > 0) return errors.join('; ');
  if (typeof record.result === 'string' && record.result !== '') return record.result;
  return `Claude Code ended in error${subtype ? ` (${subtype})` : ''}`;
}

function errorCode(record: JsonObject, subtype: string): string | undefined {
  if (subtype.startsWith('error_')) return subtype;
  return typeof record.terminal_reason === 'string' && record.terminal_reason !== '' ? record.terminal_reason : undefined;
}

function describeRateLimit(status: string, info: JsonObject): string {
  const details: string[] = [];
  if (typeof info.rateLimitType === 'string') details.push(info.rateLimitType);
  if (typeof info.utilization === 'number') details.push(`${Math.round(info.utilization * 100)}% used`);
  if (typeof info.overageStatus === 'string') details.push(`overage ${info.overageStatus}`);
  if (typeof info.overageDisabledReason === 'string') details.push(info.overageDisabledReason);
  if (typeof info.resetsAt === 'number' && Math.abs(info.resetsAt) < 8.64e12) details.push(`resets ${new Date(info.resetsAt * 1000).toISOString()}`);
  return `Claude Code rate limit ${status}${details.length ? ` (${details.join(', ')})` : ''}`;
}
