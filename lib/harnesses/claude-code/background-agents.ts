/**
 * Subagents reported by task records (docs/harnesses/claude-code.md "Orchestration"; Qwen Code's background agents,
 * docs/harnesses/qwen.md difference 5) between their start and their completion, as stdout's `task_started` /
 * `task_notification` and the session file's "launched" result / `<task-notification>` report them: each start and
 * end one orchestration event, the end named as its start was. Held within `maxPendingTools` (past it the oldest is
 * forgotten: its end has no name).
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { RunContext } from '../../kernel/harness.js';

interface BackgroundAgents {
  /** Whether the agent of this call was started and has not ended. */
  running(id: string): boolean;
  started(id: string, name: string | undefined): void;
  /** Its end: `completed`, or any other status (failed, cancelled) as a failure. */
  ended(id: string, status: string): void;
}

export function backgroundAgents(run: RunContext): BackgroundAgents {
  const names = new BoundedMap<{ name: string | undefined }>(run.limits);
  return {
    running: (id) => names.has(id),
    started(id, name) {
      names.set(id, { name });
      run.emit({
        type: 'orchestration',
        action: 'subagent_started',
        subagent_id: id,
        subagent_name: name,
        is_success: true,
      });
    },
    ended(id, status) {
      const completed = status === 'completed';
      run.emit({
        type: 'orchestration',
        action: completed ? 'subagent_completed' : 'subagent_failed',
        subagent_id: id,
        subagent_name: names.take(id)?.name,
        is_success: completed,
      });
    },
  };
}
