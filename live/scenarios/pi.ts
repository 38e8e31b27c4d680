/** pi 0.73.1 (pi.md), `--mode json`; grep and ls enabled with --tools (find needs fd, not used). */
import type { Scenario } from '../scenario.js';

const tools = ['--tools', 'read,bash,edit,write,grep,ls'];

export const pi: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.', usage: { input: 2100, output: 42, cached: 1024, reasoning: 18 } }],
    exitCode: 0,
  },
  {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    args: tools,
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
  {
    name: 'shell',
    prompt: 'Look around with the shell.',
    turns: () => [
      { tools: [{ name: 'bash', input: { command: 'cat README.md' } }] },
      { tools: [{ name: 'bash', input: { command: "sed -n '2,4p' notes.txt" } }] },
      { tools: [{ name: 'bash', input: { command: 'grep -rn hello .' } }] },
      { tools: [{ name: 'bash', input: { command: 'ls src' } }] },
      { tools: [{ name: 'bash', input: { command: 'ls does-not-exist' } }] },
      { tools: [{ name: 'bash', input: { command: 'echo hi > out.txt' } }] },
      { text: 'Looked around; the listing of does-not-exist failed.' },
    ],
    exitCode: 0,
  },
  {
    // pi's json mode exits 0 even when the model call failed: the failure is in the stream.
    name: 'api error',
    prompt: 'Say hello.',
    turns: () => [{ failAlways: 401 }],
    exitCode: 0,
  },
];
