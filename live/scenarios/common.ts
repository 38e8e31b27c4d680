/**
 * Scenarios every CLI plays the same way, with its own shell tool: a text answer, the shell
 * round (reads, a search and a listing written as shell commands, a failing command, a write
 * through the shell) and an API error. A harness's table passes its tool's call shape and,
 * once the library translates it, the exact events.
 */
import type { ToolUse, Turn, Usage } from '../../testing/index.js';
import type { Scenario } from '../scenario.js';

export const greeting = { reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.' };

export function textScenario(usage: Usage | undefined, rest: Partial<Scenario> = {}): Scenario {
  return { name: 'text', prompt: 'Say hello in one sentence.', turns: () => [{ ...greeting, usage }], exitCode: 0, ...rest };
}

/** The commands of the shell round, in order; `failing` is the one that exits non-zero. */
export function shellCommands(failing: string): string[] {
  return ['cat README.md', "sed -n '2,4p' notes.txt", 'grep -rn hello .', 'ls src', failing, 'echo hi > out.txt'];
}

export const listingText = 'Listing the sources.';
export const shellDoneText = (failing: string) => `Looked around; \`${failing}\` failed.`;

export function shellScenario(call: (command: string) => ToolUse, failing: string, rest: Partial<Scenario> = {}): Scenario {
  const turns: Turn[] = shellCommands(failing).map((command) => ({ ...(command === 'ls src' ? { text: listingText } : {}), tools: [call(command)] }));
  return { name: 'shell', prompt: 'Look around with the shell.', turns: () => [...turns, { text: shellDoneText(failing) }], exitCode: 0, ...rest };
}

/** Every request of the run fails with `status`. */
export function apiErrorScenario(status: number, exitCode: number, rest: Partial<Scenario> = {}): Scenario {
  return { name: 'api error', prompt: 'Say hello.', turns: () => [{ failAlways: status }], exitCode, ...rest };
}
