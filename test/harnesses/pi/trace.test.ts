/**
 * pi's trace (docs/harnesses/pi.md "Trace"), checked by hand against the captures: calls by `toolCallId` from
 * `tool_execution_start` to `_end` (observed on stdout, which has no times; the entries' `timestamp` in the session
 * file), and each assistant message a model call with its `responseId`, model and usage, started at its own
 * `message.timestamp`.
 */
import { expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

const SESSION =
  '.pi/agent/sessions/--home-user-project--/2026-12-01T20-02-35-286Z_01a23333-b095-7503-8207-4c1c1af8b91a.jsonl';

test('stdout: parallel calls paired by id, one failed, four model calls started at their messages', async () => {
  expect(await traceOf('pi/lab/shell.jsonl', 'pi')).toEqual([
    { kind: 'run_started', v: 1, harness: 'pi', at: '2026-12-01T01:03:03.349Z', at_source: 'harness' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0018',
      model: 'fake-model',
      tokens: { input: 2400, output: 60, cache_read: 0, cache_write: 0 },
      cost: 0.0025199999999999997,
      at_source: 'observed',
      started_at: '2026-12-01T01:03:03.554Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 1, model_call_id: 'chatcmpl_0018', type: 'usage' },
    { kind: 'call_started', call_id: 'call_0019', tool: 'bash', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0020', tool: 'bash', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0019', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 2, call_id: 'call_0019', type: 'read' },
    { kind: 'call_ended', call_id: 'call_0020', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 3, call_id: 'call_0020', type: 'read' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0021',
      model: 'fake-model',
      tokens: { input: 300, output: 60, cache_read: 2400, cache_write: 0 },
      cost: 0.00066,
      at_source: 'observed',
      started_at: '2026-12-01T01:03:03.728Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 4, model_call_id: 'chatcmpl_0021', type: 'usage' },
    { kind: 'call_started', call_id: 'call_0022', tool: 'bash', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0023', tool: 'bash', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0022', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 5, call_id: 'call_0022', type: 'list' },
    { kind: 'call_ended', call_id: 'call_0023', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 6, call_id: 'call_0023', type: 'search' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0024',
      model: 'fake-model',
      tokens: { input: 400, output: 60, cache_read: 2700, cache_write: 0 },
      cost: 0.0007899999999999999,
      at_source: 'observed',
      started_at: '2026-12-01T01:03:03.890Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 7, model_call_id: 'chatcmpl_0024', type: 'usage' },
    { kind: 'call_started', call_id: 'call_0025', tool: 'bash', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0026', tool: 'bash', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0025', status: 'failed', at_source: 'observed' },
    { kind: 'event', seq: 8, call_id: 'call_0025', type: 'list' },
    { kind: 'call_ended', call_id: 'call_0026', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 9, call_id: 'call_0026', type: 'command' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0027',
      model: 'fake-model',
      tokens: { input: 400, output: 18, cache_read: 3100, cache_write: 0 },
      cost: 0.0007459999999999999,
      at_source: 'observed',
      started_at: '2026-12-01T01:03:04.034Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 10, model_call_id: 'chatcmpl_0027', type: 'agent' },
    { kind: 'event', seq: 11, model_call_id: 'chatcmpl_0027', type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test('the session file: every call and model call at the times pi wrote its entries', async () => {
  expect(await sessionTraceOf('pi', 'multi-prompt', SESSION)).toEqual([
    { kind: 'run_started', v: 1, harness: 'pi', at: '2026-12-01T20:02:35.286Z', at_source: 'harness' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0001',
      model: 'fake-model',
      tokens: { input: 2200, output: 30, cache_read: 0, cache_write: 0 },
      cost: 0.00226,
      at: '2026-12-01T20:02:35.479Z',
      at_source: 'harness',
      started_at: '2026-12-01T20:02:35.420Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 1, model_call_id: 'chatcmpl_0001', type: 'usage' },
    { kind: 'call_started', call_id: 'call_0002', tool: 'read', at: '2026-12-01T20:02:35.479Z', at_source: 'harness' },
    {
      kind: 'call_ended',
      call_id: 'call_0002',
      status: 'completed',
      at: '2026-12-01T20:02:35.497Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 2, call_id: 'call_0002', type: 'read' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0003',
      model: 'fake-model',
      tokens: { input: 300, output: 14, cache_read: 2200, cache_write: 0 },
      cost: 0.000548,
      at: '2026-12-01T20:02:35.512Z',
      at_source: 'harness',
      started_at: '2026-12-01T20:02:35.498Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 3, model_call_id: 'chatcmpl_0003', type: 'agent' },
    { kind: 'event', seq: 4, model_call_id: 'chatcmpl_0003', type: 'usage' },
    {
      kind: 'model_call',
      model_call_id: 'chatcmpl_0004',
      model: 'fake-model',
      tokens: { input: 400, output: 4, cache_read: 2500, cache_write: 0 },
      cost: 0.000658,
      at: '2026-12-01T20:02:35.524Z',
      at_source: 'harness',
      started_at: '2026-12-01T20:02:35.514Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 5, model_call_id: 'chatcmpl_0004', type: 'agent' },
    { kind: 'event', seq: 6, model_call_id: 'chatcmpl_0004', type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
