/**
 * Gemini CLI, `gemini -p ... --output-format stream-json`: docs/harnesses/gemini.md's "Raw event stream" and
 * "Run metrics", as tables. Wire shapes: Gemini CLI's stream-json output (docs/harnesses/gemini.md).
 *
 * Stateful in two ways. Assistant text arrives as `message` deltas, one per streamed chunk (a
 * sentence often spans several), so they wait in one span until any other record arrives. A
 * `tool_use` waits, by its `tool_id`, for the `tool_result` that says how it went (parallel calls
 * of one response are all announced first); only then is it classified (tools.ts). The run ends
 * with `result`, whose `stats` are the session's totals.
 */
import type { Tokens } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import type { RunTrace } from '../../kernel/trace.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { amount, tokenCount, tokensOf } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordTable, recordRows } from '../../kernel/record-table.js';
import { stringField } from '../../kernel/tool-rules.js';
import { permissionDenied } from '../../kernel/permission-denied.js';

/**
 * The errors an approval mode answers a call with (measured on 0.61.0): headless, `default` and `plan` do not
 * register the tools that would ask, so their call is `tool_not_registered` (an unknown tool's call is no refusal);
 * `plan` lets the write tools write only its plans directory. Any other error is the tool failing.
 */
const refusals: readonly { type: string; tools: ReadonlySet<string>; message?: string; why: string }[] = [
  {
    type: 'tool_not_registered',
    tools: new Set(['write_file', 'replace', 'run_shell_command']),
    why: 'the approval mode does not offer it headless',
  },
  {
    type: 'invalid_tool_params',
    tools: new Set(['write_file', 'replace']),
    message: 'Access denied: plan path ',
    why: 'the plan mode writes only its plans directory',
  },
];

/** docs/harnesses/gemini.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  init: {
    handling: 'captures the session id from `session_id`; `model` is consumed; no event',
    rules: { session: 'init: session id', malformed: 'init without session_id: unknown' },
  },
  message: {
    handling:
      'role `user`: consumed (the prompt, echoed). Role `assistant`: text span, its `content` appended to the open ' +
      'span, flushed as one agent event when any other record arrives and at the end of input (a span that is ' +
      'empty when flushed emits nothing)',
    rules: {
      user: 'message/user: consumed',
      assistant: 'message/assistant: text span',
      malformed: 'message, other role or no content: unknown',
    },
  },
  tool_use: {
    handling: 'recorded under `tool_id` (name `tool_name`, input `parameters`); no event',
    rules: { recorded: 'tool_use: recorded', malformed: 'tool_use, malformed or its tool_id already waiting: unknown' },
  },
  tool_result: {
    handling:
      'resolves the recorded call: the tool\'s event(s) (the tool table); success is `status == "success"`, except ' +
      'for `run_shell_command`. A tool the approval mode leaves out headless (error `tool_not_registered` ' +
      "for write_file, replace, run_shell_command), or a write outside the plan mode's plans directory (error " +
      '`invalid_tool_params`, `Access denied: plan path ...`), is also a `permission_denied` warning. A result ' +
      'whose `tool_id` was never announced is unknown, carrying the result',
    rules: {
      resolved: 'tool_result: tool table',
      refused: 'tool_result, a tool the approval mode left out or the plan mode kept from writing: tool table, warning',
      unpaired: 'tool_result, never announced: unknown',
    },
  },
  error: {
    handling:
      'severity `warning`: warning, with `message` (loop detected, agent execution blocked by a hook); severity ' +
      '`error`: error, with `message` (invalid model stream, maximum session turns)',
    rules: {
      warning: 'error/warning: warning',
      error: 'error/error: error',
      malformed: 'error, other severity or no message: unknown',
    },
  },
  result: {
    handling:
      'the terminal record: `stats` go to the run metrics. With `status: "error"` and an `error` object: error, ' +
      'with `error.message` as message and `error.type` as code. With `status: "error"` and no `error` object ' +
      '(an invalid stream, already reported by its `error` record): no event. `status: "success"`: no event',
    rules: {
      success: 'result/success: consumed',
      error: 'result/error: error',
      reported: 'result/error without error object: consumed',
      malformed: 'result, other status or error without message: unknown',
    },
  },
});

/**
 * `tool_result.status` (docs/harnesses/gemini.md): success is `status == "success"`; any status but these two reports
 * no outcome.
 */
