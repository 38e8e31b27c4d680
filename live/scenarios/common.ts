/**
 * Scenarios every CLI plays the same way, with its own shell tool: a text answer, the shell
 * round (reads, a search and a listing written as shell commands, a failing command, a write
 * through the shell) and an API error. A harness's file passes its tool's call shape and the
 * exact events.
 */
import type { CommandEvent, EventBody } from '../../lib/kernel/events.js';
import type { ToolUse, Turn, Usage } from '../../lib/testing/index.js';
import type { Expected, Scenario } from '../scenario.js';
import type { Place } from '../workspace.js';

/** What a builder's caller adds to a scenario: at least its expected events. */
type Expecting = Partial<Scenario> & Pick<Scenario, 'events'>;

export const greeting = { reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.' };

export function textScenario(usage: Usage | undefined, rest: Expecting): Scenario {
  return {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ ...greeting, usage }],
    exitCode: 0,
    ...rest,
  };
}

/** The commands of the shell round, in order; `failing` is the one that exits non-zero. */
export function shellCommands(failing: string): string[] {
  return ['cat README.md', "sed -n '2,4p' notes.txt", 'grep -rn hello .', 'ls src', failing, 'echo hi > out.txt'];
}

export const listingText = 'Listing the sources.';
export const shellDoneText = (failing: string) => `Looked around; \`${failing}\` failed.`;

export function shellScenario(call: (command: string) => ToolUse, failing: string, rest: Expecting): Scenario {
  const turns: Turn[] = shellCommands(failing).map((command) => ({
    ...(command === 'ls src' ? { text: listingText } : {}),
    tools: [call(command)],
  }));
  return {
    name: 'shell',
    prompt: 'Look around with the shell.',
    turns: () => [...turns, { text: shellDoneText(failing) }],
    exitCode: 0,
    ...rest,
  };
}

/** How a CLI reports the shell round, for shellEvents. */
export interface ShellRound {
  /** The command that fails, as the scenario ran it. */
  failing: string;
  /** The failing command's event. */
  failed: EventBody;
  /** What the event of the write's command has besides its command: its cwd, its exit code. */
  written?: Pick<CommandEvent, 'working_directory' | 'exit_code'>;
  /** False for a CLI that reports no command's success: no event has is_success. */
  success?: boolean;
  /** An event every model step ends with (OpenCode's usage): after each command's event and after the closing text. */
  step?: EventBody;
}

/** The shell round's events where each command is one event, in order, the listing after its text. */
export function shellEvents(x: Expected, round: ShellRound): EventBody[] {
  const ok = round.success === false ? {} : { is_success: true };
  const steps = round.step ? [round.step] : [];
  return [
    { type: 'read', path: x.path('README.md'), ...ok },
    ...steps,
    { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, ...ok },
    ...steps,
    { type: 'search', query: 'hello', path: x.workspace, ...ok },
    ...steps,
    { type: 'agent', message: listingText },
    { type: 'list', path: x.path('src'), ...ok },
    ...steps,
    round.failed,
    ...steps,
    { type: 'command', command: 'echo hi > out.txt', ...round.written, ...ok },
    ...steps,
    { type: 'agent', message: shellDoneText(round.failing) },
    ...steps,
  ];
}

/** Every request of the run fails with `status`. */
export function apiErrorScenario(status: number, exitCode: number, rest: Expecting): Scenario {
  return { name: 'api error', prompt: 'Say hello.', turns: () => [{ failAlways: status }], exitCode, ...rest };
}

/**
 * A CLI's file tools, as calls: a read (whole, or lines start..end), a listing, a glob, a grep in a folder, a write.
 */
export interface FileTools {
  read(p: Place, path: string, lines?: [number, number]): ToolUse;
  list(p: Place, path: string): ToolUse;
  glob(pattern: string): ToolUse;
  grep(p: Place, pattern: string, dir: string): ToolUse;
  write(p: Place, path: string, content: string): ToolUse;
}

/** The file-tool round: reads whole and ranged, a listing, a glob, a grep, a write, a read of a missing file. */
export function fileToolsScenario(tools: FileTools, rest: Expecting): Scenario {
  return {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [tools.read(p, 'README.md')] },
      { tools: [tools.read(p, 'notes.txt', [2, 4])] },
      { tools: [tools.list(p, 'src')] },
      { tools: [tools.glob('**/*.ts')] },
      { tools: [tools.grep(p, 'greet', 'src')] },
      { tools: [tools.write(p, 'src/c.ts', 'export const answer = 42;\n')] },
      { tools: [tools.read(p, 'missing.txt')] },
      { text: 'Done.' },
    ],
    exitCode: 0,
    ...rest,
  };
}

/** The file-tool round's events where each call is its event, in order, and the glob has no path. */
export function fileToolEvents(x: Expected): EventBody[] {
  return [
    { type: 'agent', message: 'Reading the README first.' },
    { type: 'read', path: x.path('README.md'), is_success: true },
    { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
    { type: 'list', path: x.path('src'), is_success: true },
    { type: 'search', query: '**/*.ts', is_success: true },
    { type: 'search', query: 'greet', path: x.path('src'), is_success: true },
    { type: 'write', path: x.path('src/c.ts'), is_success: true },
    { type: 'read', path: x.path('missing.txt'), is_success: false },
    { type: 'agent', message: 'Done.' },
  ];
}
