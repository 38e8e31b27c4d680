/** Gemini CLI 0.61.0 (gemini.md): its own file tools, and run_shell_command. */
import type { Scenario } from '../scenario.js';

export const gemini: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.', usage: { input: 5200, output: 49, cached: 4096, reasoning: 37 } }],
    exitCode: 0,
  },
  {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'read_file', input: { file_path: 'README.md' } }] },
      { tools: [{ name: 'read_file', input: { file_path: p.path('notes.txt'), start_line: 2, end_line: 4 } }] },
      { tools: [{ name: 'list_directory', input: { dir_path: 'src' } }] },
      { tools: [{ name: 'glob', input: { pattern: '**/*.ts' } }] },
      { tools: [{ name: 'grep_search', input: { pattern: 'greet', dir_path: 'src' } }] },
      { tools: [{ name: 'write_file', input: { file_path: 'src/c.ts', content: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'read_file', input: { file_path: 'missing.txt' } }] },
      { text: 'Done.' },
    ],
    exitCode: 0,
  },
  {
    name: 'shell',
    prompt: 'Look around with the shell.',
    turns: () => [
      { tools: [{ name: 'run_shell_command', input: { command: 'cat README.md' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: "sed -n '2,4p' notes.txt" } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'grep -rn hello .' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'ls src' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'ls does-not-exist' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'echo hi > out.txt' } }] },
      { text: 'Looked around; the listing of does-not-exist failed.' },
    ],
    exitCode: 0,
  },
  {
    // An HTTP 400 is not retried; the CLI exits with the status, mod 256.
    name: 'api error',
    prompt: 'Say hello.',
    turns: () => [{ failAlways: 400 }],
    exitCode: 144,
  },
];
