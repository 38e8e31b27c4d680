/**
 * Cline's trace (docs/harnesses/cline.md "Trace"), checked by hand against the capture's lines: every time its line's
 * `ts`; calls from `content_start` / `content_end`; the subagent from its `spawn_agent` call and the hook brackets
 * (`agent_start` with a `parentAgentId`, the `tool_call` / `tool_result` hooks naming their agent, `agent_end` and
 * the `done` after it); a model call from each `iteration_start` to its `usage` line, with that line's tokens.
 */
import { describe, expect, test } from 'vitest';
import { traceOf } from '../trace-records.js';

describe('Cline trace', () => {
  test('subagent-mcp.jsonl: the spawned agent by its hook brackets, its read with both ids, ts times', async () => {
    expect(await traceOf('cline/lab/subagent-mcp.jsonl', 'cline')).toEqual([
      { kind: 'run_started', v: 1, harness: 'cline', at_source: 'observed' },
      // Lines 2-3: iteration 1 of the root agent (line 1's agent_start has no parent) to its usage line.
      {
        kind: 'model_call',
        tokens: { input: 2200, output: 20, cache_read: 0, cache_write: 0 },
        at: '2026-12-01T20:35:56.136Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:35:55.845Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 1, type: 'usage' },
      // Lines 5 and 7.
      {
        kind: 'call_started',
        call_id: 'call_0002',
        tool: 'skills',
        at: '2026-12-01T20:35:56.233Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0002',
        status: 'completed',
        at: '2026-12-01T20:35:56.288Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 2, call_id: 'call_0002', type: 'skill' },
      {
        kind: 'model_call',
        tokens: { input: 300, output: 40, cache_read: 2200, cache_write: 0 },
        at: '2026-12-01T20:35:56.481Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:35:56.336Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 3, type: 'usage' },
      // Line 12: the spawn_agent call's content_start is the subagent's start (its orchestration event).
      {
        kind: 'call_started',
        call_id: 'call_0004',
        tool: 'spawn_agent',
        at: '2026-12-01T20:35:56.540Z',
        at_source: 'harness',
      },
      {
        kind: 'agent_started',
        agent_id: 'call_0004',
        call_id: 'call_0004',
        at: '2026-12-01T20:35:56.540Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 4, type: 'orchestration' },
      // Line 13: agent_start with parentAgentId: the subagent's lines follow (14-15).
      {
        kind: 'model_call',
        tokens: { input: 900, output: 20, cache_read: 0, cache_write: 0 },
        agent_id: 'call_0004',
        at: '2026-12-01T20:35:56.736Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:35:56.660Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 5, agent_id: 'call_0004', type: 'usage' },
      // Lines 16-19: the tool_call / tool_result hooks name the subagent.
      {
        kind: 'call_started',
        call_id: 'call_0006',
        tool: 'read_files',
        agent_id: 'call_0004',
        at: '2026-12-01T20:35:56.848Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0006',
        status: 'completed',
        agent_id: 'call_0004',
        at: '2026-12-01T20:35:56.968Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 6, call_id: 'call_0006', agent_id: 'call_0004', type: 'read' },
      {
        kind: 'model_call',
        tokens: { input: 100, output: 12, cache_read: 900, cache_write: 0 },
        agent_id: 'call_0004',
        at: '2026-12-01T20:35:57.181Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:35:57.048Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 7, agent_id: 'call_0004', type: 'usage' },
      { kind: 'event', seq: 8, agent_id: 'call_0004', type: 'agent' },
      // Line 28: the subagent's agent_end; line 29: its done (reason completed), whose time ends it.
      {
        kind: 'agent_ended',
        agent_id: 'call_0004',
        status: 'completed',
        at: '2026-12-01T20:35:57.341Z',
        at_source: 'harness',
      },
      // Lines 30-31: the root agent's hook, then the spawn_agent call's content_end.
      {
        kind: 'call_ended',
        call_id: 'call_0004',
        status: 'completed',
        at: '2026-12-01T20:35:57.406Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 9, call_id: 'call_0004', type: 'orchestration' },
      {
        kind: 'model_call',
        tokens: { input: 400, output: 40, cache_read: 2500, cache_write: 0 },
        at: '2026-12-01T20:35:57.639Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:35:57.492Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 10, type: 'usage' },
      // Lines 37-42: the MCP calls, under the root agent's tool_call hooks (35-36).
      {
        kind: 'call_started',
        call_id: 'call_0009',
        tool: 'lab__lookup_tile',
        at: '2026-12-01T20:35:57.869Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0009',
        status: 'completed',
        at: '2026-12-01T20:35:57.918Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 11, call_id: 'call_0009', type: 'unknown' },
      {
        kind: 'call_started',
        call_id: 'call_0010',
        tool: 'lab__fail_always',
        at: '2026-12-01T20:35:57.921Z',
        at_source: 'harness',
      },
      {
        kind: 'call_ended',
        call_id: 'call_0010',
        status: 'completed',
        at: '2026-12-01T20:35:57.996Z',
        at_source: 'harness',
      },
      { kind: 'event', seq: 12, call_id: 'call_0010', type: 'unknown' },
      // Lines 44-48.
      {
        kind: 'model_call',
        tokens: { input: 400, output: 20, cache_read: 2900, cache_write: 0 },
        at: '2026-12-01T20:35:58.176Z',
        at_source: 'harness',
        started_at: '2026-12-01T20:35:58.064Z',
        started_at_source: 'harness',
      },
      { kind: 'event', seq: 13, type: 'usage' },
      { kind: 'event', seq: 14, type: 'agent' },
      { kind: 'run_ended', at_source: 'observed' },
    ]);
  });
});
