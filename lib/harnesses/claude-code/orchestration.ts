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
import type { Dialect } from './dialect.js';

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
  /** Whether a result whose call was never recorded is a subagent's call's (consumed). */
  consumed(block: JsonObject): boolean;
}

const SPAWNS = new Set(['Agent', 'Task']);

export function orchestration(run: RunContext, stream: Dialect, rules: TaskRules): Orchestration {
  const agents = backgroundAgents(run);
  // The Agent and Task calls seen, by id; the subagents' tasks, by task id (task_updated names only that).
  const spawns = new BoundedMap<true>(run.limits);
  const tasks = new BoundedMap<true>(run.limits);
  // The calls whose task was seen: their results are consumed.
  const started = new BoundedMap<true>(run.limits);

  function other(record: JsonObject): string {
    run.emit({ type: 'unknown', raw: record });
    return rules.taskOther;
  }

  function taskStarted(record: JsonObject): string {
    const id = stringField(record, 'tool_use_id');
    const task = stringField(record, 'task_id');
    if (id === undefined || task === undefined) return other(record);
    if (record.task_type !== 'local_agent' && !spawns.has(id)) return other(record);
    tasks.set(task, true);
    stream.dropCall(id);
    started.set(id, true);
    agents.started(id, stringField(record, 'subagent_type'));
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
    return task !== undefined && tasks.has(task) ? rules.taskConsumed : other(record);
  }

  return {
    assistant(record) {
      const content = isObject(record.message) ? record.message.content : undefined;
      if (!Array.isArray(content)) return;
      for (const block of content) {
        if (isObject(block) && block.type === 'tool_use' && SPAWNS.has(block.name as string)) {
          if (typeof block.id === 'string') spawns.set(block.id, true);
        }
      }
    },
    subtypes: [
      ['task_started', taskStarted],
      ['task_notification', taskNotification],
      ['task_progress', taskConsumed],
      ['task_updated', taskConsumed],
    ],
    consumed: (block) => typeof block.tool_use_id === 'string' && started.take(block.tool_use_id) !== undefined,
  };
}
