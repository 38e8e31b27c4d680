/**
 * Agents through ACP (acp.md), as the ACP lab drove them: the lab's four scenarios (text,
 * tools, edit, fail), each agent with its own tool names and its own way of reporting usage.
 * Each model step is its turn and the event its tool call gives; the expected events follow
 * from them: the step's reasoning and text, its usage where the agent reports it per call, its
 * tool's event.
 */
import type { EventBody } from '../../lib/kernel/events.js';
import { DEFAULT_USAGE, type ToolUse, type Turn, type Usage } from '../../lib/testing/index.js';
import type { Scenario } from '../scenario.js';

/** Where paths point: the run's place for the turns, the expectation's workspace for the events. */
interface Where {
  readonly workspace: string;
  path(relative: string): string;
}

interface AcpAgent {
  read(w: Where, path: string): ToolUse;
  shell(command: string): ToolUse;
  grep(w: Where, pattern: string): ToolUse;
  edit(w: Where, path: string, from: string, to: string): ToolUse;
  /** Qwen refuses to edit a file not read in the session: the model reads it first. */
  readBeforeEdit: boolean;
  /**
   * Qwen reports each model call's usage (`_meta.usage`, after the call's text); Copilot one sum in the prompt's
   * response.
   */
  usagePerCall: boolean;
  /** Copilot sends cachedWriteTokens (0); Qwen does not. */
  cacheWrite: boolean;
  /** The agent reports a shell command's exit code and working directory (claude-agent-acp does neither). */
  exitCodes?: false;
  workingDirectory?: false;
  /** The search the grep step gives, when it is not of the workspace (codex-acp's `rg` names no path). */
  searched?(w: Where, pattern: string): EventBody;
  /**
   * Where the prompt response's usage differs from a sum over the turn: OpenCode's covers the last model call only,
   * codex-acp sends none.
   */
  turnUsage?: 'last' | 'none';
  /** claude-agent-acp sends no thoughtTokens; OpenCode leaves out the classes that are 0. */
  reasoningTokens?: false;
  zeroClasses?: false;
  /** claude-agent-acp gives a whole-file Read `locations[0].line: 1`, a start line (acp.md line ranges). */
  readStart?: number;
  /** codex-acp's thought text starts with blank lines, kept as sent. */
  thoughtPrefix?: string;
}

interface Step {
  turn: Turn;
  /** The event of the step's tool call. */
  did?: EventBody;
}

/** The inclusive token classes of acp.md (input holds the cached, output the thought tokens). */
function usage(agent: AcpAgent, counts: Usage): EventBody {
  const cached = counts.cached ?? 0;
  const reasoning = agent.reasoningTokens === false ? 0 : (counts.reasoning ?? 0);
  const sent = (count: number) => agent.zeroClasses !== false || count !== 0;
  return {
    type: 'usage',
    tokens: {
      input: counts.input - cached,
      output: counts.output - reasoning,
      ...(sent(cached) ? { cache_read: cached } : {}),
      ...(agent.cacheWrite ? { cache_write: 0 } : {}),
      ...(agent.reasoningTokens !== false && sent(reasoning) ? { reasoning } : {}),
    },
  };
}

function expected(agent: AcpAgent, steps: readonly Step[]): EventBody[] {
  const said = ({ reasoning, text }: Turn): EventBody[] => [
    ...(reasoning ? [{ type: 'reasoning' as const, message: (agent.thoughtPrefix ?? '') + reasoning }] : []),
    ...(text ? [{ type: 'agent' as const, message: text }] : []),
  ];
  const did = (step: Step) => (step.did ? [step.did] : []);
  const done = steps.flatMap((step) => [...said(step.turn), ...did(step)]);
  if (agent.turnUsage === 'none') return done;
  if (agent.turnUsage === 'last') return [...done, usage(agent, steps.at(-1)!.turn.usage ?? DEFAULT_USAGE)];
  if (agent.usagePerCall)
    return steps.flatMap((step) => [...said(step.turn), usage(agent, step.turn.usage ?? DEFAULT_USAGE), ...did(step)]);
  const sum = steps.reduce<Usage>(
    (total, { turn: { usage: u = DEFAULT_USAGE } }) => ({
      input: total.input + u.input,
      output: total.output + u.output,
      cached: total.cached! + (u.cached ?? 0),
      reasoning: total.reasoning! + (u.reasoning ?? 0),
    }),
    { input: 0, output: 0, cached: 0, reasoning: 0 },
  );
  return [...done, usage(agent, sum)];
}

function scenario(
  agent: AcpAgent,
  name: string,
  prompt: string,
  steps: (w: Where) => Step[],
  files?: Record<string, string>,
): Scenario {
  return {
    name,
    prompt,
    files,
    exitCode: 0,
    turns: (p) => steps(p).map((step) => step.turn),
    events: (x) => expected(agent, steps(x)),
  };
}

