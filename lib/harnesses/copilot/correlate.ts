/**
 * GitHub Copilot CLI, `copilot -p PROMPT --output-format json`: docs/harnesses/copilot.md's "Raw event
 * stream" table (records.ts) and the state behind it.
 *
 * Every line is a session event `{type, data, id, timestamp, parentId, agentId?}`; the last is
 * the `result` line, the only one that names the session. Messages arrive whole (their deltas
 * are consumed). A tool call is reported in two records: `tool.execution_start` names the tool
 * and its arguments, `tool.execution_complete` (which names neither) says how it went, so the
 * start waits by `toolCallId` and the call is classified (tools.ts) when it completes. A
 * subagent's events carry its `agentId` and are mapped like the main agent's.
 */
import type { Tokens } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, amount, excluding, tokenCount, tokensOf } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordTable, type RecordHandlers, type RecordRow, type RecordRule } from '../../kernel/record-table.js';
import { stringField } from '../../kernel/tool-rules.js';
import { permissionDenied } from '../../kernel/permission-denied.js';
import { consumedRecords, records } from './records.js';
import type { CopilotResult } from './tools.js';
import { copilotTrace } from './trace.js';

export { records };

/** docs/harnesses/copilot.md: the orchestration event of each `subagent.*` record. */
const SUBAGENT = {
  'subagent.started': { action: 'subagent_started', is_success: undefined },
  'subagent.completed': { action: 'subagent_completed', is_success: true },
  'subagent.failed': { action: 'subagent_failed', is_success: false },
} as const;

/** A started call waiting for its completion. */
interface Started {
  record: JsonObject;
  name: string;
  input: unknown;
  /** A `subagent.started` named this call. */
  subagent: boolean;
}

/** The handler of every consumed row: it returns the row's one rule. */
function consumeAll<
  Rows extends Readonly<Record<string, RecordRow & { readonly rules: { readonly consumed: string } }>>,
>(rows: Rows): RecordHandlers<Rows> {
  const handlers: Partial<Record<keyof Rows, RecordRule>> = {};
  for (const type of Object.keys(rows) as (keyof Rows)[]) {
    const rule = rows[type]!.rules.consumed;
    handlers[type] = () => rule;
  }
  return handlers as RecordHandlers<Rows>;
}

const consumedHandlers = consumeAll(consumedRecords);

