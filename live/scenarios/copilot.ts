/** Copilot CLI 1.0.102 (copilot.md), `-p --output-format json`; `view` of a directory lists it. */
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, shellScenario, textScenario } from './common.js';

export const copilot: Scenario[] = [
  textScenario(undefined),
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
  shellScenario((command) => ({ name: 'bash', input: { command, description: 'Run a command' } }), 'ls does-not-exist'),
  // A 401 is retried twice (transient_auth_error), then the session fails.
  apiErrorScenario(401, 1),
];
