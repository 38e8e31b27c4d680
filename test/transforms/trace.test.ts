/**
 * The trace writer's own rules (lib/transforms/trace.ts, docs/contract.md "Trace stream"), with no harness: what
 * every harness's trace gets before its correlator says anything.
 */
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../lib/kernel/events.js';
import { harnessTime, type TraceRecord } from '../../lib/kernel/trace.js';
import { TraceWriter } from '../../lib/transforms/trace.js';

const T = '2026-11-30T02:06:52.267Z';
const event = (fields: Partial<HarnessEvent> & Pick<HarnessEvent, 'type'>) =>
  ({ timestamp: T, session_id: 's', ...fields }) as HarnessEvent;
const read = event({ type: 'read', path: '/ws/a', is_success: true } as HarnessEvent);

/** A writer and what it wrote, with observed times replaced by `OBS` (they are the clock's). */
function writer(limits = { maxPendingTools: 100, maxPendingBytes: 1 << 20 }) {
  const records: TraceRecord[] = [];
  let flushed = 0;
  const trace = new TraceWriter(
    (record) => records.push(record),
    () => 'claude-code',
    limits,
    () => flushed++,
  );
  const seen = () =>
    records.map((record) => {
      const copy = { ...record } as Record<string, unknown>;
      if (copy.at_source === 'observed') copy.at = 'OBS';
      if (copy.started_at_source === 'observed') copy.started_at = 'OBS';
      return copy;
    });
  return { trace, seen, records, flushes: () => flushed };
}

describe('calls', () => {
  test('a call announced, then ended: its events carry its id, after call_ended', () => {
    const { trace, seen } = writer();
    trace.callStarted({ call_id: 'c1', tool: 'Read', at: T });
    trace.withIds(trace.callEnded('c1', 'Read', true, undefined, '2026-11-30T02:06:53.000Z'));
    trace.event(read);
    trace.withIds(undefined);
    trace.end(undefined);
    expect(seen()).toEqual([
      { kind: 'run_started', v: 1, harness: 'claude-code', at: 'OBS', at_source: 'observed' },
      { kind: 'call_started', call_id: 'c1', tool: 'Read', at: T, at_source: 'harness' },
      { kind: 'call_ended', call_id: 'c1', status: 'completed', at: '2026-11-30T02:06:53.000Z', at_source: 'harness' },
      { kind: 'event', seq: 1, event: read, call_id: 'c1' },
      { kind: 'run_ended', at: 'OBS', at_source: 'observed' },
    ]);
  });

  test('a call never announced starts late; no outcome is unresolved; no id gets one of ours', () => {
    const { trace, seen } = writer();
    trace.callEnded(undefined, 'Bash', undefined, 1796004412267);
    trace.callEnded('c2', 'Bash', false);
    expect(seen().slice(1)).toEqual([
      { kind: 'call_started', call_id: 'he:1', tool: 'Bash', at: T, at_source: 'harness', late: true },
      { kind: 'call_ended', call_id: 'he:1', status: 'unresolved', at: 'OBS', at_source: 'observed' },
      { kind: 'call_started', call_id: 'c2', tool: 'Bash', at: 'OBS', at_source: 'observed', late: true },
      { kind: 'call_ended', call_id: 'c2', status: 'failed', at: 'OBS', at_source: 'observed' },
    ]);
  });

  test('a call announced twice starts once, in the agent it was announced in', () => {
    const { trace, seen } = writer();
    trace.agent('sub');
    trace.callStarted({ call_id: 'c1', tool: 'Read' });
    trace.agent(undefined);
    trace.callStarted({ call_id: 'c1', tool: 'Read' });
    expect(trace.callEnded('c1', 'Read', true)).toEqual({ call_id: 'c1', agent_id: 'sub' });
    expect(seen().map((r) => [r.kind, r.agent_id])).toEqual([
      ['run_started', undefined],
      ['call_started', 'sub'],
      ['call_ended', 'sub'],
    ]);
  });
});

