/**
 * Qwen Code, `qwen --approval-mode yolo --output-format stream-json`: docs/harnesses/qwen.md's "Raw event stream"
 * table, as a table. Qwen Code writes Claude Code's stream-json dialect, so the records, content
 * blocks and tool pairing are Claude Code's (../claude-code/dialect.ts); what is Qwen's own is
 * here, numbered as docs/harnesses/qwen.md's differences: one block type per assistant record (2), API errors
 * written as assistant text (3), its system subtypes (4), orchestration (5), control records (6),
 * monitors' task records (10) and its `result` (session token totals, no cost). Its tool table is
 * tools.ts, the exit codes of the runs that end without a `result` (9) exit-codes.ts.
 */
import type { Tokens } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { excluding, tokenCount, tokensOf } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordRows, type RecordRule } from '../../kernel/record-table.js';
import { stringField } from '../../kernel/tool-rules.js';
import { permissionDenied, type Refusal } from '../../kernel/permission-denied.js';
import { backgroundAgents } from '../claude-code/background-agents.js';
import { bySubtype, dialect, endRun, errorCode, errorMessage } from '../claude-code/dialect.js';
import { qwenTrace } from './trace.js';

/** docs/harnesses/qwen.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  system: {
    handling:
      "`init` captures the session id and cwd; `task_started`, `task_notification` are a subagent's orchestration " +
      "or a monitor's, consumed (differences 5, 10); `retry`, " +
      '`model_fallback`, `continue_turn_failed` are warnings (`code` = the subtype); `worktree_started`, ' +
      '`worktree_restored`, `session_start`, `session_end` are consumed; any other subtype is unknown',
    rules: {
      init: 'system/init: consumed',
      taskStarted: 'system/task_started: orchestration',
      taskNotification: 'system/task_notification: orchestration',
      taskMalformed: 'system/task_*, malformed: unknown',
      monitorTask: "system/task_*, a monitor's: consumed",
      retry: 'system/retry: warning',
      modelFallback: 'system/model_fallback: warning',
      continueTurnFailed: 'system/continue_turn_failed: warning',
      worktreeStarted: 'system/worktree_started: consumed',
      worktreeRestored: 'system/worktree_restored: consumed',
      sessionStart: 'system/session_start: consumed',
      sessionEnd: 'system/session_end: consumed',
      other: 'system, other subtype: unknown',
    },
  },
  assistant: {
    handling:
      'text blocks (joined per record) -> agent, except an `[API Error: ...]` text -> error; thinking blocks ' +
      '(joined per record, non-empty) -> reasoning; tool_use blocks recorded until their result',
    rules: { blocks: 'assistant', malformed: 'assistant, malformed: unknown' },
  },
  user: {
    handling: 'tool_result blocks resolve the recorded call (the tool table); text blocks consumed',
    rules: { blocks: 'user', text: 'user text: consumed', malformed: 'user, malformed: unknown' },
  },
  stream_event: { handling: 'consumed', rules: { consumed: 'stream_event: consumed' } },
  control_request: { handling: 'consumed (SDK permission traffic)', rules: { consumed: 'control_request: consumed' } },
  control_response: {
    handling: 'consumed (SDK permission traffic)',
    rules: { consumed: 'control_response: consumed' },
  },
  result: {
    handling:
      'the end of the run: usage, turns, duration and final text (`result`) go to the metrics; each entry of ' +
      '`permission_denials` (a call the approval mode refused) is a `permission_denied` warning; an error is an ' +
      'error event with `error.message`, unless it repeats the last `[API Error: ...]` text',
    rules: {
      success: 'result: consumed',
      error: 'result reporting an error: error',
      repeated: 'result repeating the API error: consumed',
    },
  },
});

const rules = records.system.rules;

/** Difference 3: a failed model call, written as the text of an assistant record. */
export function isApiError(text: string): boolean {
  return text.startsWith('[API Error:') && text.endsWith(']');
}

