/**
 * The subagent tree of a Claude Code session file, for the trace (docs/harnesses/claude-code.md "Trace"). A
 * subagent's records, merged in from its own file, carry its `agentId`; the trace names it as stdout does, by the
 * Agent (or Task) call that started it. That call is found by its prompt: the subagent's first record is the
 * call's `input.prompt`, as a `user` record. A subagent no call's prompt matches keeps its `agentId`. The call's result
 * (`toolUseResult` with `agentId`) ends a foreground subagent; a background one's end is only text (the session's
 * `<task-notification>`), so it stays open.
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Limits } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import type { RunTrace } from '../../kernel/trace.js';

/** An Agent or Task call whose subagent has not shown itself yet. */
interface Spawn {
  call_id: string;
  parent_id: string | undefined;
  name: string | undefined;
  /** As the call asked; unset: the build's default, which the session file does not say before the agent starts. */
  background: boolean | undefined;
}

const SPAWNS = new Set(['Agent', 'Task']);

export interface SessionAgents {
  /** The agent a record belongs to, starting or ending subagents as the record says. */
  agentOf(record: JsonObject | undefined): string | undefined;
  /** The agent a record belongs to, as far as the records read so far say. */
  known(record: JsonObject): string | undefined;
}

export function sessionAgents(
  trace: RunTrace,
  limits: Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>,
): SessionAgents {
  // The calls waiting for their subagent, by prompt; the subagents seen, their agentId to the trace's id.
  const spawns = new BoundedMap<Spawn>(limits);
  const agents = new BoundedMap<string>(limits);

  function known(record: JsonObject): string | undefined {
    const native = record.agentId;
    return typeof native === 'string' && native !== '' ? (agents.get(native) ?? native) : undefined;
  }

  function noteSpawns(record: JsonObject, content: unknown[]): void {
    for (const block of content) {
      if (!isObject(block) || block.type !== 'tool_use' || !SPAWNS.has(block.name as string)) continue;
      const input = isObject(block.input) ? block.input : {};
      if (typeof block.id !== 'string' || typeof input.prompt !== 'string') continue;
      const name = typeof input.subagent_type === 'string' ? input.subagent_type : undefined;
      const background = typeof input.run_in_background === 'boolean' ? input.run_in_background : undefined;
      spawns.set(input.prompt, { call_id: block.id, parent_id: known(record), name, background });
    }
  }

  function start(native: string, record: JsonObject): string {
    const message = isObject(record.message) ? record.message : {};
    const spawn = typeof message.content === 'string' ? spawns.take(message.content) : undefined;
    const agent_id = spawn?.call_id ?? native;
    agents.set(native, agent_id);
    trace.agentStarted({
      agent_id,
      native_id: native,
      parent_id: spawn?.parent_id,
      call_id: spawn?.call_id,
      name: spawn?.name,
      background: spawn?.background,
      at: record.timestamp,
    });
    return agent_id;
  }

  /** A foreground subagent's Agent call result: its end. */
  function noteEnd(record: JsonObject): void {
    const result = record.toolUseResult;
    if (!isObject(result) || typeof result.agentId !== 'string' || result.isAsync === true) return;
    const agent_id = agents.get(result.agentId);
    if (agent_id === undefined) return;
    trace.agentEnded(agent_id, result.status === 'completed' ? 'completed' : 'failed', record.timestamp);
  }

  return {
    known,
    agentOf(record) {
      if (record === undefined) return undefined;
      const message = isObject(record.message) ? record.message : {};
      if (record.type === 'assistant' && Array.isArray(message.content)) noteSpawns(record, message.content);
      if (record.type === 'user') noteEnd(record);
      const native = record.agentId;
      if (typeof native !== 'string' || native === '') return undefined;
      return agents.get(native) ?? start(native, record);
    },
  };
}
