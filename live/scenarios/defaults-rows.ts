/**
 * The `defaults` scenario of every row (defaults.ts): each CLI's own tools for the round, and the
 * exact events its default command line gave (measured on the pinned versions: docs/library.md
 * "What `default` was measured to allow"). Paths are the workspace's only.
 */
import type { EventBody } from '../../lib/kernel/events.js';
import type { ToolUse } from '../../lib/testing/index.js';
import type { Expected, Scenario } from '../scenario.js';
import { defaultsScenario, type DefaultsTools } from './defaults.js';
import { denied, done, listOk, notOffered, readOk, rm, searchOk, wrote } from './defaults-events.js';

/** The round through one shell tool (the read, search and listing classified from the commands). */
function shellTools(call: (command: string) => ToolUse, write: ToolUse): DefaultsTools {
  return {
    read: () => call('cat README.md'),
    grep: () => call('grep -rn hello .'),
    list: () => call('ls src'),
    write: () => write,
    edit: () => call("sed -i 's/hello/bye/' src/a.ts"),
    destroy: () => call('rm README.md'),
  };
}

export const claudeTools: DefaultsTools = {
  read: (p) => ({ name: 'Read', input: { file_path: p.path('README.md') } }),
  grep: () => ({ name: 'Bash', input: { command: 'grep -rn hello .' } }),
  list: () => ({ name: 'Bash', input: { command: 'ls src' } }),
  write: (p) => ({ name: 'Write', input: { file_path: p.path('src/c.ts'), content: 'x\n' } }),
  edit: (p) => ({ name: 'Edit', input: { file_path: p.path('src/a.ts'), old_string: 'hello', new_string: 'bye' } }),
  destroy: () => ({ name: 'Bash', input: { command: 'rm README.md' } }),
};
const claudeWrite = (x: Expected, path: string) =>
  `Claude requested permissions to write to ${x.path(path)}, but you haven't granted it yet.`;

