/**
 * ACP's trace (docs/harnesses/acp.md "Trace"), checked by hand against two agents' captures: calls by `toolCallId`,
 * started when announced (`pending`, `in_progress`) and ended when `completed` or `failed`, all at observed times
 * (the protocol has none); Qwen Code's per-call usage (`_meta.usage` on a chunk) a model call ending when read and
 * starting `durationMs` before (the clock less the duration: observed). The clock is fixed, so those starts are exact.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { traceFixture } from '../../helpers.js';
import { traceOf } from '../trace-records.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T12:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

test('Qwen Code: three calls, and three model calls each started its durationMs before it was read', async () => {
  expect(await traceOf('acp/qwen/tools.jsonl', 'acp')).toEqual([
    { kind: 'run_started', v: 1, harness: 'acp', at_source: 'observed' },
    { kind: 'event', seq: 1, type: 'reasoning' },
    { kind: 'event', seq: 2, type: 'agent' },
    { kind: 'call_started', call_id: 'call_0002', tool: 'read', at_source: 'observed' },
    {
      kind: 'model_call',
      tokens: { input: 1000, output: 12, cache_read: 0, reasoning: 8 },
      at_source: 'observed',
      started_at_source: 'observed',
    },
    { kind: 'event', seq: 3, type: 'usage' },
    { kind: 'call_ended', call_id: 'call_0002', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 4, call_id: 'call_0002', type: 'read' },
    { kind: 'call_started', call_id: 'call_0004', tool: 'execute', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0005', tool: 'search', at_source: 'observed' },
    {
      kind: 'model_call',
      tokens: { input: 1100, output: 30, cache_read: 0, reasoning: 0 },
      at_source: 'observed',
      started_at_source: 'observed',
    },
    { kind: 'event', seq: 5, type: 'usage' },
    { kind: 'call_ended', call_id: 'call_0004', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 6, call_id: 'call_0004', type: 'command' },
    { kind: 'call_ended', call_id: 'call_0005', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 7, call_id: 'call_0005', type: 'search' },
    { kind: 'event', seq: 8, type: 'agent' },
    {
      kind: 'model_call',
      tokens: { input: 500, output: 15, cache_read: 800, reasoning: 0 },
      at_source: 'observed',
      started_at_source: 'observed',
    },
    { kind: 'event', seq: 9, type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
  // The observed starts, exact on the fixed clock: the clock less each call's durationMs (1329, 212, 108).
  const records = await traceFixture('acp/qwen/tools.jsonl', { harness: 'acp' });
  expect(records.flatMap((r) => (r.kind === 'model_call' ? [r.started_at] : []))).toEqual([
    '2026-12-01T11:59:58.671Z',
    '2026-12-01T11:59:59.788Z',
    '2026-12-01T11:59:59.892Z',
  ]);
});

test('Copilot: parallel calls paired by id, ended in their own order; usage per prompt, no model call', async () => {
  expect(await traceOf('acp/copilot/tools.jsonl', 'acp')).toEqual([
    { kind: 'run_started', v: 1, harness: 'acp', at_source: 'observed' },
    { kind: 'event', seq: 1, type: 'reasoning' },
    { kind: 'event', seq: 2, type: 'agent' },
    { kind: 'call_started', call_id: 'call_0002', tool: 'read', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0002', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 3, call_id: 'call_0002', type: 'read' },
    { kind: 'call_started', call_id: 'call_0004', tool: 'execute', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0005', tool: 'read', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0005', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 4, call_id: 'call_0005', type: 'search' },
    { kind: 'call_ended', call_id: 'call_0004', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 5, call_id: 'call_0004', type: 'command' },
    { kind: 'event', seq: 6, type: 'agent' },
    { kind: 'event', seq: 7, type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