export function correlator(run: RunContext): Correlator {
  const calls = new BoundedMap<Started>(run.limits, (call) => classify(call, undefined));
  // Skill name -> its SKILL.md, from `session.skills_loaded` and `skill.invoked`; bounded like the calls.
  const skills = new BoundedMap<string>(run.limits);
  // Whether an error event went out: a failed `result` then needs none of its own.
  let errorReported = false;
  const traced = run.trace && copilotTrace(run.trace, run.limits, (id) => calls.get(id)?.record);

  /** The record is unknown, verbatim, under `rule`. */
  function unknown(record: JsonObject, rule: string): string {
    run.emit({ type: 'unknown', raw: record });
    return rule;
  }

  function dataOf(record: JsonObject): JsonObject | undefined {
    return isObject(record.data) ? record.data : undefined;
  }

  function text(record: JsonObject, kind: 'agent' | 'reasoning'): string {
    const { rules } = kind === 'agent' ? records['assistant.message'] : records['assistant.reasoning'];
    const content = dataOf(record)?.content;
    if (typeof content !== 'string') return unknown(record, rules.malformed);
    if (content === '') return rules.empty;
    run.emit({ type: kind, message: content });
    // The final output is the main agent's: a subagent's events carry its agentId.
    if (kind === 'agent' && record.agentId === undefined) run.metrics.final_output = content;
    return kind === 'agent' ? records['assistant.message'].rules.agent : records['assistant.reasoning'].rules.reasoning;
  }

  function executionStart(record: JsonObject): string {
    const { rules } = records['tool.execution_start'];
    const data = dataOf(record);
    const id = stringField(data, 'toolCallId');
    const name = stringField(data, 'toolName');
    if (id === undefined || name === undefined) return unknown(record, rules.malformed);
    // The first start keeps its place; a second under the same id cannot be told apart from it.
    if (calls.get(id) !== undefined) return unknown(record, rules.repeated);
    calls.set(id, { record, name, input: data!.arguments, subagent: false });
    run.trace?.callStarted({ call_id: id, tool: name, at: record.timestamp });
    return rules.recorded;
  }

  function executionComplete(record: JsonObject): string {
    const { rules } = records['tool.execution_complete'];
    const id = stringField(dataOf(record), 'toolCallId');
    const call = id === undefined ? undefined : calls.take(id);
    if (call === undefined) return unknown(record, rules.unpaired);
    classify(call, record, id);
    const error = dataOf(record)?.error;
    if (!isObject(error) || error.code !== 'denied') return rules.tools;
    permissionDenied(run, { tool: call.name, reason: stringField(error, 'message') ?? 'denied' });
    return rules.refused;
  }

  /**
   * Sends a call to the tool table; one never completed (`completion` undefined) has its outcome unset
   * (docs/contract.md).
   */
  function classify(call: Started, completion: JsonObject | undefined, id?: string): void {
    const data = completion === undefined ? undefined : dataOf(completion);
    const exit = isObject(data?.shellExecution) ? data.shellExecution.exitCode : undefined;
    const telemetry =
      isObject(data?.toolTelemetry) && isObject(data.toolTelemetry.properties)
        ? data.toolTelemetry.properties
        : undefined;
    const skill = stringField(call.input, 'skill');
    const result: CopilotResult = {
      viewType: stringField(telemetry, 'viewType'),
      subagent: call.subagent,
      skillPath: skill === undefined ? undefined : skills.get(skill),
    };
    run.tool({
      id: id ?? stringField(dataOf(call.record), 'toolCallId'),
      name: call.name,
      input: call.input,
      is_success: typeof data?.success === 'boolean' ? data.success : undefined,
      exit_code: Number.isInteger(exit) ? (exit as number) : undefined,
      // Copilot's tools run in the session's directory, which the stream never names.
      working_directory: run.cwd,
      result,
      raw:
        completion === undefined
          ? { execution_start: call.record }
          : { execution_start: call.record, execution_complete: completion },
      ended_at: completion?.timestamp,
    });
  }

  function subagent(record: JsonObject, type: keyof typeof SUBAGENT): string {
    const { rules } = records[type];
    const data = dataOf(record);
    const id = stringField(data, 'toolCallId');
    if (id === undefined) return unknown(record, rules.malformed);
    if (type === 'subagent.started') {
      const call = calls.get(id);
      if (call !== undefined) call.subagent = true;
      traced?.subagentStarted(record, id);
    } else traced?.subagentEnded(record, id, type === 'subagent.completed');
    run.emit({
      type: 'orchestration',
      ...SUBAGENT[type],
      subagent_id: id,
      subagent_name: stringField(data, 'agentName'),
    });
    return rules.orchestration;
  }

  /** `session.error` and `session.warning` relay Copilot's own message, typed by its `errorType` / `warningType`. */
  function relay(record: JsonObject, type: 'session.error' | 'session.warning'): string {
    const { rules } = records[type];
    const data = dataOf(record);
    const message = stringField(data, 'message');
    if (message === undefined) return unknown(record, rules.malformed);
    if (type === 'session.warning') {
      run.emit({ type: 'warning', message, code: stringField(data, 'warningType') });
      return records['session.warning'].rules.warning;
    }
    errorReported = true;
    run.emit({ type: 'error', message, code: stringField(data, 'errorType') });
    return records['session.error'].rules.error;
  }

  function sessionInfo(record: JsonObject): string {
    const { rules } = records['session.info'];
    const data = dataOf(record);
    if (data?.infoType !== 'model_retry') return rules.notice;
    const message = stringField(data, 'message');
    if (message === undefined) return unknown(record, rules.malformed);
    run.emit({ type: 'warning', message, code: 'model_retry' });
    return rules.retry;
  }

  function abort(record: JsonObject): string {
    const reason = stringField(dataOf(record), 'reason');
    errorReported = true;
    run.emit({ type: 'error', message: reason === undefined ? 'aborted' : `aborted: ${reason}`, code: 'abort' });
    return records.abort.rules.error;
  }

  function usage(record: JsonObject): string {
    const { rules } = records['assistant.usage'];
    const data = dataOf(record);
    const tokens = data === undefined ? {} : copilotTokens(data);
    if (Object.keys(tokens).length === 0) return unknown(record, rules.malformed);
    const cost = amount(data!.cost);
    addTokens(run.metrics.tokens, tokens);
    if (cost !== undefined) run.metrics.cost = (run.metrics.cost ?? 0) + cost;
    run.emit({ type: 'usage', tokens, cost }, traced?.usage(record, data!, tokens, cost));
    return rules.usage;
  }

  function result(record: JsonObject): string {
    const { metrics } = run;
    run.reportSession(record.sessionId);
    metrics.ended = true;
    const usage = isObject(record.usage) ? record.usage : {};
    const duration = amount(usage.sessionDurationMs);
    const apiDuration = amount(usage.totalApiDurationMs);
    if (duration !== undefined) metrics.duration_ms = duration;
    if (apiDuration !== undefined) metrics.api_duration_ms = apiDuration;
    const exitCode = record.exitCode;
    if (!Number.isInteger(exitCode)) return records.result.rules.metrics;
    metrics.exit_code = exitCode as number;
    metrics.is_error = exitCode !== 0;
    if (exitCode === 0 || errorReported) return records.result.rules.metrics;
    errorReported = true;
    run.emit({ type: 'error', message: `copilot exited with code ${exitCode}`, code: 'exit_code' });
    return records.result.rules.error;
  }

  /** Remembers where a skill's file is; past the limit the oldest name is forgotten. */
  function locateSkill(skill: unknown): void {
    const name = stringField(skill, 'name');
    const path = stringField(skill, 'path');
    if (name === undefined || path === undefined) return;
    // The latest location wins, and counts as the newest.
    skills.take(name);
    skills.set(name, path);
  }

  function skillsLoaded(record: JsonObject): string {
    const listed = dataOf(record)?.skills;
    if (Array.isArray(listed)) for (const skill of listed) locateSkill(skill);
    return records['session.skills_loaded'].rules.skills;
  }

  return {
    record: recordTable<typeof records>(
      run,
      {
        ...consumedHandlers,
        'model.call_start': (record) => (traced?.callStart(record), records['model.call_start'].rules.consumed),
        'model.call_finished': (record) => (traced?.callEnd(record), records['model.call_finished'].rules.consumed),
        'model.call_failure': (record) => (traced?.callEnd(record), records['model.call_failure'].rules.consumed),
        'assistant.message': (record) => text(record, 'agent'),
        'assistant.reasoning': (record) => text(record, 'reasoning'),
        'tool.execution_start': executionStart,
        'tool.execution_complete': executionComplete,
        'subagent.started': (record) => subagent(record, 'subagent.started'),
        'subagent.completed': (record) => subagent(record, 'subagent.completed'),
        'subagent.failed': (record) => subagent(record, 'subagent.failed'),
        'session.error': (record) => relay(record, 'session.error'),
        'session.warning': (record) => relay(record, 'session.warning'),
        'session.info': sessionInfo,
        abort,
        'assistant.usage': usage,
        result,
        'session.skills_loaded': skillsLoaded,
        'skill.invoked': (record) => (locateSkill(dataOf(record)), records['skill.invoked'].rules.skills),
        'external_tool.requested': (record) => unknown(record, records['external_tool.requested'].rules.unknown),
        'external_tool.completed': (record) => unknown(record, records['external_tool.completed'].rules.unknown),
      },
      traced && ((record) => traced.record(record)),
    ),
    end() {
      calls.evictAll();
    },
  };
}

/**
 * docs/harnesses/copilot.md "Metrics": `inputTokens` is the whole prompt, its cached part included, so
 * `input` is what remains once `cacheReadTokens` is taken out; each class only when reported.
 */
function copilotTokens(data: JsonObject): Tokens {
  const cached = tokenCount(data.cacheReadTokens);
  return tokensOf({
    input: excluding(tokenCount(data.inputTokens), cached),
    cache_read: cached,
    cache_write: data.cacheWriteTokens,
    output: data.outputTokens,
    reasoning: data.reasoningTokens,
  });
}
