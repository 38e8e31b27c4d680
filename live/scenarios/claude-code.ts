/**
 * Claude Code 2.1.328 (claude-code.md). Its tools in this build: Read, Write, Edit, Bash, ... but
 * no Grep, Glob or LS (the CLI answers "No such tool available": searches and listings go through
 * Bash), so searches and listings are scripted as shell commands.
 */
import type { Scenario } from '../scenario.js';

export const claudeCode: Scenario[] = [
  {
    name: 'text',
    prompt: 'Say hello in one sentence.',
    turns: () => [{ reasoning: 'The user wants a greeting.', text: 'Hello from the scripted model.', usage: { input: 1500, output: 30, cached: 1000 } }],
    exitCode: 0,
  },
  {
    name: 'file tools',
    prompt: 'Read the README and part of the notes, add a file, then read a missing one.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'Read', input: { file_path: p.path('README.md') } }] },
      { tools: [{ name: 'Read', input: { file_path: p.path('notes.txt'), offset: 3, limit: 4 } }] },
      { tools: [{ name: 'Write', input: { file_path: p.path('src/c.ts'), content: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'Edit', input: { file_path: p.path('src/c.ts'), old_string: '42', new_string: '43' } }] },
      { tools: [{ name: 'Read', input: { file_path: p.path('missing.txt') } }] },
      { text: 'Done: read two files, wrote src/c.ts, missing.txt does not exist.' },
    ],
    exitCode: 0,
  },
  {
    name: 'shell',
    prompt: 'Look around with the shell.',
    turns: () => [
      { tools: [{ name: 'Bash', input: { command: 'cat README.md' } }] },
      { tools: [{ name: 'Bash', input: { command: "sed -n '2,4p' notes.txt" } }] },
      { tools: [{ name: 'Bash', input: { command: 'grep -rn hello .' } }] },
      { text: 'Two at once.', tools: [{ name: 'Bash', input: { command: 'ls src' } }, { name: 'Bash', input: { command: 'false' } }] },
      { tools: [{ name: 'Bash', input: { command: 'echo hi > out.txt' } }] },
      { text: 'Looked around; `false` failed as expected.' },
    ],
    exitCode: 0,
  },
  {
    name: 'api error',
    prompt: 'Say hello.',
    turns: () => [{ failAlways: 401 }],
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    exitCode: 1,
  },
];
