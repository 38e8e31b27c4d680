/**
 * ACP's trace (docs/harnesses/acp.md "Trace"), checked by hand against two agents' captures: calls by `toolCallId`,
 * started when announced (`pending`, `in_progress`) and ended when `completed` or `failed`, all at observed times
 * (the protocol has none); Qwen Code's per-call usage (`_meta.usage` on a chunk) a model call ending when read and
 * starting `durationMs` before. The clock is fixed, so those starts are exact.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { traceFixture } from '../../helpers.js';
import { timeless } from '../../trace-records.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T12:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

test('Qwen Code: three calls, and three model calls each started its durationMs before it was read', async () => {
  const records = await traceFixture('acp/qwen/tools.jsonl', { harness: 'acp' });
  expect(timeless(records)).toEqual([
    { kind: 'run_started', v: 1, harness: 'acp', at_source: 'observed' },
    { kind: 'event', seq: 1, event: { type: 'reasoning', message: 'I should read the notes file first.' } },
    { kind: 'event', seq: 2, event: { type: 'agent', message: 'Let me read the notes.' } },
    { kind: 'call_started', call_id: 'call_0002', tool: 'read', at_source: 'observed' },
    {
      kind: 'model_call',
      tokens: { input: 1000, output: 12, cache_read: 0, reasoning: 8 },
      at_source: 'observed',
      started_at: '2026-12-01T11:59:58.671Z',
      started_at_source: 'harness',
    },
    {
      kind: 'event',
      seq: 3,
      event: { type: 'usage', tokens: { input: 1000, output: 12, cache_read: 0, reasoning: 8 } },
    },
    { kind: 'call_ended', call_id: 'call_0002', status: 'completed', at_source: 'observed' },
    {
      kind: 'event',
      seq: 4,
      event: { type: 'read', path: '/home/user/project/notes.md', is_success: true },
      call_id: 'call_0002',
    },
    { kind: 'call_started', call_id: 'call_0004', tool: 'execute', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0005', tool: 'search', at_source: 'observed' },
    {
      kind: 'model_call',
      tokens: { input: 1100, output: 30, cache_read: 0, reasoning: 0 },
      at_source: 'observed',
      started_at: '2026-12-01T11:59:59.788Z',
      started_at_source: 'harness',
    },
    {
      kind: 'event',
      seq: 5,
      event: { type: 'usage', tokens: { input: 1100, output: 30, cache_read: 0, reasoning: 0 } },
    },
    { kind: 'call_ended', call_id: 'call_0004', status: 'completed', at_source: 'observed' },
    {
      kind: 'event',
      seq: 6,
      event: {
        type: 'command',
        command: 'ls -la && echo done',
        working_directory: '/home/user/project',
        exit_code: 0,
        is_success: true,
      },
      call_id: 'call_0004',
    },
    { kind: 'call_ended', call_id: 'call_0005', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 7, event: { type: 'search', query: 'magic', is_success: true }, call_id: 'call_0005' },
    {
      kind: 'event',
      seq: 8,
      event: { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
    },
    {
      kind: 'model_call',
      tokens: { input: 500, output: 15, cache_read: 800, reasoning: 0 },
      at_source: 'observed',
      started_at: '2026-12-01T11:59:59.892Z',
      started_at_source: 'harness',
    },
    {
      kind: 'event',
      seq: 9,
      event: { type: 'usage', tokens: { input: 500, output: 15, cache_read: 800, reasoning: 0 } },
    },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test('Copilot: parallel calls paired by id, ended in their own order; usage per prompt, no model call', async () => {
  const records = await traceFixture('acp/copilot/tools.jsonl', { harness: 'acp' });
  expect(timeless(records)).toEqual([
    { kind: 'run_started', v: 1, harness: 'acp', at_source: 'observed' },
    { kind: 'event', seq: 1, event: { type: 'reasoning', message: 'I should read the notes file first.' } },
    { kind: 'event', seq: 2, event: { type: 'agent', message: 'Let me read the notes.' } },
    { kind: 'call_started', call_id: 'call_0002', tool: 'read', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0002', status: 'completed', at_source: 'observed' },
    {
      kind: 'event',
      seq: 3,
      event: { type: 'read', path: '/home/user/project/notes.md', is_success: true },
      call_id: 'call_0002',
    },
    { kind: 'call_started', call_id: 'call_0004', tool: 'execute', at_source: 'observed' },
    { kind: 'call_started', call_id: 'call_0005', tool: 'read', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'call_0005', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 4, event: { type: 'search', query: 'magic', is_success: true }, call_id: 'call_0005' },
    { kind: 'call_ended', call_id: 'call_0004', status: 'completed', at_source: 'observed' },
    {
      kind: 'event',
      seq: 5,
      event: {
        type: 'command',
        command: 'ls -la && echo done',
        working_directory: '/home/user/project',
        exit_code: 0,
        is_success: true,
      },
      call_id: 'call_0004',
    },
    {
      kind: 'event',
      seq: 6,
      event: { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
    },
    {
      kind: 'event',
      seq: 7,
      event: { type: 'usage', tokens: { input: 2600, output: 57, cache_read: 800, cache_write: 0, reasoning: 8 } },
    },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
