/** Qwen Code 0.24.4 (qwen.md), headless with --output-format stream-json; list_directory enabled in its settings. */
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, shellScenario, textScenario } from './common.js';

export const qwen: Scenario[] = [
  textScenario({ input: 5100, output: 42, cached: 4096, reasoning: 18 }),
  {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'read_file', input: { file_path: p.path('README.md') } }] },
      { tools: [{ name: 'read_file', input: { file_path: p.path('notes.txt'), offset: 1, limit: 3 } }] },
      { tools: [{ name: 'list_directory', input: { path: p.path('src') } }] },
      { tools: [{ name: 'glob', input: { pattern: '**/*.ts' } }] },
      { tools: [{ name: 'grep_search', input: { pattern: 'greet', path: p.path('src') } }] },
      { tools: [{ name: 'write_file', input: { file_path: p.path('src/c.ts'), content: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'read_file', input: { file_path: p.path('missing.txt') } }] },
      { text: 'Done.' },
    ],
    exitCode: 0,
  },
  shellScenario((command) => ({ name: 'run_shell_command', input: { command, description: 'Run a command' } }), 'ls does-not-exist'),
  apiErrorScenario(401, 1),
];
