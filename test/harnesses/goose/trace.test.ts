/**
 * Goose's trace (docs/harnesses/goose.md "Trace"), checked by hand against the authored full run (SOURCES.md):
 * calls by the `toolRequest` / `toolResponse` id, started and ended at their messages' `created` (unix seconds).
 */
import { expect, test } from 'vitest';
import { traceFixture } from '../../helpers.js';
import { timeless } from '../../trace-records.js';

test('four calls at their messages’ seconds', async () => {
  const records = await traceFixture('goose/full-run.jsonl', { harness: 'goose' });
  expect(timeless(records)).toEqual([
    { kind: 'run_started', v: 1, harness: 'goose', at_source: 'observed' },
    {
      kind: 'event',
      seq: 1,
      event: {
        type: 'warning',
        message: 'starting session | provider: openrouter model: deepseek/deepseek-chat-v3.1',
        code: 'not_json',
      },
    },
    { kind: 'event', seq: 2, event: { type: 'warning', message: '    session id: 20251130_1', code: 'not_json' } },
    {
      kind: 'event',
      seq: 3,
      event: { type: 'warning', message: '    working directory: /home/dev/project', code: 'not_json' },
    },
    {
      kind: 'event',
      seq: 4,
      event: { type: 'reasoning', message: 'The greeting is printed by src/greet.ts; read it before editing.' },
    },
    {
      kind: 'call_started',
      call_id: 'call_01',
      tool: 'developer__text_editor',
      at: '2025-11-29T23:46:42.000Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'call_01',
      status: 'completed',
      at: '2025-11-29T23:46:42.000Z',
      at_source: 'harness',
    },
    {
      kind: 'event',
      seq: 5,
      event: { type: 'read', path: '/home/dev/project/src/greet.ts', start_line: 1, end_line: 20, is_success: true },
      call_id: 'call_01',
    },
    { kind: 'event', seq: 6, event: { type: 'agent', message: 'Line 2 says "Helo"; fixing it.' } },
    { kind: 'call_started', call_id: 'call_02', tool: 'edit', at: '2025-11-29T23:46:45.000Z', at_source: 'harness' },
    {
      kind: 'call_ended',
      call_id: 'call_02',
      status: 'completed',
      at: '2025-11-29T23:46:45.000Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 7, event: { type: 'write', path: 'src/greet.ts', is_success: true }, call_id: 'call_02' },
    { kind: 'call_started', call_id: 'call_03', tool: 'shell', at: '2025-11-29T23:46:47.000Z', at_source: 'harness' },
    {
      kind: 'event',
      seq: 8,
      event: {
        type: 'unknown',
        raw: { type: 'notification', extension_id: 'call_03', log: { message: 'PASS test/greet.test.ts' } },
      },
    },
    {
      kind: 'call_ended',
      call_id: 'call_03',
      status: 'completed',
      at: '2025-11-29T23:46:51.000Z',
      at_source: 'harness',
    },
    {
      kind: 'event',
      seq: 9,
      event: { type: 'command', command: 'npm test', exit_code: 0, is_success: true },
      call_id: 'call_03',
    },
    {
      kind: 'call_started',
      call_id: 'call_04',
      tool: 'todo__todo_write',
      at: '2025-11-29T23:46:53.000Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'call_04',
      status: 'completed',
      at: '2025-11-29T23:46:53.000Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 10, event: { type: 'agent', message: 'Fixed the typo in src/greet.ts; the tests pass.' } },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
