/** pi 0.73.1 (pi.md), `--mode json`; grep and ls enabled with --tools (find needs fd, not used). */
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, shellScenario, textScenario } from './common.js';

export const pi: Scenario[] = [
  textScenario({ input: 2100, output: 42, cached: 1024, reasoning: 18 }),
  {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    args: ['--tools', 'read,bash,edit,write,grep,ls'],
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'read', input: { path: 'README.md' } }] },
      { tools: [{ name: 'read', input: { path: p.path('notes.txt'), offset: 2, limit: 3 } }] },
      { tools: [{ name: 'ls', input: { path: 'src' } }] },
      { tools: [{ name: 'grep', input: { pattern: 'greet', path: 'src' } }] },
      { tools: [{ name: 'write', input: { path: 'src/c.ts', content: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'edit', input: { path: 'src/c.ts', edits: [{ oldText: '42', newText: '43' }] } }] },
      { tools: [{ name: 'read', input: { path: 'missing.txt' } }] },
      { text: 'Done.' },
    ],
    exitCode: 0,
  },
  shellScenario((command) => ({ name: 'bash', input: { command } }), 'ls does-not-exist'),
  // pi's json mode exits 0 even when the model call failed: the failure is in the stream.
  apiErrorScenario(401, 0),
];