export function correlator(run: RunContext): Correlator {
  // The last `[API Error: ...]` text reported: the error `result` that follows repeats it.
  let lastApiError: string | undefined;
  // Background agents (difference 5), and the calls whose "launched" result is still to come, with their tool's name.
  const agents = backgroundAgents(run);
  const launched = new BoundedMap<string>(run.limits);
  // The `agent` (legacy `task`) and `monitor` calls seen, by id: whose task records are whose (differences 5, 10).
  const tasking = new BoundedMap<'agent' | 'monitor'>(run.limits);

  const traced = run.trace && qwenTrace(run.trace, run.limits);
  const stream = dialect(run, records, {
    // Qwen writes one record per block type, each with its own message id (difference 2).
    joinText: 'record',
    agentOf: traced?.agentOf,
    textEvent(text) {
      if (!isApiError(text)) return undefined;
      lastApiError = text;
      return { type: 'error', message: text };
    },
    // A background agent's "launched" result: its task_started said it all, but for the trace, its call's end.
    unpaired(block, _record, is_success) {
      const id = block.tool_use_id;
      const tool = typeof id === 'string' ? launched.take(id) : undefined;
      if (tool === undefined) return false;
      run.trace?.callEnded(id as string, tool, is_success);
      return true;
    },
  });

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  function warning(rule: string, message: (data: JsonObject) => string): RecordRule {
    return (record) => {
      const data = isObject(record.data) ? record.data : {};
      run.emit({ type: 'warning', code: record.subtype as string, message: message(data) });
      return rule;
    };
  }

  function rememberTasking(record: JsonObject): void {
    const content = isObject(record.message) ? record.message.content : undefined;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_use' || typeof block.id !== 'string') continue;
      const kind =
        block.name === 'monitor' ? 'monitor' : block.name === 'agent' || block.name === 'task' ? 'agent' : '';
      if (kind !== '') tasking.set(block.id, kind);
      if (kind === 'agent') traced?.spawn(block);
    }
  }

  /**
   * Difference 5: a monitor's task records (its call's id; for an id never seen, a `mon_` task id) are not a
   * subagent's.
   */
  function isMonitors(data: unknown, id: string): boolean {
    const kind = tasking.get(id);
    if (kind !== undefined) return kind === 'monitor';
    return stringField(data, 'task_id')?.startsWith('mon_') === true;
  }

  /** A background agent started: its call and "launched" result are consumed (difference 5). */
  function taskStarted(record: JsonObject): string {
    const id = stringField(record.data, 'tool_use_id');
    if (id === undefined) {
      unknown(record);
      return rules.taskMalformed;
    }
    if (isMonitors(record.data, id)) return rules.monitorTask;
    launched.set(id, stream.dropCall(id) ?? 'agent');
    traced?.background(id);
    agents.started(id, stringField(record.data, 'subagent_type'));
    return rules.taskStarted;
  }

  function taskNotification(record: JsonObject): string {
    const id = stringField(record.data, 'tool_use_id');
    const status = stringField(record.data, 'status');
    if (id === undefined || status === undefined) {
      unknown(record);
      return rules.taskMalformed;
    }
    if (isMonitors(record.data, id)) return rules.monitorTask;
    agents.ended(id, status);
    return rules.taskNotification;
  }

  // Difference 4.
  const system = bySubtype(
    run,
    new Map<string, RecordRule>([
      ['init', (record) => (run.reportCwd(record.cwd), rules.init)],
      ['task_started', taskStarted],
      ['task_notification', taskNotification],
      ['retry', warning(rules.retry, describeRetry)],
      ['model_fallback', warning(rules.modelFallback, describeModelFallback)],
      ['continue_turn_failed', warning(rules.continueTurnFailed, describeContinueTurnFailed)],
      ['worktree_started', () => rules.worktreeStarted],
      ['worktree_restored', () => rules.worktreeRestored],
      ['session_start', () => rules.sessionStart],
      ['session_end', () => rules.sessionEnd],
    ]),
    rules.other,
  );

  function result(record: JsonObject): string {
    const { failed, subtype } = endRun(run, record);
    for (const refusal of refusals(record.permission_denials)) permissionDenied(run, refusal);
    // The session's total over every API call, subagents included: it replaces, never adds.
    if (isObject(record.usage)) run.metrics.tokens = qwenTokens(record.usage);
    if (!failed) return records.result.rules.success;
    const message = stringField(record.error, 'message') ?? errorMessage(record, subtype, 'Qwen Code');
    if (message === lastApiError) return records.result.rules.repeated;
    run.emit({ type: 'error', message, code: errorCode(record, subtype) });
    return records.result.rules.error;
  }

  return stream.correlator<typeof records>({
    system,
    assistant(record) {
      rememberTasking(record);
      const rule = stream.assistant(record);
      traced?.response(record, qwenTokens);
      return rule;
    },
    user: stream.user,
    stream_event: () => records.stream_event.rules.consumed,
    control_request: () => records.control_request.rules.consumed,
    control_response: () => records.control_response.rules.consumed,
    result,
  });
}

/** `permission_denials: [{tool_name, tool_use_id, tool_input}]`: the calls the approval mode refused, headless. */
function refusals(denials: unknown): Refusal[] {
  if (!Array.isArray(denials)) return [];
  return denials.map((denial) => ({
    tool: stringField(denial, 'tool_name') ?? 'a tool',
    reason: 'the approval mode refused it (the result lists it in permission_denials)',
  }));
}

/**
 * docs/harnesses/qwen.md token classes: `input_tokens` includes the cached tokens; reasoning is part of
 * `output_tokens`, not reported apart.
 */
export function qwenTokens(usage: JsonObject): Tokens {
  return tokensOf({
    input: excluding(tokenCount(usage.input_tokens), tokenCount(usage.cache_read_input_tokens)),
    cache_read: usage.cache_read_input_tokens,
    output: usage.output_tokens,
  });
}

/** `retry` data: `{reason, attempt?, maxRetries?, delayMs?, discardedToolCalls, preserveText}`. */
function describeRetry(data: JsonObject): string {
  const details: string[] = [];
  if (typeof data.reason === 'string' && data.reason !== 'retry') details.push(data.reason);
  const attempt = tokenCount(data.attempt);
  const max = tokenCount(data.maxRetries);
  if (attempt !== undefined) details.push(max === undefined ? `attempt ${attempt}` : `attempt ${attempt} of ${max}`);
  const delay = tokenCount(data.delayMs);
  if (delay !== undefined) details.push(`after ${delay} ms`);
  const discarded = tokenCount(data.discardedToolCalls);
  if (discarded) details.push(`${discarded} tool call${discarded === 1 ? '' : 's'} discarded`);
  return `Qwen Code retries the turn${details.length ? ` (${details.join(', ')})` : ''}`;
}

/** `model_fallback` data: `{fromModel, toModel, statusCode, fallbackIndex}`. */
function describeModelFallback(data: JsonObject): string {
  const from = stringField(data, 'fromModel');
  const to = stringField(data, 'toModel');
  const status = tokenCount(data.statusCode);
  return (
    `Qwen Code falls ` +
    `back${from ? ` from ${from}` : ''}${to ? ` to ${to}` : ''}${status === undefined ? '' : ` (HTTP ${status})`}`
  );
}

/** `continue_turn_failed` data: `{error}`, the failure of a turn continued after its result. */
function describeContinueTurnFailed(data: JsonObject): string {
  const error = stringField(data, 'error');
  return `Qwen Code could not continue the turn${error ? `: ${error}` : ''}`;
}