describe('agents', () => {
  test('events carry the current agent; switching agents sends held text first, once per switch', () => {
    const { trace, seen, flushes } = writer();
    trace.agent('a1');
    trace.agent('a1');
    trace.event(read);
    trace.agent(undefined);
    trace.event(read);
    expect(flushes()).toBe(2);
    expect(seen().flatMap((r) => (r.kind === 'event' ? [r.agent_id ?? 'root'] : []))).toEqual(['a1', 'root']);
  });

  test('orchestration events start and end agents, the spawning call named when it is open', () => {
    const { trace, seen } = writer();
    trace.callStarted({ call_id: 'toolu_1', tool: 'Agent' });
    const started = event({ type: 'orchestration', action: 'subagent_started', subagent_id: 'toolu_1' });
    trace.event({ ...started, subagent_name: 'explore' } as HarnessEvent);
    trace.agentStarted({ agent_id: 'toolu_1', name: 'ignored: already started' });
    trace.event(event({ type: 'orchestration', action: 'subagent_failed', subagent_id: 'toolu_1' }));
    trace.agentEnded('toolu_1', 'completed');
    const agents = seen().filter((r) => r.kind === 'agent_started' || r.kind === 'agent_ended');
    expect(agents).toEqual([
      {
        kind: 'agent_started',
        agent_id: 'toolu_1',
        name: 'explore',
        call_id: 'toolu_1',
        at: 'OBS',
        at_source: 'observed',
      },
      { kind: 'agent_ended', agent_id: 'toolu_1', status: 'failed', at: 'OBS', at_source: 'observed' },
    ]);
  });

  test('agents still open end unresolved: at the end, and past the pending bound', () => {
    const { trace, seen } = writer({ maxPendingTools: 2, maxPendingBytes: 1 << 20 });
    trace.agentStarted({ agent_id: 'a', background: true, native_id: 'n', at: T });
    trace.agent('a');
    trace.agentStarted({ agent_id: 'b' });
    trace.agentStarted({ agent_id: 'c' });
    trace.end('other');
    expect(seen().slice(1)).toEqual([
      { kind: 'agent_started', agent_id: 'a', background: true, native_id: 'n', at: T, at_source: 'harness' },
      { kind: 'agent_started', agent_id: 'b', parent_id: 'a', at: 'OBS', at_source: 'observed' },
      { kind: 'agent_ended', agent_id: 'a', status: 'unresolved', at: 'OBS', at_source: 'observed' },
      { kind: 'agent_started', agent_id: 'c', parent_id: 'a', at: 'OBS', at_source: 'observed' },
      { kind: 'agent_ended', agent_id: 'b', status: 'unresolved', at: 'OBS', at_source: 'observed' },
      { kind: 'agent_ended', agent_id: 'c', status: 'unresolved', at: 'OBS', at_source: 'observed' },
      { kind: 'run_ended', failure: 'other', at: 'OBS', at_source: 'observed' },
    ]);
  });
});

describe('model calls and the run', () => {
  test('a model call has a start only where the harness marks one, with its time or when it was read', () => {
    const { trace, seen, records } = writer();
    trace.modelCall({ model_call_id: 'm1', model: 'x', tokens: { input: 3, output: 1 }, at: T });
    trace.modelCall({ model_call_id: 'm2', started_observed: '2026-11-30T02:06:51.000Z', agent_id: 'a', cost: 0.5 });
    trace.modelCall({ model_call_id: 'm3', started_at: 'not a time', at: T });
    trace.modelCall({ started_at: '2026-11-30T02:06:50.000Z', at: T });
    expect(seen().slice(1)).toEqual([
      {
        kind: 'model_call',
        model_call_id: 'm1',
        model: 'x',
        tokens: { input: 3, output: 1 },
        at: T,
        at_source: 'harness',
      },
      {
        kind: 'model_call',
        model_call_id: 'm2',
        cost: 0.5,
        agent_id: 'a',
        at: 'OBS',
        at_source: 'observed',
        started_at: 'OBS',
        started_at_source: 'observed',
      },
      { kind: 'model_call', model_call_id: 'm3', at: T, at_source: 'harness' },
      {
        kind: 'model_call',
        at: T,
        at_source: 'harness',
        started_at: '2026-11-30T02:06:50.000Z',
        started_at_source: 'harness',
      },
    ]);
    expect(records[2]).toMatchObject({ started_at: '2026-11-30T02:06:51.000Z' });
  });

  test("a session's first time starts the run; a spawned run ends itself, with its exit code", () => {
    const { trace, seen } = writer();
    trace.began(T);
    trace.endLater();
    const elsewhere: TraceRecord[] = [];
    trace.event(read, (record) => elsewhere.push(record));
    trace.end('other');
    trace.finish('exit_code', 3);
    expect(seen()).toEqual([
      { kind: 'run_started', v: 1, harness: 'claude-code', at: T, at_source: 'harness' },
      { kind: 'run_ended', failure: 'exit_code', exit_code: 3, at: 'OBS', at_source: 'observed' },
    ]);
    expect(elsewhere).toEqual([{ kind: 'event', seq: 1, event: read }]);
  });

  test('with no time of its own, the run started when its first event was stamped', () => {
    const { trace, records } = writer();
    trace.event({ ...read, timestamp: '2026-01-01T00:00:00.000Z' });
    expect(records[0]).toEqual({
      kind: 'run_started',
      v: 1,
      harness: 'claude-code',
      at: '2026-01-01T00:00:00.000Z',
      at_source: 'observed',
    });
  });
});

test('harness times: ISO strings, epoch milliseconds and seconds; anything else is no time', () => {
  expect(harnessTime('2026-11-30T02:06:52.267Z')).toBe(T);
  expect(harnessTime('2026-11-30T03:06:52.267+01:00')).toBe(T);
  expect(harnessTime(1796004412267)).toBe(T);
  expect(harnessTime(1796004412)).toBe('2026-11-30T02:06:52.000Z');
  for (const value of ['', 'soon', null, undefined, {}, NaN, Infinity, 1e20, '+275760-09-13T00:00:00.001Z'])
    expect(harnessTime(value), String(value)).toBeUndefined();
});
