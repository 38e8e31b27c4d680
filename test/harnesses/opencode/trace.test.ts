/**
 * OpenCode's trace (docs/harnesses/opencode.md "Trace"), checked by hand against the captures: each tool part's
 * `callID` and `state.time.start/end` (a late call_started, as the part is printed once finished), each step a model
 * call from its `step_start` record's time to its `step_finish`'s, with that step's tokens, and the task's child
 * session an agent over the task call's times.
 */
import { expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

test('stdout: a task call, its child session as an agent, two steps as model calls', async () => {
  expect(await traceOf('opencode/lab/task-subagent.jsonl', 'opencode')).toEqual([
    { kind: 'run_started', v: 1, harness: 'opencode', at_source: 'observed' },
    { kind: 'event', seq: 1, type: 'agent' },
    {
      kind: 'call_started',
      call_id: 'call_0066',
      tool: 'task',
      at: '2026-11-30T02:12:16.356Z',
      at_source: 'harness',
      late: true,
    },
    {
      kind: 'call_ended',
      call_id: 'call_0066',
      status: 'completed',
      at: '2026-11-30T02:12:17.764Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 2, call_id: 'call_0066', type: 'orchestration' },
    {
      kind: 'agent_started',
      agent_id: 'ses_dd5c692a3ffe6oj7YNnaY437mI',
      call_id: 'call_0066',
      name: 'explore',
      at: '2026-11-30T02:12:16.356Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_ended',
      agent_id: 'ses_dd5c692a3ffe6oj7YNnaY437mI',
      status: 'completed',
      at: '2026-11-30T02:12:17.764Z',
      at_source: 'harness',
    },
    {
      kind: 'model_call',
      model_call_id: 'msg_22a3965d70012S5uz3GoRRPcm6',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: 0,
      at: '2026-11-30T02:12:17.885Z',
      at_source: 'harness',
      started_at: '2026-11-30T02:12:16.404Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 3, model_call_id: 'msg_22a3965d70012S5uz3GoRRPcm6', type: 'usage' },
    { kind: 'event', seq: 4, type: 'agent' },
    {
      kind: 'model_call',
      model_call_id: 'msg_22a397388001oXlUuvLf4aQyLU',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: 0,
      at: '2026-11-30T02:12:18.286Z',
      at_source: 'harness',
      started_at: '2026-11-30T02:12:18.135Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 5, model_call_id: 'msg_22a397388001oXlUuvLf4aQyLU', type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test('the session store: the same records, at the times its rows were written', async () => {
  const db = '.local/share/opencode/opencode.db#ses_dccccab6fffecnXKv2BbKtq0GU';
  expect(await sessionTraceOf('opencode', 'task-subagent', db)).toEqual([
    { kind: 'run_started', v: 1, harness: 'opencode', at: '2026-12-01T20:02:11.728Z', at_source: 'harness' },
    { kind: 'event', seq: 1, type: 'agent' },
    {
      kind: 'call_started',
      call_id: 'call_0029',
      tool: 'task',
      at: '2026-12-01T20:02:21.009Z',
      at_source: 'harness',
      late: true,
    },
    {
      kind: 'call_ended',
      call_id: 'call_0029',
      status: 'completed',
      at: '2026-12-01T20:02:22.610Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 2, call_id: 'call_0029', type: 'orchestration' },
    {
      kind: 'agent_started',
      agent_id: 'ses_dcccc8744ffeaHp9xYJcdD5mFn',
      call_id: 'call_0029',
      name: 'explore',
      at: '2026-12-01T20:02:21.009Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_ended',
      agent_id: 'ses_dcccc8744ffeaHp9xYJcdD5mFn',
      status: 'completed',
      at: '2026-12-01T20:02:22.610Z',
      at_source: 'harness',
    },
    {
      kind: 'model_call',
      model_call_id: 'msg_2333368290014FOtRRvE1bCOGK',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: 0,
      at: '2026-12-01T20:02:22.736Z',
      at_source: 'harness',
      started_at: '2026-12-01T20:02:20.925Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 3, model_call_id: 'msg_2333368290014FOtRRvE1bCOGK', type: 'usage' },
    { kind: 'event', seq: 4, type: 'agent' },
    {
      kind: 'model_call',
      model_call_id: 'msg_23333800d001iwJ8qVTMK32DzK',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: 0,
      at: '2026-12-01T20:02:23.206Z',
      at_source: 'harness',
      started_at: '2026-12-01T20:02:23.041Z',
      started_at_source: 'harness',
    },
    { kind: 'event', seq: 5, model_call_id: 'msg_23333800d001iwJ8qVTMK32DzK', type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
