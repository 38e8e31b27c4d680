/**
 * Qwen Code's trace (docs/harnesses/qwen.md "Trace"): a subagent's lines carry `parent_tool_use_id`, its `agent`
 * call's id (its orchestration `subagent_id`), and it starts with the first of them (a foreground agent has no start
 * record) or its `task_started` (a background one). A model response's usage is on its last record, the main agent's
 * only (the split records' and the subagents' are zero): that record ends a model call. In a session file a
 * subagent's records carry its `agentId`, `<subagent_type>-<call id>`, and each request is a `ui_telemetry`
 * `api_response` (its id, tokens, time and duration, and the subagent's `subagent_id`).
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Tokens } from '../../kernel/events.js';
import type { Limits } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { stringField } from '../../kernel/tool-rules.js';
import type { AgentStart, EventIds, RunTrace } from '../../kernel/trace.js';
import { amount } from '../../kernel/metrics.js';
import { parentToolUse } from '../claude-code/dialect.js';

export interface QwenTrace {
  /** An `agent` (or `task`) call, in the record being read. */
  spawn(block: JsonObject): void;
  /** The agent a record belongs to; its first record starts it. */
  agentOf(record: JsonObject | undefined): string | undefined;
  /** A background agent's `task_started`. */
  background(id: string): void;
  /** An assistant record: a model call when it carries the response's usage (in the usage events' classes). */
  response(record: JsonObject, tokensOf: (usage: JsonObject) => Tokens): void;
  /** A session file's record: its agent (`agentId`), which its first record starts. */
  sessionAgentOf(record: JsonObject | undefined): string | undefined;
  /** A session file's `api_response`: its model call; the ids its usage event carries. */
  apiResponse(record: JsonObject, event: JsonObject, tokens: Tokens): EventIds;
}

export function qwenTrace(trace: RunTrace, limits: Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>): QwenTrace {
  // The agent calls whose agent has not started, by call id (a session file's `agentId`s: by `<type>-<call id>`).
  const spawned = new BoundedMap<AgentStart>(limits);
  // A session file's subagents: their agentId to their id.
  const natives = new BoundedMap<string>(limits);
  // The agent of the record being read.
  let current: string | undefined;

  function start(id: string, background?: boolean, at?: unknown): void {
    const agent = spawned.take(id);
    if (agent) trace.agentStarted({ ...agent, ...(background && { background }), at });
  }

  /** A foreground subagent's end: its call's result (a background one's is only its launch). */
  function ended(record: JsonObject): void {
    const result = isObject(record.toolCallResult) ? record.toolCallResult : {};
    const display = isObject(result.resultDisplay) ? result.resultDisplay : {};
    const id = stringField(result, 'callId');
    if (id === undefined || display.type !== 'task_execution' || display.executionMode === 'background') return;
    trace.agentEnded(id, result.status === 'success' ? 'completed' : 'failed', record.timestamp);
  }

  function native(id: string | undefined): string | undefined {
    return id === undefined ? undefined : (natives.get(id) ?? id);
  }

  return {
    spawn(block) {
      const input = isObject(block.input) ? block.input : {};
      const id = block.id as string;
      const name = stringField(input, 'subagent_type') ?? 'general-purpose';
      spawned.set(`${name}-${id}`, { agent_id: id, call_id: id, name, parent_id: current });
      spawned.set(id, { agent_id: id, call_id: id, name, parent_id: current });
    },
    agentOf(record) {
      current = parentToolUse(record);
      if (current !== undefined) start(current);
      return current;
    },
    sessionAgentOf(record) {
      if (record?.type === 'tool_result') ended(record);
      const id = stringField(record, 'agentId');
      if (id !== undefined && !natives.has(id)) {
        const agent = spawned.get(id);
        natives.set(id, agent?.agent_id ?? id);
        if (agent !== undefined) {
          spawned.take(agent.agent_id);
          start(id, undefined, record!.timestamp);
        } else trace.agentStarted({ agent_id: id, at: record!.timestamp });
      }
      current = native(id);
      return current;
    },
    apiResponse(record, event, tokens) {
      const model_call_id = stringField(event, 'response_id');
      const at = event['event.timestamp'] ?? record.timestamp;
      const end = typeof at === 'string' ? Date.parse(at) : NaN;
      const duration = amount(event.duration_ms);
      // The main file has the subagents' requests too: each names its subagent.
      const agent_id = native(stringField(event, 'subagent_id'));
      trace.modelCall({
        model_call_id,
        agent_id,
        model: stringField(event, 'model'),
        tokens,
        // The record is written when the request ends; `duration_ms` is how long it took.
        started_at: duration === undefined || Number.isNaN(end) ? undefined : end - duration,
        at,
      });
      return model_call_id === undefined ? { agent_id } : { model_call_id, agent_id };
    },
    background: (id) => start(id, true),
    response(record, tokensOf) {
      const message = isObject(record.message) ? record.message : {};
      const usage = isObject(message.usage) ? tokensOf(message.usage) : {};
      if (!Object.values(usage).some((count) => count > 0)) return;
      const model = typeof message.model === 'string' ? message.model : undefined;
      trace.modelCall({ model_call_id: stringField(message, 'id'), model, tokens: usage });
    },
  };
}
