/**
 * Qwen Code's trace (docs/harnesses/qwen.md "Trace"), checked by hand against the captures' lines: call ids from the
 * `tool_use` blocks, the subagent from the `parent_tool_use_id` of its lines (a foreground agent has no start record:
 * its first line starts it), a model call per response whose last record carries its usage; stdout has no times. In
 * a session file: the records' times, the subagent's file merged in by its `agentId`, a model call per `ui_telemetry`
 * `api_response` (its id, tokens, time and `duration_ms`), whose usage event carries its id.
 */
import { describe, expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

describe('Qwen Code trace', () => {
  test('subagent.jsonl: the agent under its call, its read_file carrying both ids, usage per response', async () => {
    expect(await traceOf('qwen/lab/subagent.jsonl', 'qwen')).toEqual([
      { kind: 'run_started', v: 1, harness: 'qwen', at_source: 'observed' },
      // Line 3: the agent call, the main response's only record, with its usage (5500 in, 50 out).
      { kind: 'call_started', call_id: 'call_0020', tool: 'agent', at_source: 'observed' },
      {
        kind: 'model_call',
        model_call_id: '98cf2dc5-589a-4c89-a505-a76b897817c2',
        model: 'fake-model',
        tokens: { input: 5500, output: 50, cache_read: 0 },
        at_source: 'observed',
      },
      // Line 4, the subagent's first line (its prompt, parent_tool_use_id call_0020), starts it.
      {
        kind: 'agent_started',
        agent_id: 'call_0020',
        call_id: 'call_0020',
        name: 'general-purpose',
        at_source: 'observed',
      },
      // Lines 5-6: the subagent's response has zero usage: no model call.
      { kind: 'call_started', call_id: 'call_0022', tool: 'read_file', agent_id: 'call_0020', at_source: 'observed' },
      { kind: 'call_ended', call_id: 'call_0022', status: 'completed', agent_id: 'call_0020', at_source: 'observed' },
      { kind: 'event', seq: 1, call_id: 'call_0022', agent_id: 'call_0020', type: 'read' },
      // Line 7: the agent call's result is the orchestration event, which ends the agent.
      { kind: 'call_ended', call_id: 'call_0020', status: 'completed', at_source: 'observed' },
      { kind: 'agent_ended', agent_id: 'call_0020', status: 'completed', at_source: 'observed' },
      { kind: 'event', seq: 2, call_id: 'call_0020', type: 'orchestration' },
      { kind: 'event', seq: 3, type: 'agent' },
      {
        kind: 'model_call',
        model_call_id: '66661405-51d9-43a4-ac07-871066115cf5',
        model: 'fake-model',
        tokens: { input: 400, output: 16, cache_read: 5500 },
        at_source: 'observed',
      },
      { kind: 'run_ended', at_source: 'observed' },
    ]);
  });

  test('session file: the subagent file merged in under its agent call, model calls from api_response', async () => {
    const session = '.qwen/projects/-home-user-project/chats/656185e6-df23-47ed-a20d-f657fbc01f3b.jsonl';
    expect(await sessionTraceOf('qwen', 'subagent', session)).toEqual([
      // Main file line 1.
      { kind: 'run_started', v: 1, harness: 'qwen', at: '2026-12-01T20:01:41.094Z', at_source: 'harness' },
      // Main file line 3: api_response at 42.427, duration_ms 1094.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0001',
        model: 'fake-model',
        tokens: { input: 5500, output: 50, cache_read: 0, reasoning: 0 },
        at: '2026-12-01T20:01:42.427Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:01:41.333Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 1, model_call_id: 'chatcmpl_0001', type: 'usage' },
      // Main line 4.
      {
        kind: 'call_started',
        call_id: 'call_0002',
        tool: 'agent',
        at: '2026-12-01T20:01:42.431Z',
        at_source: 'harness',
      },
      // The subagent file's line 1 (agentId general-purpose-call_0002).
      {
        kind: 'agent_started',
        agent_id: 'call_0002',
        call_id: 'call_0002',
        name: 'general-purpose',
        at: '2026-12-01T20:01:42.569Z',
        at_source: 'harness',
      },
      // Main line 5: the subagent's request (subagent_id), duration_ms 1283.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0003',
        model: 'fake-model',
        tokens: { input: 3000, output: 25, cache_read: 0, reasoning: 0 },
        agent_id: 'call_0002',
        at: '2026-12-01T20:01:43.990Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:01:42.707Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 2, model_call_id: 'chatcmpl_0003', agent_id: 'call_0002', type: 'usage' },
      { kind: 'event', seq: 3, agent_id: 'call_0002', type: 'agent' },
      // Subagent lines 3-4.
      {
        kind: 'call_started',
        call_id: 'call_0004',
        tool: 'read_file',
        agent_id: 'call_0002',
        at: '2026-12-01T20:01:44.214Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0004',
        status: 'completed',
        agent_id: 'call_0002',
        at: '2026-12-01T20:01:44.266Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 4, call_id: 'call_0004', agent_id: 'call_0002', type: 'read' },
      // Main line 7, duration_ms 34.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0005',
        model: 'fake-model',
        tokens: { input: 3200, output: 15, cache_read: 0, reasoning: 0 },
        agent_id: 'call_0002',
        at: '2026-12-01T20:01:44.309Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:01:44.275Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 5, model_call_id: 'chatcmpl_0005', agent_id: 'call_0002', type: 'usage' },
      { kind: 'event', seq: 6, agent_id: 'call_0002', type: 'agent' },
      // Main line 9: the agent call's result.
      {
        kind: 'agent_ended',
        agent_id: 'call_0002',
        status: 'completed',
        at: '2026-12-01T20:01:44.329Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0002',
        status: 'completed',
        at: '2026-12-01T20:01:44.329Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 7, call_id: 'call_0002', type: 'orchestration' },
      // Main line 10, duration_ms 30.
      {
        kind: 'model_call',
        model_call_id: 'chatcmpl_0006',
        model: 'fake-model',
        tokens: { input: 400, output: 16, cache_read: 5500, reasoning: 0 },
        at: '2026-12-01T20:01:44.367Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:01:44.337Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 8, model_call_id: 'chatcmpl_0006', type: 'usage' },
      { kind: 'event', seq: 9, type: 'agent' },
      { kind: 'run_ended', at_source: 'observed' },
    ]);
  });
});
