/**
 * Cline's trace (docs/harnesses/cline.md "Trace"). `agent_event` lines name no agent: a line is the agent's whose
 * `hook_event` bracket it falls in (`agent_start` ... `agent_end`, and each `tool_call` / `tool_result` hook names its
 * `agentId`). A subagent's id is its `spawn_agent` call's (its orchestration `subagent_id`): the `agent_start` with a
 * `parentAgentId` that follows the call is its agent's (`native_id`). Yolo runs write no hooks: every line is the
 * root agent's. A model call starts at `iteration_start` and ends at its `usage` line (an iteration goes on through
 * its tool calls).
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Tokens } from '../../kernel/events.js';
import type { Limits } from '../../kernel/harness.js';
import type { JsonObject } from '../../kernel/json.js';
import { stringField } from '../../kernel/tool-rules.js';
import type { RunTrace } from '../../kernel/trace.js';

export interface ClineTrace {
  /** A `hook_event` line: the agent whose lines follow. */
  hook(line: JsonObject): void;
  /** A `spawn_agent` call announced: its agent is the next to start under a parent. */
  spawn(id: string, line: JsonObject): void;
  /** `iteration_start`: a model call starts. */
  iterationStart(line: JsonObject): void;
  /** A `usage` line: the model call ends. */
  usage(line: JsonObject, tokens: Tokens | undefined, cost: number | undefined): void;
  /** `done`: a subagent's end, right after its `agent_end`. */
  done(line: JsonObject, event: JsonObject): void;
}

export function clineTrace(trace: RunTrace, limits: Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>): ClineTrace {
  // The spawn_agent calls whose agent has not started, oldest first; the subagents' agentIds to their ids (the root's
  // to ''); the model calls' starts, by agent ('' the root).
  const spawns: string[] = [];
  const agents = new BoundedMap<string>(limits);
  const starts = new BoundedMap<unknown>(limits);
  let current: string | undefined;
  // The subagent whose agent_end was the last hook: its `done` follows.
  let ending: string | undefined;

  function idOf(native: string | undefined): string | undefined {
    const id = native === undefined ? undefined : agents.get(native);
    return id === '' ? undefined : id;
  }

  function become(agent_id: string | undefined): void {
    current = agent_id;
    trace.agent(agent_id);
  }

  function agentStart(native: string, parent: string | undefined): void {
    agents.set(native, parent === undefined ? '' : (spawns.shift() ?? native));
  }

  return {
    hook(line) {
      const native = stringField(line, 'agentId');
      if (native === undefined) return;
      const parent = stringField(line, 'parentAgentId');
      const hook = line.hookEventName;
      if (hook === 'agent_start' && !agents.has(native)) agentStart(native, parent);
      ending = undefined;
      if (hook === 'agent_end' && parent !== undefined) {
        // The lines after a subagent's end are its parent's.
        ending = idOf(native);
        return become(idOf(parent));
      }
      become(idOf(native));
    },
    spawn(id, line) {
      spawns.push(id);
      // Bounded like the calls: past it the oldest spawn's agent keeps its agentId.
      if (spawns.length > limits.maxPendingTools) spawns.shift();
      trace.agentStarted({ agent_id: id, call_id: id, at: line.ts });
    },
    iterationStart(line) {
      starts.take(current ?? '');
      starts.set(current ?? '', line.ts);
    },
    usage(line, tokens, cost) {
      const started_at = starts.take(current ?? '');
      trace.modelCall({ tokens, cost, started_at, at: line.ts });
    },
    done(line, event) {
      if (ending === undefined) return;
      trace.agentEnded(ending, event.reason === 'completed' ? 'completed' : 'failed', line.ts);
      ending = undefined;
    },
  };
}
