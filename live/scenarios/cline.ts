/**
 * Cline CLI 3.0.65 (cline.md), `--json`, the local session backend the library sets. Each model
 * call's events come in Cline's order: its usage (before the text's `content_end`), its text, its
 * reasoning, then its calls. The scripted usage is 1200 in, 40 out unless a turn says otherwise, and
 * the local runtime omits zero cache fields, so a plain call's usage has input and output only.
 */
import type { EventBody } from '../../lib/kernel/events.js';
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, greeting, listingText, shellDoneText, shellScenario, textScenario } from './common.js';

const call: EventBody = { type: 'usage', tokens: { input: 1200, output: 40 } };

/** Cline refuses a tool call that needs approval when it is not auto-approved: the call fails as a whole. */
const refused =
  '1 tool call(s) failed: [run_commands] {"error":"Tool \\"run_commands\\" requires approval in a TTY session -- ' +
  'NOT a tool or system failure. Clarify with user before proceeding."}';

export const cline: Scenario[] = [
  textScenario(
    { input: 2100, output: 42, cached: 1024, reasoning: 18 },
    {
      // input is Cline's inputTokens less the cached part; no reasoning class (Cline reports none); the
      // reasoning's content_end comes after the text's.
      events: () => [
        { type: 'usage', tokens: { input: 1076, output: 42, cache_read: 1024 } },
        { type: 'agent', message: greeting.text },
        { type: 'reasoning', message: greeting.reasoning },
      ],
      tokens: { input: 1076, output: 42, cache_read: 1024 },
    },
  ),
  {
    name: 'file tools',
    prompt: 'Read, search and edit.',
    turns: (p) => [
      {
        text: 'Reading first.',
        tools: [
          {
            name: 'read_files',
            input: {
              files: [
                { path: 'README.md' },
                { path: p.path('notes.txt'), start_line: 2, end_line: 4 },
                { path: p.path('missing.txt') },
              ],
            },
          },
          { name: 'search_codebase', input: { queries: ['greet\\(', 'zzz_nomatch_zzz'] } },
        ],
      },
      {
        tools: [
          { name: 'editor', input: { path: p.path('src/c.ts'), new_text: 'export const answer = 42;\n' } },
          { name: 'editor', input: { path: p.path('src/b.ts'), new_text: '// entry\n', insert_line: 1 } },
          { name: 'editor', input: { path: p.path('src/a.ts'), old_text: 'no such text', new_text: 'x' } },
        ],
      },
      { text: 'Done.' },
    ],
    exitCode: 0,
    // One read per file (the relative one resolved against the cwd, the missing one failed), one search
    // per query (no match is a success, no path: Cline searches the workspace root); editor writes, the
    // insertion with its line, the replace of absent text failed.
    events: (x) => [
      call,
      { type: 'agent', message: 'Reading first.' },
      { type: 'read', path: x.path('README.md'), is_success: true },
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      { type: 'read', path: x.path('missing.txt'), is_success: false },
      { type: 'search', query: 'greet\\(', is_success: true },
      { type: 'search', query: 'zzz_nomatch_zzz', is_success: true },
      call,
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      { type: 'write', path: x.path('src/b.ts'), start_line: 1, is_success: true },
      { type: 'write', path: x.path('src/a.ts'), is_success: false },
      call,
      { type: 'agent', message: 'Done.' },
    ],
  },
  shellScenario((command) => ({ name: 'run_commands', input: { commands: [command] } }), 'ls does-not-exist', {
    // Commands run from the workspace root (the cwd); a successful one reports no exit code; the failing
    // ls is an unsuccessful listing.
    events: (x) => [
      call,
      { type: 'read', path: x.path('README.md'), is_success: true },
      call,
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      call,
      { type: 'search', query: 'hello', path: x.workspace, is_success: true },
      call,
      { type: 'agent', message: listingText },
      { type: 'list', path: x.path('src'), is_success: true },
      call,
      { type: 'list', path: x.path('does-not-exist'), is_success: false },
      call,
      { type: 'command', command: 'echo hi > out.txt', working_directory: x.workspace, is_success: true },
      call,
      { type: 'agent', message: shellDoneText('ls does-not-exist') },
    ],
  }),
  {
    // The library's default command line: nothing is approved, so the write never runs.
    name: 'no approval by default',
    permissions: 'default',
    prompt: 'Write a file with the shell.',
    turns: () => [
      { text: 'Writing it.', tools: [{ name: 'run_commands', input: { commands: ['echo hi > out.txt'] } }] },
      { text: 'It was refused.' },
    ],
    exitCode: 0,
    events: (x) => [
      call,
      { type: 'agent', message: 'Writing it.' },
      { type: 'command', command: 'echo hi > out.txt', working_directory: x.workspace, is_success: false },
      {
        type: 'warning',
        code: 'permission_denied',
        message:
          'Permission denied: run_commands: Tool "run_commands" requires approval in a TTY session -- NOT a tool or ' +
          'system failure. Clarify with user before proceeding.',
      },
      { type: 'warning', message: refused },
      call,
      { type: 'agent', message: 'It was refused.' },
    ],
  },
  // A 401 is not retried: a fatal agent error (errorClass auth); run_result repeats it (no second
  // event); exit 1.
  apiErrorScenario(401, 1, {
    events: (x) => [{ type: 'error', message: 'scripted HTTP 401', code: 'auth' }, x.exited(1)],
  }),
];
