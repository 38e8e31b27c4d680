/** Gemini CLI 0.61.0 (gemini.md): its own file tools, and run_shell_command. */
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, shellScenario, textScenario } from './common.js';

export const gemini: Scenario[] = [
  textScenario({ input: 5200, output: 49, cached: 4096, reasoning: 37 }),
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
  shellScenario((command) => ({ name: 'run_shell_command', input: { command } }), 'ls does-not-exist'),
  // An HTTP 400 is not retried; the CLI exits with the status, mod 256.
  apiErrorScenario(400, 144),
];