const STATUS_SUCCESS = new Map<unknown, boolean>([
  ['success', true],
  ['error', false],
]);

export function correlator(run: RunContext): Correlator {
  // The last agent message is the run's final output (the result record carries no text).
  const span = run.textSpan({
    onEmit(kind, text) {
      if (kind === 'agent') run.metrics.final_output = text;
    },
  });
  const pending = new BoundedMap<JsonObject>(run.limits, settle);

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  function init(record: JsonObject): string {
    run.trace?.began(record.timestamp);
    const id = stringField(record, 'session_id');
    if (id === undefined) {
      unknown(record);
      return records.init.rules.malformed;
    }
    run.reportSession(id);
    return records.init.rules.session;
  }

  function message(record: JsonObject): string {
    if (record.role === 'user') return records.message.rules.user;
    if (record.role !== 'assistant' || typeof record.content !== 'string') {
      unknown(record);
      return records.message.rules.malformed;
    }
    span.add('agent', null, record.content);
    return records.message.rules.assistant;
  }

  function toolUse(record: JsonObject): string {
    const id = stringField(record, 'tool_id');
    // A second call under an id still waiting could not be told from the first by its result.
    if (id === undefined || stringField(record, 'tool_name') === undefined || pending.get(id)) {
      unknown(record);
      return records.tool_use.rules.malformed;
    }
    pending.set(id, record);
    if (run.trace !== undefined)
      announce(run.trace, id, record.tool_name as string, record.parameters, record.timestamp);
    return records.tool_use.rules.recorded;
  }

  function toolResult(record: JsonObject): string {
    const id = stringField(record, 'tool_id');
    const use = id === undefined ? undefined : pending.take(id);
    if (!use) {
      unknown(record);
      return records.tool_result.rules.unpaired;
    }
    const is_success = STATUS_SUCCESS.get(record.status);
    // The subagent ended with its call (the tool table's orchestration event says so at the call's end).
    if (use.tool_name === 'invoke_agent')
      run.trace?.agentEnded(id!, is_success === false ? 'failed' : 'completed', record.timestamp);
    run.tool({
      id,
      name: use.tool_name as string,
      input: use.parameters,
      is_success,
      output: record.output,
      raw: { tool_use: use, tool_result: record },
      ended_at: record.timestamp,
    });
    const error = isObject(record.error) ? record.error : {};
    const message = stringField(error, 'message');
    const refusal = refusals.find(
      (refusal) =>
        refusal.type === error.type &&
        refusal.tools.has(use.tool_name as string) &&
        (refusal.message === undefined || message?.startsWith(refusal.message) === true),
    );
    if (refusal === undefined) return records.tool_result.rules.resolved;
    permissionDenied(run, { tool: use.tool_name as string, reason: `${message ?? error.type} (${refusal.why})` });
    return records.tool_result.rules.refused;
  }

  /** A call whose result never came: classified with its outcome unset (docs/contract.md). */
  function settle(use: JsonObject): void {
    run.tool({
      id: use.tool_id as string,
      name: use.tool_name as string,
      input: use.parameters,
      raw: { tool_use: use },
    });
  }

  function error(record: JsonObject): string {
    const message = stringField(record, 'message');
    if (message !== undefined && record.severity === 'warning') {
      run.emit({ type: 'warning', message });
      return records.error.rules.warning;
    }
    if (message !== undefined && record.severity === 'error') {
      run.emit({ type: 'error', message });
      return records.error.rules.error;
    }
    unknown(record);
    return records.error.rules.malformed;
  }

  function result(record: JsonObject): string {
    const { metrics } = run;
    metrics.ended = true;
    if (isObject(record.stats)) readStats(record.stats);
    if (record.status === 'success') {
      metrics.is_error = false;
      return records.result.rules.success;
    }
    if (record.status !== 'error') {
      unknown(record);
      return records.result.rules.malformed;
    }
    metrics.is_error = true;
    // An invalid stream: its `error` record already said what went wrong.
    if (record.error === undefined) return records.result.rules.reported;
    const message = stringField(record.error, 'message');
    if (message === undefined) {
      unknown(record);
      return records.result.rules.malformed;
    }
    run.emit({ type: 'error', message, code: stringField(record.error, 'type') });
    return records.result.rules.error;
  }

  /**
   * docs/harnesses/gemini.md "Run metrics": the session's totals replace what the metrics held. They are the run's own
   * (this process's, a resumed session's earlier runs not included: measured by live/usage.live.ts), every model call
   * included: the trace's run total.
   */
  function readStats(stats: JsonObject): void {
    const { metrics } = run;
    metrics.tokens = geminiTokens(stats);
    run.trace?.runTotal({ tokens: metrics.tokens, models: byModel(stats.models), scope: 'run' });
    const duration = amount(stats.duration_ms);
    if (duration !== undefined) metrics.duration_ms = duration;
    const toolCalls = tokenCount(stats.tool_calls);
    if (toolCalls !== undefined) metrics.tool_calls = toolCalls;
  }

  return {
    // Text waits only for more assistant deltas; any other record ends it.
    record: recordTable<typeof records>(
      run,
      { init, message, tool_use: toolUse, tool_result: toolResult, error, result },
      (record) => {
        if (record?.type !== 'message' || record.role !== 'assistant') span.flush();
      },
    ),
    end() {
      span.flush();
      pending.evictAll();
    },
    flush: () => span.flush(),
  };
}

