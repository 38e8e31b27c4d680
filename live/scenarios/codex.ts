/**
 * Codex 0.169.0 (codex.md). Its only file tool is apply_patch (a freeform tool); reads,
 * searches and listings are exec_command shell commands, which the library reclassifies.
 */
import type { Scenario } from '../scenario.js';

export const codex: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ reasoning: '**Greeting**\n\nThe user wants one sentence.', text: 'Hello from the scripted model.', usage: { input: 9000, output: 60, cached: 8200, reasoning: 40 } }],
    exitCode: 0,
  },
  {
    name: 'shell reads',
    prompt: 'Look around with the shell.',
    turns: () => [
      { text: 'Reading first.', tools: [{ name: 'exec_command', input: { cmd: 'cat README.md' } }] },
      { tools: [{ name: 'exec_command', input: { cmd: "sed -n '2,4p' notes.txt" } }] },
      { tools: [{ name: 'exec_command', input: { cmd: "nl -ba src/a.ts | sed -n '1,2p'" } }] },
      { tools: [{ name: 'exec_command', input: { cmd: 'grep -rn hello .' } }] },
      { tools: [{ name: 'exec_command', input: { cmd: 'ls -la src' } }] },
      { text: 'Looked around.' },
    ],
    exitCode: 0,
  },
  {
    name: 'write and failing commands',
    prompt: 'Add a file, then run two commands that fail.',
    turns: () => [
      { tools: [{ name: 'apply_patch', custom: true, input: '*** Begin Patch\n*** Add File: src/c.ts\n+export const answer = 42;\n*** End Patch\n' }] },
      { tools: [{ name: 'exec_command', input: { cmd: 'echo hi > out.txt' } }] },
      { tools: [{ name: 'exec_command', input: { cmd: 'cat missing.txt' } }] },
      { tools: [{ name: 'exec_command', input: { cmd: 'false' } }] },
      { text: 'Added src/c.ts; both commands failed.' },
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
