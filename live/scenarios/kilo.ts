/** Kilo 7.7.7 (kilo.md), an OpenCode fork: `run --format json --auto`, the same tools as OpenCode. */
import type { Scenario } from '../scenario.js';

export const kilo: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    args: ['--thinking'],
    turns: () => [{ reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.', usage: { input: 2400, output: 12, cached: 1800, reasoning: 4 } }],
    exitCode: 0,
  },
  {
    name: 'file tools',
    prompt: 'Read, search and write.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'read', input: { filePath: p.path('README.md') } }] },
      { tools: [{ name: 'read', input: { filePath: p.path('notes.txt'), offset: 2, limit: 2 } }] },
      { tools: [{ name: 'grep', input: { pattern: 'greet', path: 'src', include: '*.ts' } }] },
      { tools: [{ name: 'glob', input: { pattern: '**/*.ts', path: 'src' } }] },
      { tools: [{ name: 'write', input: { filePath: 'src/c.ts', content: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'read', input: { filePath: p.path('missing.txt') } }] },
      { text: 'Done.' },
    ],
    exitCode: 0,
  },
  {
    name: 'shell',
    prompt: 'Look around with the shell.',
    turns: () => [
      { tools: [{ name: 'bash', input: { command: 'cat README.md', description: 'Show README' } }] },
      { tools: [{ name: 'bash', input: { command: "sed -n '2,4p' notes.txt", description: 'Lines 2-4' } }] },
      { tools: [{ name: 'bash', input: { command: 'grep -rn hello .', description: 'Search' } }] },
      { tools: [{ name: 'bash', input: { command: 'ls src', description: 'List src' } }] },
      { tools: [{ name: 'bash', input: { command: 'false', description: 'Fail on purpose' } }] },
      { tools: [{ name: 'bash', input: { command: 'echo hi > out.txt', description: 'Write out.txt' } }] },
      { text: 'Looked around; `false` exited with status 1.' },
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