/**
 * A call the harness announced, for the trace: `call_started` at its record's time, and an `invoke_agent` call's
 * subagent (`agent_id` = the call's `tool_id`, the orchestration event's `subagent_id`), which runs inside the call.
 * `native_id`: the subagent's own chat id, where the session file names it.
 */
export function announce(
  trace: RunTrace,
  call_id: string,
  tool: string,
  input: unknown,
  at: unknown,
  native_id?: unknown,
) {
  trace.callStarted({ call_id, tool, at });
  if (tool !== 'invoke_agent') return;
  const name = stringField(input, 'agent_name');
  trace.agentStarted({
    agent_id: call_id,
    call_id,
    name,
    native_id: typeof native_id === 'string' && native_id !== '' ? native_id : undefined,
    at,
  });
}

/** `stats.models`: each model's tokens, read as the totals are; undefined when it is not an object of them. */
function byModel(models: unknown): Record<string, Tokens> | undefined {
  if (!isObject(models)) return undefined;
  const entries = Object.entries(models).filter((entry): entry is [string, JsonObject] => isObject(entry[1]));
  return entries.length === 0
    ? undefined
    : Object.fromEntries(entries.map(([name, stats]) => [name, geminiTokens(stats)]));
}

/**
 * The token classes of `result.stats` (docs/harnesses/gemini.md "Run metrics"): `input` is already uncached;
 * the thoughts tokens are only in `total_tokens`, so reasoning is what the total has beyond
 * input and output, when that is more than 0.
 */
export function geminiTokens(stats: JsonObject): Tokens {
  const total = tokenCount(stats.total_tokens);
  const input = tokenCount(stats.input_tokens);
  const output = tokenCount(stats.output_tokens);
  const beyond = total !== undefined && input !== undefined && output !== undefined ? total - input - output : 0;
  return tokensOf({ input: stats.input, cache_read: stats.cached, output, reasoning: beyond > 0 ? beyond : undefined });
}