function acpScenarios(agent: AcpAgent): Scenario[] {
  const read = (w: Where, path: string, said: Pick<Turn, 'reasoning' | 'text'> = {}, is_success = true): Step => ({
    turn: { ...said, tools: [agent.read(w, path)] },
    did: { type: 'read', path: w.path(path), ...(agent.readStart ? { start_line: agent.readStart } : {}), is_success },
  });
  const check = (w: Where, command: string, exit_code: number): Step => ({
    turn: { tools: [agent.shell(command)] },
    did: {
      type: 'command',
      command,
      ...(agent.workingDirectory === false ? {} : { working_directory: w.workspace }),
      ...(agent.exitCodes === false ? {} : { exit_code }),
      is_success: exit_code === 0,
    },
  });
  return [
    scenario(agent, 'text', 'What is the answer? Answer from memory.', () => [
      {
        turn: {
          reasoning: 'The user wants the answer; I remember it.',
          text: 'The answer is 42.',
          usage: { input: 900, output: 30, cached: 100, reasoning: 12 },
        },
      },
    ]),
    // A compound ls is a command; Copilot's grep is kind read with a pattern: a search.
    scenario(agent, 'tools', 'Read the notes, list the files, and find the word hello.', (w) => [
      read(w, 'notes.txt', { reasoning: 'I should read the notes first.', text: 'Let me read the notes.' }),
      check(w, 'ls -la && echo done', 0),
      {
        turn: { tools: [agent.grep(w, 'hello')] },
        did: agent.searched?.(w, 'hello') ?? { type: 'search', query: 'hello', path: w.workspace, is_success: true },
      },
      { turn: { text: 'The notes mention hello on line 4.' } },
    ]),
    scenario(
      agent,
      'edit',
      'Change the answer in src/c.ts.',
      (w) => [
        ...(agent.readBeforeEdit ? [read(w, 'src/c.ts', { text: 'Reading src/c.ts first.' })] : []),
        {
          turn: { text: 'Editing src/c.ts.', tools: [agent.edit(w, 'src/c.ts', '42', '43')] },
          did: { type: 'write', path: w.path('src/c.ts'), is_success: true },
        },
        { turn: { text: 'The answer is now 43.' } },
      ],
      { 'src/c.ts': 'export const answer = 42;\n' },
    ),
    // A command that exits 3 failed, whatever status the agent gives its call.
    scenario(agent, 'fail', 'Read missing.txt, then run the check.', (w) => [
      read(w, 'missing.txt', {}, false),
      check(w, "node -e 'process.exit(3)'", 3),
      { turn: { text: 'missing.txt does not exist and the check exits with 3.' } },
    ]),
  ];
}

export const copilotAcp = acpScenarios({
  read: (w, path) => ({ name: 'view', input: { path: w.path(path) } }),
  shell: (command) => ({ name: 'bash', input: { command, description: 'Run a command' } }),
  grep: (w, pattern) => ({ name: 'grep', input: { pattern, paths: w.workspace } }),
  edit: (w, path, from, to) => ({ name: 'edit', input: { path: w.path(path), old_str: from, new_str: to } }),
  readBeforeEdit: false,
  usagePerCall: false,
  cacheWrite: true,
});

export const qwenAcp = acpScenarios({
  read: (w, path) => ({ name: 'read_file', input: { file_path: w.path(path) } }),
  shell: (command) => ({ name: 'run_shell_command', input: { command, description: 'Run a command' } }),
  grep: (w, pattern) => ({ name: 'grep_search', input: { pattern, path: w.workspace } }),
  edit: (w, path, from, to) => ({ name: 'edit', input: { file_path: w.path(path), old_string: from, new_string: to } }),
  readBeforeEdit: true,
  usagePerCall: true,
  cacheWrite: false,
});

export const claudeAcp = acpScenarios({
  read: (w, path) => ({ name: 'Read', input: { file_path: w.path(path) } }),
  shell: (command) => ({ name: 'Bash', input: { command, description: 'Run a command' } }),
  grep: (w, pattern) => ({ name: 'Grep', input: { pattern, path: w.workspace } }),
  edit: (w, path, from, to) => ({ name: 'Edit', input: { file_path: w.path(path), old_string: from, new_string: to } }),
  // Claude Code refuses to edit a file it has not read.
  readBeforeEdit: true,
  usagePerCall: false,
  cacheWrite: true,
  exitCodes: false,
  workingDirectory: false,
  reasoningTokens: false,
  readStart: 1,
});

// codex-acp: every file operation is a shell command Codex summarizes (parsed_cmd); its edit is apply_patch.
const exec = (cmd: string): ToolUse => ({ name: 'exec_command', input: { cmd } });
export const codexAcp = acpScenarios({
  read: (_w, path) => exec(`cat ${path}`),
  shell: (command) => exec(command),
  grep: (_w, pattern) => exec(`rg -n ${pattern}`),
  edit: (_w, path, from, to) => ({
    name: 'apply_patch',
    custom: true,
    input:
      `*** Begin Patch\n*** Update File: ${path}\n@@\n-export const answer = ${from};\n` +
      `+export const answer = ${to};\n*** End Patch\n`,
  }),
  readBeforeEdit: false,
  usagePerCall: false,
  cacheWrite: true,
  // `rg -n hello` names no path: the search has none (acp.md, A Codex command).
  searched: (_w, pattern) => ({ type: 'search', query: pattern, is_success: true }),
  turnUsage: 'none',
  thoughtPrefix: '\n\n',
});

export const opencodeAcp = acpScenarios({
  read: (w, path) => ({ name: 'read', input: { filePath: w.path(path) } }),
  shell: (command) => ({ name: 'bash', input: { command, description: 'Run a command' } }),
  grep: (w, pattern) => ({ name: 'grep', input: { pattern, path: w.workspace } }),
  edit: (w, path, from, to) => ({ name: 'edit', input: { filePath: w.path(path), oldString: from, newString: to } }),
  // OpenCode refuses to edit a file it has not read.
  readBeforeEdit: true,
  usagePerCall: false,
  cacheWrite: false,
  turnUsage: 'last',
  zeroClasses: false,
});
