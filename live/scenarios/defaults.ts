/**
 * The `defaults` scenario: the library's default command line (`permissions: 'default'`, nothing
 * approved) on the real CLI, with a model that reads, searches, lists, then writes a new file,
 * edits one and runs a destructive command. The workspace must be unchanged afterwards (every
 * file's hash), and every refused call must be a `permission_denied` warning beside its own event.
 * Its prompt starts with `- ` (a Markdown list item), which no option parser may read.
 */
import type { ToolUse, Turn } from '../../lib/testing/index.js';
import type { Scenario } from '../scenario.js';
import type { Place } from '../workspace.js';

/** A CLI's calls for the round, in its own tools' shapes. */
export interface DefaultsTools {
  read(p: Place): ToolUse;
  grep(p: Place): ToolUse;
  list(p: Place): ToolUse;
  /** Creates src/c.ts. */
  write(p: Place): ToolUse;
  /** Changes src/a.ts. */
  edit(p: Place): ToolUse;
  /** Removes README.md. */
  destroy(p: Place): ToolUse;
}

export const defaultsPrompt = '- item: look around, then change things.';
export const defaultsDone = 'Nothing was changed.';

/** The round's calls in order. */
export const defaultsOrder = ['read', 'grep', 'list', 'write', 'edit', 'destroy'] as const;

/**
 * The scenario; `played`: how many of the calls the CLI plays before it ends the run (one that stops at the first
 * refusal), else every call and a closing text; `calls`: the calls, when not every one of the round.
 */
export function defaultsScenario(
  tools: DefaultsTools,
  rest: Pick<Scenario, 'events'> & Partial<Scenario> & { played?: number; calls?: readonly (keyof DefaultsTools)[] },
): Scenario {
  const { played, calls: order = defaultsOrder, ...scenario } = rest;
  return {
    name: 'defaults',
    prompt: defaultsPrompt,
    permissions: 'default',
    unchanged: true,
    turns: (p) => {
      const calls: Turn[] = order.map((name) => ({ tools: [tools[name](p)] }));
      return played === undefined ? [...calls, { text: defaultsDone }] : calls.slice(0, played);
    },
    exitCode: 0,
    ...scenario,
  };
}
