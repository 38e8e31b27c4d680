/** The trace folded into calls and agents, on saved real traces and on the records that test each rule alone. */
import { describe, expect, test } from 'vitest';
import type { TraceRecord } from '../../lib/kernel/trace.js';
import { durationOf, TraceTree } from '../../lib/interfaces/trace-tree.js';
import { savedTrace } from './saved-trace.js';

function fold(records: TraceRecord[], max?: number): TraceTree {
  const tree = new TraceTree({ max });
  for (const record of records) tree.add(record);
  return tree;
}

const harness = (at: string) => ({ at: `2026-11-30T02:06:${at}Z`, source: 'harness' });
const observed = (at: string) => ({ at: `2026-12-05T12:32:${at}Z`, source: 'observed' });

describe('TraceTree on real traces', () => {
  test(
    "Claude Code's subagent capture: the Agent call and its subagent under the root, the subagent's Read under it, " +
      'durations where both ends are the harness times',
    () => {
      const tree = fold(savedTrace('claude-code-subagent'));
      expect(tree.harness).toBe('claude-code');
      expect(tree.events).toBe(5);
      expect(tree.root).toEqual({
        agent_id: undefined,
        parent_id: undefined,
        name: undefined,
        call_id: undefined,
        background: false,
        depth: 0,
        started: observed('42.727'),
        ended: observed('42.742'),
        status: 'completed',
        duration: { ms: 15, source: 'observed' },
        calls: ['toolu_01Agent0000001'],
        children: ['toolu_01Agent0000001'],
      });
      expect(tree.agent('toolu_01Agent0000001')).toEqual({
        agent_id: 'toolu_01Agent0000001',
        parent_id: undefined,
        name: 'general-purpose',
        call_id: 'toolu_01Agent0000001',
        background: false,
        depth: 1,
        // Seen when its orchestration event went out; its end is the harness's: two clocks, no duration.
        started: observed('42.728'),
        ended: harness('52.491'),
        status: 'completed',
        duration: undefined,
        calls: ['toolu_01SubRead00001'],
        children: [],
      });
      expect(tree.calls.get('toolu_01Agent0000001')).toEqual({
        call_id: 'toolu_01Agent0000001',
        tool: 'Agent',
        agent_id: undefined,
        started: harness('52.267'),
        late: false,
        ended: harness('52.496'),
        status: 'completed',
        duration: { ms: 229, source: 'harness' },
        first_event: undefined,
      });
      expect(tree.calls.get('toolu_01SubRead00001')).toEqual({
        call_id: 'toolu_01SubRead00001',
        tool: 'Read',
        agent_id: 'toolu_01Agent0000001',
        started: harness('52.346'),
        late: false,
        ended: harness('52.388'),
        status: 'completed',
        duration: { ms: 42, source: 'harness' },
        first_event: 2,
      });
      expect(tree.depth('toolu_01Agent0000001')).toBe(1);
      expect(tree.depth(undefined)).toBe(0);
    },
  );

  test(
    "OpenCode's task capture: a call announced only at its end, with the harness's start (late), has its duration; " +
      'the child session is a subagent of the root named by its call',
    () => {
      const tree = fold(savedTrace('opencode-task-subagent'));
      const child = 'ses_dd5c692a3ffe6oj7YNnaY437mI';
      expect(tree.root.calls).toEqual(['call_0066']);
      expect(tree.root.children).toEqual([child]);
      expect(tree.calls.get('call_0066')).toEqual({
        call_id: 'call_0066',
        tool: 'task',
        agent_id: undefined,
        started: { at: '2026-11-30T02:12:16.356Z', source: 'harness' },
        late: true,
        ended: { at: '2026-11-30T02:12:17.764Z', source: 'harness' },
        status: 'completed',
        duration: { ms: 1408, source: 'harness' },
        first_event: 1,
      });
      expect(tree.agent(child)).toMatchObject({
        parent_id: undefined,
        name: 'explore',
        call_id: 'call_0066',
        depth: 1,
        status: 'completed',
        duration: { ms: 1408, source: 'harness' },
        calls: [],
      });
    },
  );
});

