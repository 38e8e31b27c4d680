/**
 * Agents through ACP (acp.md), driven by live/acp-client.ts as the ACP lab drove them: the
 * lab's four scenarios (text, tools, edit, fail), each agent with its own tool names.
 */
import type { Scenario } from '../scenario.js';
import type { Turn } from '../../testing/index.js';
import type { Place } from '../workspace.js';

interface AcpTools {
  read(p: Place, path: string): { name: string; input: unknown };
  shell(command: string): { name: string; input: unknown };
  grep(p: Place, pattern: string): { name: string; input: unknown };
  edit(p: Place, path: string, from: string, to: string): { name: string; input: unknown };
}

function acpScenarios(tools: AcpTools, readBeforeEdit: boolean): Scenario[] {
  return [
    {
      name: 'text',
      prompt: 'What is the answer? Answer from memory.',
      turns: () => [{ reasoning: 'The user wants the answer; I remember it.', text: 'The answer is 42.', usage: { input: 900, output: 30, cached: 100, reasoning: 12 } }],
      exitCode: 0,
    },
    {
      name: 'tools',
      prompt: 'Read the notes, list the files, and find the word hello.',
      turns: (p) => [
        { reasoning: 'I should read the notes first.', text: 'Let me read the notes.', tools: [tools.read(p, 'notes.txt')] },
        { tools: [tools.shell('ls -la && echo done')] },
        { tools: [tools.grep(p, 'hello')] },
        { text: 'The notes mention hello on line 4.' },
      ],
      exitCode: 0,
    },
    {
      name: 'edit',
      prompt: 'Change the answer in src/c.ts.',
      files: { 'src/c.ts': 'export const answer = 42;\n' },
      turns: (p) => {
        const edit: Turn[] = [{ text: 'Editing src/c.ts.', tools: [tools.edit(p, 'src/c.ts', '42', '43')] }, { text: 'The answer is now 43.' }];
        return readBeforeEdit ? [{ text: 'Reading src/c.ts first.', tools: [tools.read(p, 'src/c.ts')] }, ...edit] : edit;
      },
      exitCode: 0,
    },
    {
      name: 'fail',
      prompt: 'Read missing.txt, then run the check.',
      turns: (p) => [{ tools: [tools.read(p, 'missing.txt')] }, { tools: [tools.shell("node -e 'process.exit(3)'")] }, { text: 'missing.txt does not exist and the check exits with 3.' }],
      exitCode: 0,
    },
  ];
}

export const copilotAcp = acpScenarios(
  {
    read: (p, path) => ({ name: 'view', input: { path: p.path(path) } }),
    shell: (command) => ({ name: 'bash', input: { command, description: 'Run a command' } }),
    grep: (p, pattern) => ({ name: 'grep', input: { pattern, paths: p.workspace } }),
    edit: (p, path, from, to) => ({ name: 'edit', input: { path: p.path(path), old_str: from, new_str: to } }),
  },
  false,
);

// Qwen Code refuses to edit a file not read in the session: the model reads it first.
export const qwenAcp = acpScenarios(
  {
    read: (p, path) => ({ name: 'read_file', input: { file_path: p.path(path) } }),
    shell: (command) => ({ name: 'run_shell_command', input: { command, description: 'Run a command' } }),
    grep: (p, pattern) => ({ name: 'grep_search', input: { pattern, path: p.workspace } }),
    edit: (p, path, from, to) => ({ name: 'edit', input: { file_path: p.path(path), old_string: from, new_string: to } }),
  },
  true,
);
