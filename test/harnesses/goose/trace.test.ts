/**
 * Goose's trace (docs/harnesses/goose.md "Trace"), checked by hand against the authored full run (SOURCES.md):
 * calls by the `toolRequest` / `toolResponse` id, started and ended at their messages' `created` (unix seconds).
 */
import { expect, test } from 'vitest';
import { traceOf } from '../trace-records.js';

test('four calls at their messages’ seconds', async () => {
  expect(await traceOf('goose/full-run.jsonl', 'goose')).toEqual([
    { kind: 'run_started', v: 1, harness: 'goose', at_source: 'observed' },
    { kind: 'event', seq: 1, type: 'warning' },
    { kind: 'event', seq: 2, type: 'warning' },
    { kind: 'event', seq: 3, type: 'warning' },
    { kind: 'event', seq: 4, type: 'reasoning' },
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
    { kind: 'event', seq: 5, call_id: 'call_01', type: 'read' },
    { kind: 'event', seq: 6, type: 'agent' },
    { kind: 'call_started', call_id: 'call_02', tool: 'edit', at: '2025-11-29T23:46:45.000Z', at_source: 'harness' },
    {
      kind: 'call_ended',
      call_id: 'call_02',
      status: 'completed',
      at: '2025-11-29T23:46:45.000Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 7, call_id: 'call_02', type: 'write' },
    { kind: 'call_started', call_id: 'call_03', tool: 'shell', at: '2025-11-29T23:46:47.000Z', at_source: 'harness' },
    { kind: 'event', seq: 8, type: 'unknown' },
    {
      kind: 'call_ended',
      call_id: 'call_03',
      status: 'completed',
      at: '2025-11-29T23:46:51.000Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 9, call_id: 'call_03', type: 'command' },
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
    { kind: 'event', seq: 10, type: 'agent' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
