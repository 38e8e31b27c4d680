/**
 * Claude Code's subagents (docs/harnesses/claude-code.md "Orchestration"): `system/task_started` of a `local_agent`,
 * or naming an Agent or Task call, starts one (`subagent_started`, id its `tool_use_id`, name its `subagent_type`);
 * its `task_notification` ends it; its `task_progress` and `task_updated` are consumed, and so are the call and its
 * result. Any other task (a background Bash's) stays unknown, as does an Agent call no task record names.
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import type { RecordRule } from '../../kernel/record-table.js';
import { stringField } from '../../kernel/tool-rules.js';
import { backgroundAgents } from './background-agents.js';
import { parentToolUse, type Dialect } from './dialect.js';

/** The rule ids of the `system` row these apply. */
interface TaskRules {
  readonly taskStarted: string;
  readonly taskNotification: string;
  readonly taskConsumed: string;
  readonly taskOther: string;
}

interface Orchestration {
  /** Notes the Agent and Task calls of an assistant record: a task naming one is a subagent's. */
  assistant(record: JsonObject): void;
  /** The records of `system/task_*`, by subtype. */
  readonly subtypes: ReadonlyArray<readonly [string, RecordRule]>;
  /** Whether a result whose call was never recorded is a subagent's call's (consumed): for the trace, its end. */
  consumed(block: JsonObject, record: JsonObject, is_success: boolean): boolean;
}

const SPAWNS = new Set(['Agent', 'Task']);

export function orchestration(run: RunContext, stream: Dialect, rules: TaskRules): Orchestration {
  const agents = backgroundAgents(run);
  // The Agent and Task calls seen, by id (the agent that made each, for the trace); the subagents' tasks, by task id
  // (task_updated names only that), each with its call's id.
  const spawns = new BoundedMap<{ agent_id: string | undefined }>(run.limits);
  const tasks = new BoundedMap<string>(run.limits);
  // The calls whose task was seen, with their tool's name: their results are consumed.
  const started = new BoundedMap<string>(run.limits);

  function other(record: JsonObject): string {
    run.emit({ type: 'unknown', raw: record });
    return rules.taskOther;
  }

  function taskStarted(record: JsonObject): string {
    const id = stringField(record, 'tool_use_id');
    const task = stringField(record, 'task_id');
    if (id === undefined || task === undefined) return other(record);
    const spawn = spawns.get(id);
    if (record.task_type !== 'local_agent' && spawn === undefined) return other(record);
    tasks.set(task, id);
    const call = stream.dropCall(id);
    started.set(id, call ?? 'Agent');
    const name = stringField(record, 'subagent_type');
    // The task names its agent's own id and says whether it runs in the background; its parent made the call.
    run.trace?.agentStarted({
      agent_id: id,
      native_id: task,
      name,
      background: record.is_backgrounded === true,
      parent_id: spawn?.agent_id,
    });
    agents.started(id, name);
    return rules.taskStarted;
  }

  function taskNotification(record: JsonObject): string {
    const id = stringField(record, 'tool_use_id');
    const task = stringField(record, 'task_id');
    const status = stringField(record, 'status');
    if (id === undefined || task === undefined || status === undefined || !tasks.has(task)) return other(record);
    agents.ended(id, status);
    return rules.taskNotification;
  }

  function taskConsumed(record: JsonObject): string {
    const task = stringField(record, 'task_id');
    const id = task === undefined ? undefined : tasks.get(task);
    if (id === undefined) return other(record);
    // `task_updated {patch: {status, end_time}}` has the agent's end time, which task_notification lacks.
    const patch = isObject(record.patch) ? record.patch : undefined;
    if (run.trace && patch?.end_time !== undefined && typeof patch.status === 'string') {
      run.trace.agentEnded(id, patch.status === 'completed' ? 'completed' : 'failed', patch.end_time);
    }
    return rules.taskConsumed;
  }

  return {
    assistant(record) {
      const content = isObject(record.message) ? record.message.content : undefined;
      if (!Array.isArray(content)) return;
      for (const block of content) {
        if (isObject(block) && block.type === 'tool_use' && SPAWNS.has(block.name as string)) {
          if (typeof block.id === 'string') spawns.set(block.id, { agent_id: parentToolUse(record) });
        }
      }
    },
    subtypes: [
      ['task_started', taskStarted],
      ['task_notification', taskNotification],
      ['task_progress', taskConsumed],
      ['task_updated', taskConsumed],
    ],
    consumed(block, record, is_success) {
      const id = block.tool_use_id;
      const tool = typeof id === 'string' ? started.take(id) : undefined;
      if (tool === undefined) return false;
      run.trace?.callEnded(id as string, tool, is_success, undefined, record.timestamp);
      return true;
    },
  };
}
