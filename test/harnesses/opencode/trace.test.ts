/**
 * OpenCode's trace (docs/harnesses/opencode.md "Trace"), checked by hand against the captures: each tool part's
 * `callID` and `state.time.start/end` (a late call_started, as the part is printed once finished), each step a model
 * call from its `step_start` record's time to its `step_finish`'s, with that step's tokens, and the task's child
 * session an agent over the task call's times.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { traceFixture } from '../../helpers.js';
import { timeless, traceSession } from '../../trace-records.js';
import { transcripts } from '../../runtime/sessions/pairs.js';

test('stdout: a task call, its child session as an agent, two steps as model calls', async () => {
  const records = await traceFixture('opencode/lab/task-subagent.jsonl', { harness: 'opencode' });
  expect(timeless(records)).toEqual([
    { kind: 'run_started', v: 1, harness: 'opencode', at_source: 'observed' },
    { kind: 'event', seq: 1, event: { type: 'agent', message: 'Delegating the search.' } },
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
    {
      kind: 'event',
      seq: 2,
      event: {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'ses_dd5c692a3ffe6oj7YNnaY437mI',
        subagent_name: 'explore',
        is_success: true,
      },
      call_id: 'call_0066',
    },
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
    {
      kind: 'event',
      seq: 3,
      event: {
        type: 'usage',
        tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
        cost: 0,
      },
      model_call_id: 'msg_22a3965d70012S5uz3GoRRPcm6',
    },
    {
      kind: 'event',
      seq: 4,
      event: { type: 'agent', message: 'The subagent found greet defined in src/a.ts and called in src/b.ts.' },
    },
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
    {
      kind: 'event',
      seq: 5,
      event: {
        type: 'usage',
        tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
        cost: 0,
      },
      model_call_id: 'msg_22a397388001oXlUuvLf4aQyLU',
    },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test('the session store: the same records, at the times its rows were written', async () => {
  const db = join(transcripts('opencode', 'task-subagent'), 'home/.local/share/opencode/opencode.db');
  const records = await traceSession('opencode', `${db}#ses_dccccab6fffecnXKv2BbKtq0GU`);
  expect(timeless(records)).toEqual([
    { kind: 'run_started', v: 1, harness: 'opencode', at: '2026-12-01T20:02:11.728Z', at_source: 'harness' },
    { kind: 'event', seq: 1, event: { type: 'agent', message: 'Delegating the search.' } },
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
    {
      kind: 'event',
      seq: 2,
      event: {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'ses_dcccc8744ffeaHp9xYJcdD5mFn',
        subagent_name: 'explore',
        is_success: true,
      },
      call_id: 'call_0029',
    },
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
    {
      kind: 'event',
      seq: 3,
      event: {
        type: 'usage',
        tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
        cost: 0,
      },
      model_call_id: 'msg_2333368290014FOtRRvE1bCOGK',
    },
    {
      kind: 'event',
      seq: 4,
      event: { type: 'agent', message: 'The subagent found greet defined in src/a.ts and called in src/b.ts.' },
    },
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
    {
      kind: 'event',
      seq: 5,
      event: {
        type: 'usage',
        tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
        cost: 0,
      },
      model_call_id: 'msg_23333800d001iwJ8qVTMK32DzK',
    },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
