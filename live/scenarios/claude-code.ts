/**
 * Claude Code 2.1.328 (claude-code.md). Its tools in this build: Read, Write, Edit, Bash, ... but
 * no Grep, Glob or LS (the CLI answers "No such tool available": searches and listings go through
 * Bash), so searches and listings are scripted as shell commands.
 */
import type { Scenario } from '../scenario.js';
import { claudeCodeDirectories } from './claude-code-directories.js';
import { apiErrorScenario, greeting, shellEvents, shellScenario, textScenario } from './common.js';

export const claudeCode: Scenario[] = [
  textScenario(
    { input: 1500, output: 30, cached: 1000 },
    {
      // Thinking blocks are reasoning, text blocks agent; the result's usage goes to the metrics only.
      events: () => [
        { type: 'reasoning', message: greeting.reasoning },
        { type: 'agent', message: greeting.text },
      ],
      // input_tokens is already the uncached part.
      tokens: { input: 500, output: 30, cache_read: 1000, cache_write: 0, reasoning: 0 },
    },
  ),
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
    // Read: the line range from offset and limit; Write and Edit: write; a failed read is unsuccessful.
    events: (x) => [
      { type: 'agent', message: 'Reading the README first.' },
      { type: 'read', path: x.path('README.md'), is_success: true },
      { type: 'read', path: x.path('notes.txt'), start_line: 3, end_line: 6, is_success: true },
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      { type: 'read', path: x.path('missing.txt'), is_success: false },
      { type: 'agent', message: 'Done: read two files, wrote src/c.ts, missing.txt does not exist.' },
    ],
  },
  shellScenario((command) => ({ name: 'Bash', input: { command } }), 'false', {
    // Bash commands that are reads, searches and listings are reclassified; Claude reports no exit code; each
    // command runs in the tracked shell directory, here the project's (revision 2026-12-05).
    events: (x) =>
      shellEvents(x, {
        failing: 'false',
        failed: { type: 'command', command: 'false', working_directory: x.workspace, is_success: false },
        written: { working_directory: x.workspace },
      }),
  }),
  apiErrorScenario(401, 1, {
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    // The synthetic assistant text (is_api_error_message) is an error coded with its `error`, not the agent's
    // words; the result repeating it gives no second error (revision 2026-12-05).
    events: (x) => [
      {
        type: 'error',
        message: 'Failed to authenticate. API Error: 401 scripted HTTP 401',
        code: 'authentication_failed',
      },
      x.exited(1),
    ],
  }),
  ...claudeCodeDirectories,
];
