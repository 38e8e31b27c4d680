/**
 * Gemini CLI's trace (docs/harnesses/gemini.md "Trace"), checked by hand against one run's stdout and its chat file
 * (test/fixtures/gemini/transcripts/subagent/): the call by its `tool_id` from the `tool_use` record's `timestamp`
 * to the `tool_result`'s, the `invoke_agent` call's subagent over the same times; in the chat file, the call from
 * its response's time to its own `timestamp` (its end), the subagent's chat id as `native_id`, and each response a
 * model call with its model and tokens.
 */
import { expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

const stats = { input: 20200, output: 72, cache_read: 0 };

test('stdout: the invoke_agent call and its subagent, at the records’ times', async () => {
  expect(await traceOf('gemini/transcripts/subagent/stdout.jsonl', 'gemini')).toEqual([
    { kind: 'run_started', v: 1, harness: 'gemini', at: '2026-12-01T19:59:34.324Z', at_source: 'harness' },
    {
      kind: 'call_started',
      call_id: 'invoke_agent__invoke_agent_1796155174400_0',
      tool: 'invoke_agent',
      at: '2026-12-01T19:59:34.456Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_started',
      agent_id: 'invoke_agent__invoke_agent_1796155174400_0',
      call_id: 'invoke_agent__invoke_agent_1796155174400_0',
      name: 'generalist',
      at: '2026-12-01T19:59:34.456Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_ended',
      agent_id: 'invoke_agent__invoke_agent_1796155174400_0',
      status: 'completed',
      at: '2026-12-01T19:59:34.695Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'invoke_agent__invoke_agent_1796155174400_0',
      status: 'completed',
      at: '2026-12-01T19:59:34.695Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 1, call_id: 'invoke_agent__invoke_agent_1796155174400_0', type: 'orchestration' },
    { kind: 'event', seq: 2, type: 'agent' },
    // result.stats: the run's own total, the subagent's calls included (its chat file's 4 responses add up to it).
    { kind: 'run_ended', at_source: 'observed', tokens: stats, models: { 'gemini-2.5-flash': stats } },
  ]);
});

test('the chat file: the same call and subagent, and two responses as model calls', async () => {
  const file = '.gemini/tmp/project/chats/session-2026-12-01T19-59-eb6ebba4.jsonl';
  expect(await sessionTraceOf('gemini', 'subagent', file)).toEqual([
    { kind: 'run_started', v: 1, harness: 'gemini', at: '2026-12-01T19:59:34.313Z', at_source: 'harness' },
    {
      kind: 'model_call',
      model_call_id: 'adf36404-816d-49d0-9f78-313d94b7de58',
      model: 'gemini-2.5-flash',
      tokens: { input: 6000, output: 30, cache_read: 0 },
      at: '2026-12-01T19:59:34.497Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 1, model_call_id: 'adf36404-816d-49d0-9f78-313d94b7de58', type: 'usage' },
    {
      kind: 'call_started',
      call_id: 'invoke_agent__invoke_agent_1796155174400_0',
      tool: 'invoke_agent',
      at: '2026-12-01T19:59:34.497Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_started',
      agent_id: 'invoke_agent__invoke_agent_1796155174400_0',
      call_id: 'invoke_agent__invoke_agent_1796155174400_0',
      name: 'generalist',
      native_id: '2c1841db-b354-4bd4-a5b4-e55e7eb8bf3a',
      at: '2026-12-01T19:59:34.497Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_ended',
      agent_id: 'invoke_agent__invoke_agent_1796155174400_0',
      status: 'completed',
      at: '2026-12-01T19:59:34.695Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'invoke_agent__invoke_agent_1796155174400_0',
      status: 'completed',
      at: '2026-12-01T19:59:34.695Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 2, call_id: 'invoke_agent__invoke_agent_1796155174400_0', type: 'orchestration' },
    { kind: 'event', seq: 3, type: 'agent' },
    {
      kind: 'model_call',
      model_call_id: '46d1ba2d-d455-4b7c-a39f-bbf2dfcdf286',
      model: 'gemini-2.5-flash',
      tokens: { input: 6100, output: 15, cache_read: 0 },
      at: '2026-12-01T19:59:34.731Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 4, model_call_id: '46d1ba2d-d455-4b7c-a39f-bbf2dfcdf286', type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
