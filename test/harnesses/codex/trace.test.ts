/**
 * Codex's trace (docs/harnesses/codex.md "Trace"), checked by hand against one run's stdout and its two rollouts
 * (test/fixtures/codex/transcripts/subagent/): on stdout, calls by item id from `item.started` (observed times, stdout
 * has none) and the sub-agent's thread as an agent under the `spawn_agent` item; in the rollouts, calls by `call_id`
 * from the `function_call` line to the item's completion, a model call per `token_usage_record` (its end only), and
 * the sub-agent's own rollout as that agent's records, at the lines' timestamps.
 */
import { Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { createNormalizer } from '../../../lib/index.js';
import { session } from '../../../lib/harnesses/codex/session.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { jsonl } from '../../helpers.js';
import { sessionTraceOf, traceOf, written } from '../trace-records.js';

const rollout = (thread: string) => `.codex/sessions/2026/12/01/rollout-2026-12-01T20-01-28-${thread}.jsonl`;

test('stdout: item ids, item.started as call_started, the sub-agent under its spawn_agent call', async () => {
  expect(await traceOf('codex/transcripts/subagent/stdout.jsonl', 'codex')).toEqual([
    { kind: 'run_started', v: 1, harness: 'codex', at_source: 'observed' },
    { kind: 'event', seq: 1, type: 'agent' },
    { kind: 'call_started', call_id: 'item_1', tool: 'collab_tool_call', at_source: 'observed' },
    {
      kind: 'agent_started',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      call_id: 'item_1',
      at_source: 'observed',
    },
    { kind: 'call_ended', call_id: 'item_1', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 2, call_id: 'item_1', type: 'orchestration' },
    { kind: 'call_started', call_id: 'item_2', tool: 'collab_tool_call', at_source: 'observed' },
    {
      kind: 'agent_ended',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      status: 'completed',
      at_source: 'observed',
    },
    { kind: 'call_ended', call_id: 'item_2', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 3, call_id: 'item_2', type: 'orchestration' },
    { kind: 'call_started', call_id: 'item_3', tool: 'collab_tool_call', at_source: 'observed' },
    { kind: 'call_ended', call_id: 'item_3', status: 'completed', at_source: 'observed' },
    { kind: 'event', seq: 4, type: 'agent' },
    { kind: 'event', seq: 5, type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test("the parent's rollout: call ids, the lines' times, one model call per response", async () => {
  expect(await sessionTraceOf('codex', 'subagent', rollout('01a23332-abf9-7491-87d9-256199b30f86'))).toEqual([
    { kind: 'run_started', v: 1, harness: 'codex', at: '2026-12-01T20:01:28.639Z', at_source: 'harness' },
    { kind: 'event', seq: 1, type: 'agent' },
    {
      kind: 'call_started',
      call_id: 'call_0034',
      tool: 'spawn_agent',
      at: '2026-12-01T20:01:28.760Z',
      at_source: 'harness',
    },
    {
      kind: 'model_call',
      model_call_id: 'resp_0032',
      model: 'gpt-5.5',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      at: '2026-12-01T20:01:28.761Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_started',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      call_id: 'call_0034',
      at: '2026-12-01T20:01:28.790Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'call_0034',
      status: 'completed',
      at: '2026-12-01T20:01:28.790Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 2, call_id: 'call_0034', type: 'orchestration' },
    {
      kind: 'call_started',
      call_id: 'call_0037',
      tool: 'wait_agent',
      at: '2026-12-01T20:01:28.881Z',
      at_source: 'harness',
    },
    {
      kind: 'model_call',
      model_call_id: 'resp_0036',
      model: 'gpt-5.5',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      at: '2026-12-01T20:01:28.883Z',
      at_source: 'harness',
    },
    {
      kind: 'agent_ended',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      status: 'completed',
      at: '2026-12-01T20:01:29.064Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'call_0037',
      status: 'completed',
      at: '2026-12-01T20:01:29.064Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 3, call_id: 'call_0037', type: 'orchestration' },
    {
      kind: 'call_started',
      call_id: 'call_0045',
      tool: 'close_agent',
      at: '2026-12-01T20:01:29.123Z',
      at_source: 'harness',
    },
    {
      kind: 'model_call',
      model_call_id: 'resp_0044',
      model: 'gpt-5.5',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      at: '2026-12-01T20:01:29.127Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'call_0045',
      status: 'completed',
      at: '2026-12-01T20:01:29.138Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 4, type: 'agent' },
    {
      kind: 'model_call',
      model_call_id: 'resp_0047',
      model: 'gpt-5.5',
      tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
      at: '2026-12-01T20:01:29.194Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 5, type: 'usage' },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test("the sub-agent's rollout: its records are the agent's, from its turn's start to its end", async () => {
  expect(await sessionTraceOf('codex', 'subagent', rollout('01a23332-acbd-72e2-9d29-195faa85fbe8'))).toEqual([
    { kind: 'run_started', v: 1, harness: 'codex', at: '2026-12-01T20:01:28.802Z', at_source: 'harness' },
    {
      kind: 'agent_started',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      name: 'Bernoulli',
      at: '2026-12-01T20:01:28.803Z',
      at_source: 'harness',
    },
    {
      kind: 'call_started',
      call_id: 'call_0040',
      tool: 'exec_command',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      at: '2026-12-01T20:01:28.916Z',
      at_source: 'harness',
    },
    {
      kind: 'model_call',
      model_call_id: 'resp_0039',
      model: 'gpt-5.5',
      tokens: { input: 5000, output: 30, cache_read: 0, cache_write: 0, reasoning: 0 },
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      at: '2026-12-01T20:01:28.918Z',
      at_source: 'harness',
    },
    {
      kind: 'call_ended',
      call_id: 'call_0040',
      status: 'completed',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      at: '2026-12-01T20:01:28.995Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 1, call_id: 'call_0040', agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8', type: 'search' },
    { kind: 'event', seq: 2, agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8', type: 'agent' },
    {
      kind: 'model_call',
      model_call_id: 'resp_0042',
      model: 'gpt-5.5',
      tokens: { input: 5300, output: 30, cache_read: 0, cache_write: 0, reasoning: 0 },
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      at: '2026-12-01T20:01:29.049Z',
      at_source: 'harness',
    },
    { kind: 'event', seq: 3, agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8', type: 'usage' },
    {
      kind: 'agent_ended',
      agent_id: '01a23332-acbd-72e2-9d29-195faa85fbe8',
      status: 'completed',
      at: '2026-12-01T20:01:29.058Z',
      at_source: 'harness',
    },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});

test("a sub-agent's rollout with two turns: one agent, from the first turn's start to the last one's end", async () => {
  const line = (timestamp: string, type: string, payload: object) => ({ timestamp, type, payload });
  const thread = '01a23332-acbd-72e2-9d29-195faa85fbe8';
  const spawn = { subagent: { thread_spawn: { parent_thread_id: 'parent', depth: 1 } } };
  const total = { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0 };
  const counted = (timestamp: string) =>
    line(timestamp, 'event_msg', { type: 'token_count', info: { total_token_usage: total } });
  const input = jsonl(
    line('2026-12-01T20:00:00.000Z', 'session_meta', { id: thread, source: spawn, agent_nickname: 'Bernoulli' }),
    line('2026-12-01T20:00:01.000Z', 'event_msg', { type: 'task_started' }),
    counted('2026-12-01T20:00:01.500Z'),
    line('2026-12-01T20:00:02.000Z', 'event_msg', { type: 'task_complete' }),
    line('2026-12-01T20:00:03.000Z', 'event_msg', { type: 'task_started' }),
    counted('2026-12-01T20:00:03.500Z'),
    line('2026-12-01T20:00:04.000Z', 'event_msg', { type: 'task_complete' }),
  );
  const normalizer = createNormalizer({ harness: session.reader, trace: true });
  Readable.from([input]).pipe(normalizer);
  const records: TraceRecord[] = [];
  for await (const record of normalizer) records.push(record);
  const usage = (seq: number) => ({ kind: 'event', seq, type: 'usage', agent_id: thread });
  expect(records.map(written)).toEqual([
    { kind: 'run_started', v: 1, harness: 'codex', at: '2026-12-01T20:00:00.000Z', at_source: 'harness' },
    {
      kind: 'agent_started',
      agent_id: thread,
      name: 'Bernoulli',
      at: '2026-12-01T20:00:01.000Z',
      at_source: 'harness',
    },
    usage(1),
    usage(2),
    {
      kind: 'agent_ended',
      agent_id: thread,
      status: 'completed',
      at: '2026-12-01T20:00:04.000Z',
      at_source: 'harness',
    },
    { kind: 'run_ended', at_source: 'observed' },
  ]);
});
