/** Copilot CLI 1.0.102 (copilot.md), `-p --output-format json`; `view` of a directory lists it. */
import type { Scenario } from '../scenario.js';

export const copilot: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.' }],
    exitCode: 0,
  },
  {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'view', input: { path: p.path('README.md') } }] },
      { tools: [{ name: 'view', input: { path: p.path('notes.txt'), view_range: [2, 4] } }] },
      { tools: [{ name: 'view', input: { path: p.path('src') } }] },
      { tools: [{ name: 'glob', input: { pattern: '**/*.ts' } }] },
      { tools: [{ name: 'grep', input: { pattern: 'greet', paths: p.path('src'), output_mode: 'content', '-n': true } }] },
      { tools: [{ name: 'create', input: { path: p.path('src/c.ts'), file_text: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'view', input: { path: p.path('missing.txt') } }] },
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
      { tools: [{ name: 'bash', input: { command: 'ls does-not-exist', description: 'List a missing dir' } }] },
      { tools: [{ name: 'bash', input: { command: 'echo hi > out.txt', description: 'Write out.txt' } }] },
      { text: 'Looked around; the listing of does-not-exist failed.' },
    ],
    exitCode: 0,
  },
  {
    // A 401 is retried twice (transient_auth_error), then the session fails.
    name: 'api error',
    prompt: 'Say hello.',
    turns: () => [{ failAlways: 401 }],
    exitCode: 1,
  },
];
