/**
 * Claude Code's trace (docs/harnesses/claude-code.md "Trace"), checked by hand against the captures' lines: call ids
 * and times from the `tool_use` and `tool_result` lines, the subagent tree from `parent_tool_use_id` and the task
 * records, one model call per `message.id`; in a session file, the subagent's own file merged in under the Agent call
 * whose prompt it starts with, and each model call's request from its `api-request` record.
 */
import { describe, expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

const agent = 'toolu_01Agent0000001';

/** The subagent runs' own total (both captures' `result`): 4 calls, the subagent's 2 included. */
const ownTokens = { input: 480, output: 100, cache_read: 0, cache_write: 0, reasoning: 0 };

describe('Claude Code trace', () => {
  test('subagent.jsonl: the subagent under its Agent call, its read carrying both ids, harness times', async () => {
    expect(await traceOf('claude-code/lab/subagent.jsonl', 'claude-code')).toEqual([
      { kind: 'run_started', v: 1, harness: 'claude-code', at_source: 'observed' },
      { kind: 'event', seq: 1, type: 'agent' },
      // Line 3: the Agent tool_use, at its line's timestamp.
      { kind: 'call_started', call_id: agent, tool: 'Agent', at: '2026-11-30T02:06:52.267Z', at_source: 'harness' },
      // Line 4: task_started (no timestamp): the task id is the agent's own.
      {
        kind: 'agent_started',
        agent_id: agent,
        native_id: 'a95e18abcd2d970dc',
        name: 'general-purpose',
        background: false,
        call_id: agent,
        at_source: 'observed',
      },
      { kind: 'event', seq: 2, type: 'orchestration' },
      // Line 5, the subagent's first line, ends the main agent's first message (lines 2-3).
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_0',
        model: 'claude-opus-5-5',
        at: '2026-11-30T02:06:52.267Z',
        at_source: 'harness',
      },
      // Lines 7-8: the subagent's Read, by parent_tool_use_id.
      {
        kind: 'call_started',
        call_id: 'toolu_01SubRead00001',
        tool: 'Read',
        agent_id: agent,
        at: '2026-11-30T02:06:52.346Z',
        at_source: 'harness',
      },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_sub_0',
        model: 'claude-opus-5-5',
        agent_id: agent,
        at: '2026-11-30T02:06:52.346Z',
        at_source: 'harness',
      },
      // Line 8's tool_result_meta: the Read allowed by the mode, under the subagent (its call's agent).
      {
        kind: 'permission_resolved',
        call_id: 'toolu_01SubRead00001',
        outcome: 'allowed',
        by: 'mode',
        agent_id: agent,
        at_source: 'observed',
      },
      {
        kind: 'call_ended',
        call_id: 'toolu_01SubRead00001',
        status: 'completed',
        agent_id: agent,
        at: '2026-11-30T02:06:52.388Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 3, call_id: 'toolu_01SubRead00001', agent_id: agent, type: 'read' },
      // Line 9: task_updated's end_time (epoch ms 1796004412491); line 10's task_notification has no time.
      {
        kind: 'agent_ended',
        agent_id: agent,
        status: 'completed',
        at: '2026-11-30T02:06:52.491Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 4, type: 'orchestration' },
      { kind: 'permission_resolved', call_id: agent, outcome: 'allowed', by: 'mode', at_source: 'observed' },
      // Line 11: the Agent call's result, consumed (no event), still ends the call.
      { kind: 'call_ended', call_id: agent, status: 'completed', at: '2026-11-30T02:06:52.496Z', at_source: 'harness' },
      { kind: 'event', seq: 5, type: 'agent' },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_1',
        model: 'claude-opus-5-5',
        at: '2026-11-30T02:06:52.523Z',
        at_source: 'harness',
      },
      // The result's model_usage_since_last_result: the run's own, the subagent's calls included.
      { kind: 'run_ended', at_source: 'observed', tokens: ownTokens, models: { 'claude-opus-5-5': ownTokens } },
    ]);
  });

  test('partial.jsonl: model calls from message_start (observed) to message_stop, with both usages', async () => {
    const calls = (await traceOf('claude-code/lab/partial.jsonl', 'claude-code')).filter(
      (record) => record.kind === 'model_call',
    );
    const tokens = { input: 120, output: 25, cache_read: 0, cache_write: 0 };
    const model = 'claude-opus-5-5';
    expect(calls).toEqual([
      // Lines 3-15, 18-30, 33-40, 43-50; `at` the message's last assistant line (7/12, 22/27, 37, 47); started when
      // its message_start (3, 18, 33, 43) was read, which has no time of its own.
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_0',
        model,
        tokens,
        at: '2026-11-30T02:07:11.513Z',
        at_source: 'harness',
        started_at_source: 'observed',
      },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_1',
        model,
        tokens,
        at: '2026-11-30T02:07:11.583Z',
        at_source: 'harness',
        started_at_source: 'observed',
      },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_2',
        model,
        tokens,
        at: '2026-11-30T02:07:11.618Z',
        at_source: 'harness',
        started_at_source: 'observed',
      },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_3',
        model,
        tokens,
        at: '2026-11-30T02:07:11.649Z',
        at_source: 'harness',
        started_at_source: 'observed',
      },
    ]);
  });

  test('session file: the subagent file under its Agent call, model calls from their api-request', async () => {
    const session = '.claude/projects/-home-user-project/42a3ead3-e740-40f9-af59-f65838abac3a.jsonl';
    const tokens = { input: 120, output: 25, cache_read: 0, cache_write: 0, reasoning: 0 };
    const model = 'claude-opus-5-5';
    expect(await sessionTraceOf('claude-code', 'subagent', session)).toEqual([
      // Main file line 1 (queue-operation): the session's first time.
      { kind: 'run_started', v: 1, harness: 'claude-code', at: '2026-12-01T19:58:40.892Z', at_source: 'harness' },
      { kind: 'event', seq: 1, type: 'agent' },
      // Main file line 23.
      { kind: 'call_started', call_id: agent, tool: 'Agent', at: '2026-12-01T19:58:41.220Z', at_source: 'harness' },
      // Lines 22-23, requestRef the api-request of line 20.
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_0',
        model,
        tokens,
        at: '2026-12-01T19:58:41.220Z',
        at_source: 'harness',
        started_at: '2026-12-01T19:58:41.205Z',
        started_at_source: 'harness',
      },
      // The subagent file's line 1: the Agent call's prompt, agentId aa42baeaa5d08c432.
      {
        kind: 'agent_started',
        agent_id: agent,
        native_id: 'aa42baeaa5d08c432',
        call_id: agent,
        name: 'general-purpose',
        background: false,
        at: '2026-12-01T19:58:41.261Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 2, agent_id: agent, type: 'agent' },
      // Subagent lines 15-16, its request at line 13.
      {
        kind: 'call_started',
        call_id: 'toolu_01SubRead00001',
        tool: 'Read',
        agent_id: agent,
        at: '2026-12-01T19:58:41.368Z',
        at_source: 'harness',
      },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_sub_0',
        model,
        tokens,
        agent_id: agent,
        at: '2026-12-01T19:58:41.368Z',
        at_source: 'harness',
        started_at: '2026-12-01T19:58:41.364Z',
        started_at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'toolu_01SubRead00001',
        status: 'completed',
        agent_id: agent,
        at: '2026-12-01T19:58:41.550Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 3, call_id: 'toolu_01SubRead00001', agent_id: agent, type: 'read' },
      { kind: 'event', seq: 4, agent_id: agent, type: 'agent' },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_sub_1',
        model,
        tokens,
        agent_id: agent,
        at: '2026-12-01T19:58:41.738Z',
        at_source: 'harness',
        started_at: '2026-12-01T19:58:41.718Z',
        started_at_source: 'harness',
      },
      // Main line 27: the Agent call's result (toolUseResult status completed, agentId) ends both.
      {
        kind: 'agent_ended',
        agent_id: agent,
        status: 'completed',
        at: '2026-12-01T19:58:41.982Z',
        at_source: 'harness',
      },
      { kind: 'call_ended', call_id: agent, status: 'completed', at: '2026-12-01T19:58:41.982Z', at_source: 'harness' },
      { kind: 'event', seq: 5, call_id: agent, type: 'unknown' },
      { kind: 'event', seq: 6, type: 'agent' },
      {
        kind: 'model_call',
        model_call_id: 'msg_fake_main_1',
        model,
        tokens,
        at: '2026-12-01T19:58:42.077Z',
        at_source: 'harness',
        started_at: '2026-12-01T19:58:42.066Z',
        started_at_source: 'harness',
      },
      // A session file has no run total: each call is in it.
      { kind: 'run_ended', at_source: 'observed' },
    ]);
  });
});
