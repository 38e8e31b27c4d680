/**
 * Copilot CLI's trace (docs/harnesses/copilot.md "Trace"): whose each record is, its subagents, its model calls.
 * A subagent's records carry its `agentId` and most carry `data.parentToolCallId`, the `task` call that started it,
 * which is the agent's id (its orchestration `subagent_id`); `subagent.started` pairs the two. A `subagent.*` record
 * is its parent's: the agent of the call it names. Model calls: `model.call_start` to `model.call_finished` (or
 * `model.call_failure`) on stdout; a session file has only `session.usage_record`, with the call's tokens, id and
 * duration.
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Tokens } from '../../kernel/events.js';
import type { Limits } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { amount } from '../../kernel/metrics.js';
import { stringField } from '../../kernel/tool-rules.js';
import type { EventIds, RunTrace } from '../../kernel/trace.js';

/** A model call started and not yet finished, by agent. */
interface Started {
  at: unknown;
  model: string | undefined;
}

export interface CopilotTrace {
  /** Each record, first: its agent becomes the trace's current one. */
  record(record: JsonObject | undefined): void;
  /** `subagent.started`: its agent's ids, time and mode. */
  subagentStarted(record: JsonObject, id: string): void;
  /** `subagent.completed` / `subagent.failed`, at its time. */
  subagentEnded(record: JsonObject, id: string, completed: boolean): void;
  /** `model.call_start`. */
  callStart(record: JsonObject): void;
  /** `model.call_finished` / `model.call_failure`. */
  callEnd(record: JsonObject): void;
  /** A usage record's model call (when the stream has no call markers); the ids its usage event carries. */
  usage(record: JsonObject, data: JsonObject, tokens: Tokens, cost: number | undefined): EventIds | undefined;
}

export function copilotTrace(
  trace: RunTrace,
  limits: Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>,
  /** The `tool.execution_start` of a call still waiting for its completion. */
  callRecord: (id: string) => JsonObject | undefined,
): CopilotTrace {
  // agentId -> the agent's id (its task call's); the model calls open, by agent ('' the root).
  const agents = new BoundedMap<string>(limits);
  const open = new BoundedMap<Started>(limits);
  let current: string | undefined;
  // The stream marks its model calls: usage records then make none of their own.
  let marked = false;

  function agentOf(record: JsonObject | undefined): string | undefined {
    if (record === undefined) return undefined;
    const data = isObject(record.data) ? record.data : undefined;
    if (typeof record.type === 'string' && record.type.startsWith('subagent.')) {
      const id = stringField(data, 'toolCallId');
      const call = id === undefined ? undefined : callRecord(id);
      return call === undefined ? undefined : agentOf(call);
    }
    const parent = stringField(data, 'parentToolCallId');
    if (parent !== undefined) return parent;
    const native = stringField(record, 'agentId');
    return native === undefined ? undefined : (agents.get(native) ?? native);
  }

  return {
    record(record) {
      current = agentOf(record);
      trace.agent(current);
    },
    subagentStarted(record, id) {
      const native = stringField(record, 'agentId');
      if (native !== undefined) agents.set(native, id);
      const data = isObject(record.data) ? record.data : {};
      const mode = data.executionMode;
      trace.agentStarted({
        agent_id: id,
        native_id: native,
        name: stringField(data, 'agentName'),
        background: mode === 'background' ? true : mode === 'sync' ? false : undefined,
        call_id: id,
        at: record.timestamp,
      });
    },
    subagentEnded(record, id, completed) {
      trace.agentEnded(id, completed ? 'completed' : 'failed', record.timestamp);
    },
    callStart(record) {
      marked = true;
      const model = stringField(isObject(record.data) ? record.data : undefined, 'model');
      open.take(current ?? '');
      open.set(current ?? '', { at: record.timestamp, model });
    },
    callEnd(record) {
      const started = open.take(current ?? '');
      trace.modelCall({ model: started?.model, started_at: started?.at, at: record.timestamp });
    },
    usage(record, data, tokens, cost) {
      if (marked) return undefined;
      const model_call_id = stringField(data, 'apiCallId');
      const end = typeof record.timestamp === 'string' ? Date.parse(record.timestamp) : NaN;
      const duration = amount(data.duration);
      // The record is written when the call ends; `duration` is how long it took.
      const started_at = duration === undefined || Number.isNaN(end) ? undefined : end - duration;
      const model = stringField(data, 'model');
      trace.modelCall({ model_call_id, model, tokens, cost, started_at, at: record.timestamp });
      return model_call_id === undefined ? undefined : { model_call_id };
    },
  };
}
