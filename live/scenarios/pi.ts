/** pi 0.73.1 (pi.md), `--mode json`; grep and ls enabled with --tools (find needs fd, not used). */
import type { EventBody } from '../../lib/kernel/events.js';
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, greeting, listingText, shellDoneText, shellScenario, textScenario } from './common.js';

/**
 * Each assistant message's usage: pi's per-call delta, input already without the cached part (1200 in, 40 out here).
 */
const call: EventBody = { type: 'usage', tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0 } };

export const pi: Scenario[] = [
  textScenario(
    { input: 2100, output: 42, cached: 1024, reasoning: 18 },
    {
      // message_end in content order (thinking, then text), then its usage: no reasoning class (pi
      // reports none), no cost (0 is omitted).
      events: () => [
        { type: 'reasoning', message: greeting.reasoning },
        { type: 'agent', message: greeting.text },
        { type: 'usage', tokens: { input: 1076, output: 42, cache_read: 1024, cache_write: 0 } },
      ],
    },
  ),
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
    // An assistant message's events (text, usage) come at its message_end, before its tools run;
    // relative paths resolve against the session's cwd; offset 2, limit 3 is lines 2-4.
    events: (x) => [
      { type: 'agent', message: 'Reading the README first.' },
      call,
      { type: 'read', path: x.path('README.md'), is_success: true },
      call,
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      call,
      { type: 'list', path: x.path('src'), is_success: true },
      call,
      { type: 'search', query: 'greet', path: x.path('src'), is_success: true },
      call,
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      call,
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      call,
      { type: 'read', path: x.path('missing.txt'), is_success: false },
      { type: 'agent', message: 'Done.' },
      call,
    ],
  },
  shellScenario((command) => ({ name: 'bash', input: { command } }), 'ls does-not-exist', {
    // A command's working directory is the session cwd; a successful one has no exit code (pi gives
    // one only in a failed result's text), and the failing ls is a listing.
    events: (x) => [
      call,
      { type: 'read', path: x.path('README.md'), is_success: true },
      call,
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      call,
      { type: 'search', query: 'hello', path: x.workspace, is_success: true },
      { type: 'agent', message: listingText },
      call,
      { type: 'list', path: x.path('src'), is_success: true },
      call,
      { type: 'list', path: x.path('does-not-exist'), is_success: false },
      call,
      { type: 'command', command: 'echo hi > out.txt', working_directory: x.workspace, is_success: true },
      { type: 'agent', message: shellDoneText('ls does-not-exist') },
      call,
    ],
  }),
  // pi's json mode exits 0 even when the model call failed: the assistant message's stopReason
  // "error" is an error event (no retry followed), with all-zero usage giving no usage event.
  apiErrorScenario(401, 0, { events: () => [{ type: 'error', message: '401 scripted HTTP 401' }] }),
];