export const claudeCodeDefaults = defaultsScenario(claudeTools, {
  events: (x) => [
    readOk(x),
    searchOk(x),
    listOk(x),
    denied('Write', claudeWrite(x, 'src/c.ts')),
    wrote(x, 'src/c.ts'),
    denied('Edit', claudeWrite(x, 'src/a.ts')),
    wrote(x, 'src/a.ts'),
    denied(
      'Bash',
      `rm in '${x.path('README.md')}' needs approval. The path is inside the working directories for this session ` +
        `('${x.workspace}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
    ),
    rm(x),
    done,
  ],
});

const exec = (cmd: string): ToolUse => ({ name: 'exec_command', input: { cmd } });
const addPatch: ToolUse = {
  name: 'apply_patch',
  custom: true,
  input: '*** Begin Patch\n*** Add File: src/c.ts\n+x\n*** End Patch\n',
};

// The sandbox makes `sed -i` and `rm` fail. stderr says the patch was rejected; its call has no item on stdout, so
// its `write` comes from the rollout (docs/harnesses/codex.md: stdout leads, the rollout adds the calls no item
// reports), a few milliseconds after stdout's events: it may land after the commands.
const codexDefaultsEvents = (x: Expected, writeAt: number): EventBody[] => {
  const after = [
    denied(
      'apply_patch',
      'patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings',
    ),
    codexSed(x),
    codexRm(x),
  ];
  after.splice(writeAt, 0, { type: 'write', path: x.path('src/c.ts'), is_success: false });
  return [
    readOk(x),
    searchOk(x),
    listOk(x),
    ...after,
    done,
    { type: 'usage', tokens: { input: 8400, output: 280, cache_read: 0, cache_write: 0, reasoning: 0 } },
  ];
};
// From run to run Codex leaves out the item of any command its sandbox denied (openai/codex#47433): the command then
// comes from the rollout; with its item, from stdout joined to the rollout. Either way one event, with its directory.
const codexSed = (x: Expected): EventBody => ({
  type: 'command',
  command: "sed -i 's/hello/bye/' src/a.ts",
  working_directory: x.workspace,
  exit_code: 4,
  is_success: false,
});
const codexRm = (x: Expected): EventBody => ({
  type: 'command',
  command: 'rm README.md',
  working_directory: x.workspace,
  exit_code: 1,
  is_success: false,
});
export const codexDefaults = defaultsScenario(shellTools(exec, addPatch), {
  events: (x) => codexDefaultsEvents(x, 1),
  // Every call once, in order; the patch's write anywhere from just before its warning to after the commands (stderr
  // and the rollout race).
  orEvents: (x) => [0, 2, 3].map((at) => codexDefaultsEvents(x, at)),
});

const opencodeTools: DefaultsTools = {
  read: (p) => ({ name: 'read', input: { filePath: p.path('README.md') } }),
  grep: () => ({ name: 'grep', input: { pattern: 'hello' } }),
  list: () => ({ name: 'glob', input: { pattern: 'src/*' } }),
  write: (p) => ({ name: 'write', input: { filePath: p.path('src/c.ts'), content: 'x\n' } }),
  edit: (p) => ({ name: 'edit', input: { filePath: p.path('src/a.ts'), oldString: 'hello', newString: 'bye' } }),
  destroy: () => ({ name: 'bash', input: { command: 'rm README.md', description: 'Remove' } }),
};
const rejected = 'The user rejected permission to use this specific tool call.';

// Every tool asks, so the first read is rejected, and the session halts there (Kilo alike).
export const opencodeDefaults = defaultsScenario(opencodeTools, {
  played: 1,
  events: (x) => [
    { type: 'read', path: x.path('README.md'), is_success: false },
    denied('read', rejected),
    { type: 'usage', tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 }, cost: 0 },
  ],
});

// Kilo says so itself, and exits 1.
export const kiloDefaults = defaultsScenario(opencodeTools, {
  played: 1,
  exitCode: 1,
  events: (x) => [
    ...opencodeDefaults.events(x),
    { type: 'error', message: 'run ended with an auto-rejected permission; pass --auto for autonomous use' },
    x.exited(1),
  ],
});

export const geminiTools: DefaultsTools = {
  read: (p) => ({ name: 'read_file', input: { file_path: p.path('README.md') } }),
  grep: (p) => ({ name: 'grep_search', input: { pattern: 'hello', dir_path: p.workspace } }),
  list: (p) => ({ name: 'list_directory', input: { dir_path: p.path('src') } }),
  write: (p) => ({ name: 'write_file', input: { file_path: p.path('src/c.ts'), content: 'x\n' } }),
  edit: (p) => ({
    name: 'replace',
    input: { file_path: p.path('src/a.ts'), old_string: 'hello', new_string: 'bye', instruction: 'x' },
  }),
  destroy: () => ({ name: 'run_shell_command', input: { command: 'rm README.md' } }),
};

export const geminiDefaults = defaultsScenario(geminiTools, {
  events: (x) => [
    readOk(x),
    searchOk(x),
    listOk(x),
    wrote(x, 'src/c.ts'),
    notOffered('write_file', '"read_file", "update_topic", "grep_search"'),
    wrote(x, 'src/a.ts'),
    notOffered('replace', '"read_file", "grep_search", "glob"'),
    rm(x),
    notOffered('run_shell_command', '"update_topic", "grep_search", "invoke_agent"'),
    done,
  ],
});

export const qwenTools: DefaultsTools = {
  read: (p) => ({ name: 'read_file', input: { file_path: p.path('README.md') } }),
  grep: (p) => ({ name: 'grep_search', input: { pattern: 'hello', path: p.workspace } }),
  list: (p) => ({ name: 'list_directory', input: { path: p.path('src') } }),
  write: (p) => ({ name: 'write_file', input: { file_path: p.path('src/c.ts'), content: 'x\n' } }),
  edit: (p) => ({ name: 'edit', input: { file_path: p.path('src/a.ts'), old_string: 'hello', new_string: 'bye' } }),
  destroy: () => ({ name: 'run_shell_command', input: { command: 'rm README.md', description: 'Remove' } }),
};
const qwenReason = 'the approval mode refused it (the result lists it in permission_denials)';

// The refusals are listed in the result, at the end.
export const qwenDefaults = defaultsScenario(qwenTools, {
  events: (x) => [
    readOk(x),
    searchOk(x),
    listOk(x),
    wrote(x, 'src/c.ts'),
    wrote(x, 'src/a.ts'),
    rm(x),
    done,
    ...['write_file', 'edit', 'run_shell_command'].map((tool) => denied(tool, qwenReason)),
  ],
});

const copilotTools: DefaultsTools = {
  read: (p) => ({ name: 'view', input: { path: p.path('README.md') } }),
  grep: (p) => ({ name: 'grep', input: { pattern: 'hello', path: p.workspace } }),
  list: (p) => ({ name: 'view', input: { path: p.path('src') } }),
  write: (p) => ({ name: 'create', input: { path: p.path('src/c.ts'), file_text: 'x\n' } }),
  edit: (p) => ({ name: 'edit', input: { path: p.path('src/a.ts'), old_str: 'hello', new_str: 'bye' } }),
  destroy: () => ({ name: 'bash', input: { command: 'rm README.md', description: 'Remove' } }),
};
const copilotReason =
  'Permission denied because no interactive user response was available. Retry in an interactive session so the ' +
  'user can approve it, or try an alternative that does not require this permission.';

export const copilotDefaults = defaultsScenario(copilotTools, {
  events: (x) => [
    readOk(x),
    searchOk(x),
    listOk(x),
    wrote(x, 'src/c.ts'),
    denied('create', copilotReason),
    wrote(x, 'src/a.ts'),
    denied('edit', copilotReason),
    rm(x),
    denied('bash', copilotReason),
    done,
  ],
});

const clineTools: DefaultsTools = {
  read: (p) => ({ name: 'read_files', input: { file_paths: [p.path('README.md')] } }),
  grep: () => ({ name: 'search_codebase', input: { queries: ['hello'] } }),
  list: () => ({ name: 'run_commands', input: { commands: ['ls src'] } }),
  write: (p) => ({ name: 'editor', input: { path: p.path('src/c.ts'), new_text: 'x\n' } }),
  edit: (p) => ({ name: 'editor', input: { path: p.path('src/a.ts'), old_text: 'hello', new_text: 'bye' } }),
  destroy: () => ({ name: 'run_commands', input: { commands: ['rm README.md'] } }),
};
const clineRefusal = (tool: string) =>
  `Tool "${tool}" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before ` +
  'proceeding.';
const clineCall: EventBody = { type: 'usage', tokens: { input: 1200, output: 40 } };
const clineRefused = (tool: string, event: EventBody): EventBody[] => [
  clineCall,
  event,
  denied(tool, clineRefusal(tool)),
  { type: 'warning', message: `1 tool call(s) failed: [${tool}] ${JSON.stringify({ error: clineRefusal(tool) })}` },
];

// Without a TTY every call needs approval, reads too; the third refusal in a row aborts the run, exit 0.
export const clineDefaults = defaultsScenario(clineTools, {
  played: 3,
  events: (x) => [
    ...clineRefused('read_files', { type: 'read', path: x.path('README.md'), is_success: false }),
    ...clineRefused('search_codebase', { type: 'search', query: 'hello', is_success: false }),
    ...clineRefused('run_commands', { type: 'list', path: x.path('src'), is_success: false }),
    { type: 'error', message: 'aborted by another client', code: 'external_abort' },
  ],
});

const chose = (option: string) => `permissions "default": the library chose ${option}`;

// OpenCode's ACP agent asks for everything: the first read is rejected and ends the turn.
export const opencodeAcpDefaults = defaultsScenario(opencodeTools, {
  played: 1,
  events: (x) => [
    denied('read', chose('reject')),
    { type: 'read', path: x.path('README.md'), is_success: false },
    { type: 'usage', tokens: { input: 1200, output: 40 } },
  ],
});

const qwenAcpUsage: EventBody = { type: 'usage', tokens: { input: 1200, output: 40, cache_read: 0, reasoning: 0 } };
// Qwen's ACP agent reads freely, asks for the write, and ends the turn at its rejection.
export const qwenAcpDefaults = defaultsScenario(qwenTools, {
  played: 4,
  events: (x) => [
    qwenAcpUsage,
    readOk(x),
    qwenAcpUsage,
    searchOk(x),
    qwenAcpUsage,
    listOk(x),
    qwenAcpUsage,
    denied('Writing to src/c.ts', chose('cancel')),
    wrote(x, 'src/c.ts'),
  ],
});

export const copilotAcpDefaults = defaultsScenario(copilotTools, {
  played: 4,
  events: (x) => [
    readOk(x),
    searchOk(x),
    { type: 'read', path: x.path('src'), is_success: true },
    denied('Create file', chose('reject_once')),
    wrote(x, 'src/c.ts'),
    { type: 'agent', message: 'Info: Operation cancelled by user' },
    { type: 'usage', tokens: { input: 4800, output: 160, cache_read: 0, cache_write: 0, reasoning: 0 } },
  ],
});

// codex-acp's read-only sandbox fails every command here, and whether a failed command's item comes is not
// deterministic: the round is the write alone, which it asks for; its only reject option, abort, cancels the turn.
export const codexAcpDefaults = defaultsScenario(shellTools(exec, addPatch), {
  calls: ['write'],
  played: 1,
  exitCode: 1,
  events: (x) => [
    denied(`Edit ${x.path('src/c.ts')}`, chose('abort')),
    { type: 'write', path: x.path('src/c.ts') },
    { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
  ],
});

// Claude's adapter: asks for the write and the `rm`, goes on after each; the edit of a file never read is refused
// by Claude Code itself, not by a permission.
export const claudeAcpDefaults = defaultsScenario(
  { ...claudeTools, grep: (p) => ({ name: 'Grep', input: { pattern: 'hello', path: p.workspace } }) },
  {
    events: (x) => [
      { type: 'read', path: x.path('README.md'), start_line: 1, is_success: true },
      searchOk(x),
      listOk(x),
      denied('Write src/c.ts', chose('reject')),
      wrote(x, 'src/c.ts'),
      wrote(x, 'src/a.ts'),
      denied('rm README.md', chose('reject')),
      rm(x, false),
      done,
      { type: 'usage', tokens: { input: 8400, output: 280, cache_read: 0, cache_write: 0 } },
    ],
  },
);

// Gemini's ACP agent asks for the write, the edit and the command, and goes on after each rejection; it sends no
// update for a rejected call, so their events come unfinished at the turn's end. Its list_directory is kind
// `search`, titled with the directory: a search by the page's title rule.
export const geminiAcpDefaults = defaultsScenario(geminiTools, {
  events: (x) => [
    readOk(x),
    searchOk(x),
    { type: 'search', query: 'src', is_success: true },
    denied('Writing to src/c.ts', chose('cancel')),
    denied('src/a.ts: hello => bye', chose('cancel')),
    denied('rm README.md', chose('cancel')),
    done,
    { type: 'write', path: x.path('src/c.ts') },
    { type: 'write', path: x.path('src/a.ts') },
    { type: 'command', command: 'rm README.md' },
  ],
});

// Kilo's ACP agent, as OpenCode's: the first read is rejected and ends the turn.
export const kiloAcpDefaults = defaultsScenario(opencodeTools, { played: 1, events: opencodeAcpDefaults.events });

/** The defaults scenario of each row of live/harnesses.ts. */
export const defaults: Readonly<Record<string, Scenario>> = {
  'claude-code': claudeCodeDefaults,
  codex: codexDefaults,
  opencode: opencodeDefaults,
  kilo: kiloDefaults,
  gemini: geminiDefaults,
  qwen: qwenDefaults,
  copilot: copilotDefaults,
  cline: clineDefaults,
  'opencode-acp': opencodeAcpDefaults,
  'qwen-acp': qwenAcpDefaults,
  'copilot-acp': copilotAcpDefaults,
  'codex-acp': codexAcpDefaults,
  'claude-acp': claudeAcpDefaults,
  'gemini-acp': geminiAcpDefaults,
  'kilo-acp': kiloAcpDefaults,
};
