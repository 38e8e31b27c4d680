/** Qwen Code 0.24.4 (qwen.md), headless with --output-format stream-json; list_directory enabled in its settings. */
import type { Scenario } from '../scenario.js';

export const qwen: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.', usage: { input: 5100, output: 42, cached: 4096, reasoning: 18 } }],
    exitCode: 0,
  },
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
  {
    name: 'shell',
    prompt: 'Look around with the shell.',
    turns: () => [
      { tools: [{ name: 'run_shell_command', input: { command: 'cat README.md', description: 'Show README' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: "sed -n '2,4p' notes.txt", description: 'Lines 2-4' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'grep -rn hello .', description: 'Search' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'ls src', description: 'List src' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'ls does-not-exist', description: 'List a missing dir' } }] },
      { tools: [{ name: 'run_shell_command', input: { command: 'echo hi > out.txt', description: 'Write out.txt' } }] },
      { text: 'Looked around; the listing of does-not-exist failed.' },
    ],
    exitCode: 0,
  },
  {
    name: 'api error',
    prompt: 'Say hello.',
    turns: () => [{ failAlways: 401 }],
    exitCode: 1,
  },
];
