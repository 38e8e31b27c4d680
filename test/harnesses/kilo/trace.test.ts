/**
 * Kilo's trace (docs/harnesses/kilo.md "Trace"): OpenCode's, and each step's model call spans the step-finish part's
 * own `time.start` to `time.end` (Kilo writes them; OpenCode does not), so its stdout and its session store give
 * the same records (but the session's run starts when it was created). Checked by hand against the run's
 * stdout.jsonl and kilo.db (test/fixtures/kilo/transcripts/).
 */
import { expect, test } from 'vitest';
import { sessionTraceOf, traceOf } from '../trace-records.js';

/** A skill, a task with its child session as an agent, a tool of Kilo's own, four priced steps. */
const expected = [
  { kind: 'run_started', v: 1, harness: 'kilo', at_source: 'observed' },
  { kind: 'event', seq: 1, type: 'agent' },
  {
    kind: 'call_started',
    call_id: 'call_0003',
    tool: 'todowrite',
    at: '2026-12-01T20:05:30.645Z',
    at_source: 'harness',
    late: true,
  },
  {
    kind: 'call_ended',
    call_id: 'call_0003',
    status: 'completed',
    at: '2026-12-01T20:05:30.797Z',
    at_source: 'harness',
  },
  {
    kind: 'call_started',
    call_id: 'call_0002',
    tool: 'skill',
    at: '2026-12-01T20:05:30.622Z',
    at_source: 'harness',
    late: true,
  },
  {
    kind: 'call_ended',
    call_id: 'call_0002',
    status: 'completed',
    at: '2026-12-01T20:05:30.867Z',
    at_source: 'harness',
  },
  { kind: 'event', seq: 2, call_id: 'call_0002', type: 'skill' },
  {
    kind: 'model_call',
    model_call_id: 'msg_2333657de001HpuPQ2nstN1IBn',
    tokens: { input: 1500, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
    cost: 0.0051,
    at: '2026-12-01T20:05:31.056Z',
    at_source: 'harness',
    started_at: '2026-12-01T20:05:30.536Z',
    started_at_source: 'harness',
  },
  { kind: 'event', seq: 3, model_call_id: 'msg_2333657de001HpuPQ2nstN1IBn', type: 'usage' },
  {
    kind: 'call_started',
    call_id: 'call_0005',
    tool: 'task',
    at: '2026-12-01T20:05:31.950Z',
    at_source: 'harness',
    late: true,
  },
  {
    kind: 'call_ended',
    call_id: 'call_0005',
    status: 'completed',
    at: '2026-12-01T20:05:33.879Z',
    at_source: 'harness',
  },
  { kind: 'event', seq: 4, call_id: 'call_0005', type: 'orchestration' },
  {
    kind: 'agent_started',
    agent_id: 'ses_dccc99cc2ffeTz9UsOEvfqhekw',
    call_id: 'call_0005',
    name: 'explore',
    at: '2026-12-01T20:05:31.950Z',
    at_source: 'harness',
  },
  {
    kind: 'agent_ended',
    agent_id: 'ses_dccc99cc2ffeTz9UsOEvfqhekw',
    status: 'completed',
    at: '2026-12-01T20:05:33.879Z',
    at_source: 'harness',
  },
  {
    kind: 'model_call',
    model_call_id: 'msg_2333660b8001SixJHu1w9xV7sS',
    tokens: { input: 1700, output: 30, cache_read: 0, cache_write: 0, reasoning: 0 },
    cost: 0.00555,
    at: '2026-12-01T20:05:34.118Z',
    at_source: 'harness',
    started_at: '2026-12-01T20:05:31.885Z',
    started_at_source: 'harness',
  },
  { kind: 'event', seq: 5, model_call_id: 'msg_2333660b8001SixJHu1w9xV7sS', type: 'usage' },
  {
    kind: 'call_started',
    call_id: 'call_0010',
    tool: 'kilo_local_recall',
    at: '2026-12-01T20:05:34.812Z',
    at_source: 'harness',
    late: true,
  },
  {
    kind: 'call_ended',
    call_id: 'call_0010',
    status: 'completed',
    at: '2026-12-01T20:05:34.995Z',
    at_source: 'harness',
  },
  { kind: 'event', seq: 6, call_id: 'call_0010', type: 'unknown' },
  {
    kind: 'model_call',
    model_call_id: 'msg_233366bde001tDkLjrNvr0YSvA',
    tokens: { input: 1900, output: 20, cache_read: 0, cache_write: 0, reasoning: 0 },
    cost: 0.006,
    at: '2026-12-01T20:05:35.147Z',
    at_source: 'harness',
    started_at: '2026-12-01T20:05:34.787Z',
    started_at_source: 'harness',
  },
  { kind: 'event', seq: 7, model_call_id: 'msg_233366bde001tDkLjrNvr0YSvA', type: 'usage' },
  { kind: 'event', seq: 8, type: 'agent' },
  {
    kind: 'model_call',
    model_call_id: 'msg_233367012001h4YzIFh1pq4qv3',
    tokens: { input: 2100, output: 20, cache_read: 0, cache_write: 0, reasoning: 0 },
    cost: 0.0066,
    at: '2026-12-01T20:05:36.168Z',
    at_source: 'harness',
    started_at: '2026-12-01T20:05:35.921Z',
    started_at_source: 'harness',
  },
  { kind: 'event', seq: 9, model_call_id: 'msg_233367012001h4YzIFh1pq4qv3', type: 'usage' },
  { kind: 'run_ended', at_source: 'observed' },
];

test('stdout: call ids and times, the explorer under its task call, four model calls', async () => {
  expect(await traceOf('kilo/transcripts/task-skill/stdout.jsonl', 'kilo')).toEqual(expected);
});

test("kilo.db: stdout's records and harness times, the run starting when its session was created", async () => {
  const records = await sessionTraceOf(
    'kilo',
    'task-skill',
    '.local/share/kilo/kilo.db#ses_dccc9d62bffeDMQy5SImsO307q',
  );
  const started = { kind: 'run_started', v: 1, harness: 'kilo', at: '2026-12-01T20:05:17.397Z', at_source: 'harness' };
  expect(records).toEqual([started, ...expected.slice(1)]);
});
