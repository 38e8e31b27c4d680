/**
 * Copilot CLI's trace (docs/harnesses/copilot.md "Trace"), checked by hand against the captures' lines: call ids and
 * times from `tool.execution_start` / `tool.execution_complete`, the subagent from `subagent.started` and the
 * `agentId` / `parentToolCallId` its records carry, model calls from `model.call_start` / `model.call_finished`; in a
 * session file, model calls from `session.usage_record` (tokens, `apiCallId`, `duration`).
 */
import { describe, expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

const task = 'call_0002';
const model = 'fake-model';

describe('Copilot trace', () => {
  test('subagent.jsonl: the explore agent under its task call, its view carrying both ids, harness times', async () => {
    expect(await traceOf('copilot/lab/subagent.jsonl', 'copilot')).toEqual([
      { kind: 'run_started', v: 1, harness: 'copilot', at_source: 'observed' },
      // Lines 6 and 14.
      {
        kind: 'model_call',
        model,
        at: '2026-12-01T01:21:55.351Z',
        at_source: 'harness',
        started_at: '2026-12-01T01:21:55.091Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 1, type: 'agent' },
      // Line 16.
      { kind: 'call_started', call_id: task, tool: 'task', at: '2026-12-01T01:21:55.357Z', at_source: 'harness' },
      // Line 18: agentId b25eade9..., executionMode sync.
      {
        kind: 'agent_started',
        agent_id: task,
        native_id: 'b25eade9-eb57-449a-b7ec-a11f65013468',
        name: 'explore',
        background: false,
        call_id: task,
        at: '2026-12-01T01:21:55.369Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 2, type: 'orchestration' },
      // Lines 24 and 33: the subagent's, by parentToolCallId and agentId.
      {
        kind: 'model_call',
        model,
        agent_id: task,
        at: '2026-12-01T01:21:55.525Z',
        at_source: 'harness',
        started_at: '2026-12-01T01:21:55.489Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 3, agent_id: task, type: 'agent' },
      // Lines 36 and 38.
      {
        kind: 'call_started',
        call_id: 'call_0004',
        tool: 'view',
        agent_id: task,
        at: '2026-12-01T01:21:55.529Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0004',
        status: 'completed',
        agent_id: task,
        at: '2026-12-01T01:21:55.531Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 4, call_id: 'call_0004', agent_id: task, type: 'read' },
      // Lines 42 and 47.
      {
        kind: 'model_call',
        model,
        agent_id: task,
        at: '2026-12-01T01:21:55.553Z',
        at_source: 'harness',
        started_at: '2026-12-01T01:21:55.538Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 5, agent_id: task, type: 'agent' },
      // Line 52: subagent.completed is the parent's record, though it carries the subagent's agentId.
      {
        kind: 'agent_ended',
        agent_id: task,
        status: 'completed',
        at: '2026-12-01T01:21:55.558Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 6, type: 'orchestration' },
      // Line 53.
      { kind: 'call_ended', call_id: task, status: 'completed', at: '2026-12-01T01:21:55.559Z', at_source: 'harness' },
      // Lines 60 and 65.
      {
        kind: 'model_call',
        model,
        at: '2026-12-01T01:21:55.618Z',
        at_source: 'harness',
        started_at: '2026-12-01T01:21:55.586Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 7, type: 'agent' },
      { kind: 'run_ended', at_source: 'observed' },
    ]);
  });

  test('session file: a model call per usage record, joined by its usage event, `duration` ms long', async () => {
    const session = '.copilot/session-state/77f29039-c9fe-4aae-8bc4-0fc488cb7321/events.jsonl';
    const tokens = (input: number, output: number) => ({ input, output, cache_read: 0, cache_write: 0, reasoning: 0 });
    const usage = (line: string) => ({ at: line, at_source: 'harness', started_at_source: 'harness' });
    expect(await sessionTraceOf('copilot', 'subagent', session)).toEqual([
      // Line 1, session.start.
      { kind: 'run_started', v: 1, harness: 'copilot', at: '2026-12-01T20:03:39.053Z', at_source: 'harness' },
      // Line 5: duration 41.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0001',
        model,
        tokens: tokens(1500, 40),
        cost: 0,
        ...usage('2026-12-01T20:03:39.642Z'),
        started_at: '2026-12-01T20:03:39.601Z',
      },
      { kind: 'event', seq: 1, model_call_id: 'chatcmpl_0001', type: 'usage' },
      { kind: 'event', seq: 2, type: 'agent' },
      { kind: 'call_started', call_id: task, tool: 'task', at: '2026-12-01T20:03:39.655Z', at_source: 'harness' },
      {
        kind: 'agent_started',
        agent_id: task,
        native_id: 'caf4cb4b-248c-46b6-90d6-3aee823ecda3',
        name: 'explore',
        background: false,
        call_id: task,
        at: '2026-12-01T20:03:39.657Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 3, type: 'orchestration' },
      // Line 15: the subagent's (its parentToolCallId), duration 5.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0003',
        model,
        tokens: tokens(900, 15),
        cost: 0,
        agent_id: task,
        ...usage('2026-12-01T20:03:39.722Z'),
        started_at: '2026-12-01T20:03:39.717Z',
      },
      { kind: 'event', seq: 4, model_call_id: 'chatcmpl_0003', agent_id: task, type: 'usage' },
      { kind: 'event', seq: 5, agent_id: task, type: 'agent' },
      {
        kind: 'call_started',
        call_id: 'call_0004',
        tool: 'view',
        agent_id: task,
        at: '2026-12-01T20:03:39.727Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0004',
        status: 'completed',
        agent_id: task,
        at: '2026-12-01T20:03:39.730Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 6, call_id: 'call_0004', agent_id: task, type: 'read' },
      // Line 21, duration 7.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0005',
        model,
        tokens: tokens(1000, 15),
        cost: 0,
        agent_id: task,
        ...usage('2026-12-01T20:03:39.742Z'),
        started_at: '2026-12-01T20:03:39.735Z',
      },
      { kind: 'event', seq: 7, model_call_id: 'chatcmpl_0005', agent_id: task, type: 'usage' },
      { kind: 'event', seq: 8, agent_id: task, type: 'agent' },
      // The file writes the task call's completion (line 24) before subagent.completed (line 25).
      { kind: 'call_ended', call_id: task, status: 'completed', at: '2026-12-01T20:03:39.750Z', at_source: 'harness' },
      {
        kind: 'agent_ended',
        agent_id: task,
        status: 'completed',
        at: '2026-12-01T20:03:39.751Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 9, type: 'orchestration' },
      // Line 28, duration 5.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0006',
        model,
        tokens: tokens(1800, 20),
        cost: 0,
        ...usage('2026-12-01T20:03:39.770Z'),
        started_at: '2026-12-01T20:03:39.765Z',
      },
      { kind: 'event', seq: 10, model_call_id: 'chatcmpl_0006', type: 'usage' },
      { kind: 'event', seq: 11, type: 'agent' },
      { kind: 'run_ended', at_source: 'observed' },
    ]);
  });
});