describe('durations', () => {
  const start = { at: '2026-11-30T02:00:00.000Z', source: 'observed' } as const;
  const end = { at: '2026-11-30T02:00:01.500Z', source: 'observed' } as const;

  test('both ends on one clock: end minus start, with that clock', () => {
    expect(durationOf(start, false, end)).toEqual({ ms: 1500, source: 'observed' });
    expect(durationOf({ ...start, source: 'harness' }, true, { ...end, source: 'harness' })).toEqual({
      ms: 1500,
      source: 'harness',
    });
  });

  test('never invented: a late observed start, two clocks, a missing end or start, an end before its start', () => {
    expect(durationOf(start, true, end)).toBeUndefined();
    expect(durationOf({ ...start, source: 'harness' }, false, end)).toBeUndefined();
    expect(durationOf(start, false, undefined)).toBeUndefined();
    expect(durationOf(undefined, false, end)).toBeUndefined();
    expect(durationOf(end, false, start)).toBeUndefined();
  });
});

describe('TraceTree rules', () => {
  const at = (second: number) => ({ at: `2026-11-30T03:00:0${second}.000Z`, at_source: 'harness' as const });

  test('a subagent of a subagent is two deep; a parent the trace never started puts it under the root', () => {
    const tree = fold([
      { kind: 'agent_started', agent_id: 'a', ...at(0) },
      { kind: 'agent_started', agent_id: 'b', parent_id: 'a', ...at(1) },
      { kind: 'agent_started', agent_id: 'c', parent_id: 'gone', ...at(2) },
      { kind: 'call_started', call_id: 'x', tool: 'Read', agent_id: 'b', ...at(3) },
    ]);
    expect([tree.depth('a'), tree.depth('b'), tree.depth('c'), tree.depth('never')]).toEqual([1, 2, 1, 1]);
    expect(tree.root.children).toEqual(['a', 'c']);
    expect(tree.agent('a')!.children).toEqual(['b']);
    expect(tree.agent('b')!.calls).toEqual(['x']);
  });

  test('an end whose start the trace lacks is a call of tool "?" with no start and no duration', () => {
    const tree = fold([{ kind: 'call_ended', call_id: 'x', status: 'unresolved', agent_id: 'a', ...at(1) }]);
    expect(tree.calls.get('x')).toMatchObject({ tool: '?', agent_id: 'a', started: undefined, duration: undefined });
    expect(tree.calls.get('x')!.status).toBe('unresolved');
    expect(tree.root.calls).toEqual(['x']);
  });

  test('a run that failed ends its root agent failed; an agent ended twice keeps its first start', () => {
    const tree = fold([
      { kind: 'run_started', v: 1, harness: 'codex', ...at(0) },
      { kind: 'agent_started', agent_id: 'a', name: 'one', ...at(1) },
      { kind: 'agent_started', agent_id: 'a', name: 'two', ...at(2) },
      { kind: 'agent_ended', agent_id: 'a', status: 'failed', ...at(3) },
      { kind: 'run_ended', failure: 'exit_code', ...at(4) },
    ]);
    expect(tree.agent('a')).toMatchObject({ name: 'one', status: 'failed', duration: { ms: 2000 } });
    expect(tree.root).toMatchObject({ status: 'failed', duration: { ms: 4000, source: 'harness' } });
  });

  test('bounded (the live view): the oldest call is forgotten past the bound, and no lists are kept', () => {
    const tree = fold(
      ['x', 'y', 'z'].map((call_id, second) => ({ kind: 'call_started', call_id, tool: 'Read', ...at(second) })),
      2,
    );
    expect([tree.calls.has('x'), tree.calls.has('y'), tree.calls.has('z')]).toEqual([false, true, true]);
    expect(tree.root.calls).toEqual([]);
  });
});
