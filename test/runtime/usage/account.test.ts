/**
 * The account on its own (lib/runtime/usage/account.ts, calls.ts, group.ts): trace records and events in, rows out.
 * Each expected row is worked out by hand from the records above it.
 */
import { expect, test } from 'vitest';
import { accountUsage } from '../../../lib/index.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';

const started: TraceRecord = {
  kind: 'run_started',
  v: 1,
  harness: 'codex',
  at: '2026-12-01T23:30:00.000Z',
  at_source: 'harness',
};

function modelCall(id: string | undefined, at: string, input: number, extra: object = {}): TraceRecord {
  return {
    kind: 'model_call',
    model_call_id: id,
    model: 'gpt-5.5',
    tokens: { input, output: 10 },
    at,
    at_source: 'harness',
    ...extra,
  } as TraceRecord;
}

function usageEvent(input: number, extra: object = {}): HarnessEvent {
  return {
    type: 'usage',
    tokens: { input, output: 1 },
    timestamp: '2026-12-03T10:00:00.000Z',
    ...extra,
  } as HarnessEvent;
}

test('a model call given twice in one stream is counted once', async () => {
  const records = [
    started,
    modelCall('resp_1', '2026-12-01T23:30:01.000Z', 100),
    modelCall('resp_1', '2026-12-01T23:30:01.000Z', 100),
  ];
  const report = await accountUsage(records);
  expect(report.total.calls).toBe(1);
  expect(report.total.tokens).toEqual({ input: 100, output: 10, cache_read: 0, cache_write: 0, reasoning: 0 });
  expect(report.duplicates).toBe(1);
});

test("days, ISO weeks and months are the calls' own times, in the zone asked for", async () => {
  // 23:30 UTC on Tuesday 1 December is already Wednesday 2 December in Tokyo; 31 December 2026 is in ISO week 53.
  const records = [
    started,
    modelCall('a', '2026-12-01T23:30:01.000Z', 100),
    modelCall('b', '2026-12-01T12:00:00.000Z', 200),
    modelCall('c', '2026-12-31T12:00:00.000Z', 400),
  ];
  const utc = await accountUsage(records, { by: ['day', 'week', 'month'], tz: 'UTC' });
  expect(utc.rows.map((row) => [row.group, row.calls, row.tokens.input])).toEqual([
    [{ day: '2026-12-01', week: '2026-W49', month: '2026-12' }, 2, 300],
    [{ day: '2026-12-31', week: '2026-W53', month: '2026-12' }, 1, 400],
  ]);
  const tokyo = await accountUsage(records, { by: ['day'], tz: 'Asia/Tokyo' });
  expect(tokyo.rows.map((row) => [row.group, row.calls, row.tokens.input, row.first, row.last])).toEqual([
    [{ day: '2026-12-01' }, 1, 200, '2026-12-01T12:00:00.000Z', '2026-12-01T12:00:00.000Z'],
    [{ day: '2026-12-02' }, 1, 100, '2026-12-01T23:30:01.000Z', '2026-12-01T23:30:01.000Z'],
    [{ day: '2026-12-31' }, 1, 400, '2026-12-31T12:00:00.000Z', '2026-12-31T12:00:00.000Z'],
  ]);
});

test('a cost is reported, unknown when a call has none or reports 0 for tokens spent, never a silent $0', async () => {
  const records = [
    started,
    modelCall('a', '2026-12-01T10:00:00.000Z', 100, { cost: 0.5, model: 'm1' }),
    modelCall('b', '2026-12-01T10:00:01.000Z', 100, { cost: 0, model: 'm2' }),
    modelCall('c', '2026-12-01T10:00:02.000Z', 100, { model: 'm3' }),
  ];
  const report = await accountUsage(records, { by: ['model'] });
  expect(report.rows.map((row) => [row.group.model, row.cost])).toEqual([
    ['m1', { usd: 0.5, source: 'reported' }],
    ['m2', { source: 'unknown' }],
    ['m3', { source: 'unknown' }],
  ]);
  expect(report.total.cost).toEqual({ usd: 0.5, source: 'unknown', unpriced: 2 });
});

test('a usage event counts where no model call stands for it: plain events, a run without tokened calls', async () => {
  const plain = await accountUsage([usageEvent(5, { cost: 0.1 }), usageEvent(7)], { harness: 'opencode' });
  expect([plain.total.calls, plain.total.tokens.input, plain.total.cost]).toEqual([
    2,
    12,
    { usd: 0.1, source: 'unknown', unpriced: 1 },
  ]);
  const event = (seq: number, extra: object = {}): TraceRecord =>
    ({ kind: 'event', seq, event: usageEvent(50), ...extra }) as TraceRecord;
  // Codex: the rollout's per-call records stand for its running-total shares, before or after them.
  const traced = await accountUsage([started, event(1), modelCall('r1', '2026-12-01T10:00:00.000Z', 30), event(2)]);
  expect([traced.total.calls, traced.total.tokens.input]).toEqual([1, 30]);
  // A usage event naming its model call is that call's; without model calls, the shares are the calls.
  const named = await accountUsage([started, event(1, { model_call_id: 'x' }), event(2), event(3)]);
  expect([named.total.calls, named.total.tokens.input]).toEqual([2, 100]);
});

test("subagents and skills: a call is its agent's, and a skill's from its use to the agent's next text", async () => {
  const at = '2026-12-01T10:00:00.000Z';
  const ev = (seq: number, event: object, agent_id?: string): TraceRecord =>
    ({ kind: 'event', seq, event: { timestamp: at, ...event }, ...(agent_id ? { agent_id } : {}) }) as TraceRecord;
  const records: TraceRecord[] = [
    started,
    { kind: 'agent_started', agent_id: 'sub1', name: 'explore', at, at_source: 'harness' },
    ev(1, { type: 'skill', path: '/s/pdf/SKILL.md', skill_name: 'pdf' }),
    modelCall('1', at, 1),
    modelCall('2', at, 2, { agent_id: 'sub1' }),
    ev(2, { type: 'agent', message: 'done with the pdf' }),
    modelCall('3', at, 4),
  ];
  const report = await accountUsage(records, { by: ['subagent', 'skill'] });
  expect(report.rows.map((row) => [row.group, row.tokens.input])).toEqual([
    [{ subagent: '(main)', skill: '(none)' }, 4],
    [{ subagent: '(main)', skill: 'pdf' }, 1],
    [{ subagent: 'explore', skill: '(none)' }, 2],
  ]);
});
