/**
 * A live Codex run under spawnHarness (docs/harnesses/codex.md "Usage"): its usage events are stdout's turn shares,
 * and with `trace: true` its trace has the joined rollout's model calls, one per `token_usage_record` the run wrote,
 * so `accountUsage` over the trace counts exactly the run's own calls. A real child (test/children/codex-usage.mjs)
 * replays each run of live/usage.live.ts's Codex plan (test/fixtures/codex/usage/resume-fork/) as Codex wrote it,
 * stdout and the rollout under CODEX_HOME: the resume appends to the first run's rollout, whose earlier rows are not
 * the resume's; the fork's rollout is its own, its running totals starting from its parent's.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { accountUsage } from '../../../lib/index.js';
import type { TraceRecord, TraceRecordOf } from '../../../lib/kernel/trace.js';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { asServed, captureDir, servedTotals } from '../usage/served.js';
import { children, node } from './scripted-child.js';
import { fixturePath } from '../../helpers.js';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Run `run` of the capture under spawnHarness with the trace: what `accountUsage` gives, its usage and model calls. */
function accounted(run: number, mode?: 'ephemeral') {
  return traced(['codex-usage.mjs', captureDir('codex'), String(run), ...(mode ? [mode] : [])]);
}

/** A replaying child's run (its arguments after node) under spawnHarness with the trace, accounted. */
async function traced(args: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  homes.push(home);
  const started = spawnHarness({
    harness: 'codex',
    command: node,
    args: [join(children, args[0]!), ...args.slice(1)],
    cwd: tmpdir(),
    env: { CODEX_HOME: home },
    trace: true,
  });
  const trace: TraceRecord[] = [];
  for await (const record of started) trace.push(record);
  await started.done;
  const { total } = await accountUsage(trace, { harness: 'codex' });
  const usage = trace.flatMap((r) => (r.kind === 'event' && r.event.type === 'usage' ? [r.event.tokens] : []));
  const calls = trace.filter((r): r is TraceRecordOf<'model_call'> => r.kind === 'model_call');
  return { totals: asServed(total.calls, total.tokens), usage, calls };
}

/** The sub-agent the first run started: its own thread, whose calls are its own rollout's. */
const subagent = '01a24852-f111-7692-91e6-640e23cfe32a';

test.each([
  [
    1,
    "the first run: its three calls and its sub-agent's two",
    ['resp_scripted_0001', 'resp_scripted_0005', 'resp_scripted_0008', 'resp_scripted_0011', 'resp_scripted_0013'],
  ],
  [2, "the resume: its own call, not the first run's in the same rollout", ['resp_scripted_0015']],
  [3, "the fork: its own call, not its parent's total", ['resp_scripted_0017']],
])('run %i, %s', async (run, _what, ids) => {
  const { totals, usage, calls } = await accounted(run);
  expect(totals).toEqual(servedTotals('codex', run));
  const agents: Record<string, string | undefined> = { resp_scripted_0008: subagent, resp_scripted_0011: subagent };
  expect(
    calls
      .map(({ model_call_id, model, agent_id, at_source }) => ({ model_call_id, model, agent_id, at_source }))
      .sort((a, b) => a.model_call_id!.localeCompare(b.model_call_id!)),
  ).toEqual(
    ids.map((model_call_id) => ({
      model_call_id,
      model: 'gpt-5.5',
      agent_id: agents[model_call_id],
      at_source: 'harness',
    })),
  );
  // The events are unchanged: stdout's share of the parent thread's running total (the earlier runs' too, not the
  // sub-agent's), and the first run's sub-agent's own share, from its rollout.
  const parent = {
    ...servedTotals('codex', undefined, (r) => r.run <= run && r.conversation !== 'subagent'),
    calls: 1,
  };
  const shares = usage.map((tokens) => asServed(1, tokens)).sort((a, b) => b.input - a.input);
  const own = { ...servedTotals('codex', run, (r) => r.conversation === 'subagent'), calls: 1 };
  expect(shares).toEqual(run === 1 ? [parent, own] : [parent]);
});

test('by hand: the resume is 5,200 input and 45 output tokens, where its usage event says 15,800 and 245', async () => {
  const { totals, usage } = await accounted(2);
  expect(totals).toEqual({ calls: 1, input: 5_200, output: 45 });
  expect(asServed(1, usage[0]!)).toEqual({ calls: 1, input: 15_800, output: 245 });
});

test("no rollout (an ephemeral run): stdout's turn shares are the run's usage", async () => {
  // The first run's one turn: its three calls' tokens in one share (stdout cannot tell its calls apart, nor has it
  // the sub-agent's).
  const { totals, usage, calls } = await accounted(1, 'ephemeral');
  expect({ totals, usage: usage.length, calls }).toEqual({
    totals: { calls: 1, input: 10_600, output: 200 },
    usage: 1,
    calls: [],
  });
});

test("a sub-agent's calls come from its own rollout, with its thread's id as their agent", async () => {
  // test/fixtures/codex/transcripts/subagent: the parent's 4 calls of 1,200 input and 40 output tokens, the
  // sub-agent's 2 (5,000 and 5,300 input, 30 output each).
  const child = '01a23332-acbd-72e2-9d29-195faa85fbe8';
  const { totals, usage, calls } = await traced(['codex-rollout.mjs', fixturePath('codex/transcripts/subagent')]);
  const byId = calls
    .map(({ model_call_id, agent_id, tokens }) => ({ model_call_id, agent_id, tokens }))
    .sort((a, b) => a.model_call_id!.localeCompare(b.model_call_id!));
  const tokens = (input: number, output: number) => ({ input, output, cache_read: 0, cache_write: 0, reasoning: 0 });
  expect(byId).toEqual([
    { model_call_id: 'resp_0032', agent_id: undefined, tokens: tokens(1_200, 40) },
    { model_call_id: 'resp_0036', agent_id: undefined, tokens: tokens(1_200, 40) },
    { model_call_id: 'resp_0039', agent_id: child, tokens: tokens(5_000, 30) },
    { model_call_id: 'resp_0042', agent_id: child, tokens: tokens(5_300, 30) },
    { model_call_id: 'resp_0044', agent_id: undefined, tokens: tokens(1_200, 40) },
    { model_call_id: 'resp_0047', agent_id: undefined, tokens: tokens(1_200, 40) },
  ]);
  expect(totals).toEqual({ calls: 6, input: 15_100, output: 220 });
  // The events as before: the parent's turn share (stdout) and the sub-agent's (its rollout, read whole).
  expect([...usage].sort((a, b) => a.input! - b.input!)).toEqual([tokens(4_800, 160), tokens(10_300, 60)]);
});

test('a response whose usage the rollout says twice is one model call', async () => {
  const scenario = mkdtempSync(join(tmpdir(), 'codex-scenario-'));
  homes.push(scenario);
  cpSync(fixturePath('codex/transcripts/read'), scenario, { recursive: true });
  let day = join(scenario, 'home', '.codex', 'sessions');
  for (let depth = 0; depth < 3; depth++) day = join(day, readdirSync(day)[0]!);
  const file = join(day, readdirSync(day)[0]!);
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(
    file,
    lines.flatMap((line) => (line.includes('"token_usage_record"') ? [line, line] : [line])).join('\n'),
  );
  const { calls } = await traced(['codex-rollout.mjs', scenario]);
  const ids = calls.map((call) => call.model_call_id);
  expect(ids).toHaveLength(5);
  expect(new Set(ids).size).toBe(5);
});
