/**
 * The usage ground truth from stdout in `npm test` (docs/usage.md "From stdout"): each run's stdout as saved by
 * live/usage.live.ts (test/fixtures/<harness>/usage/resume-fork/stdout-<n>.jsonl; served.json names each request's
 * run), normalized with the trace and accounted by `accountUsage`: exactly what the model served that run, less
 * exactly what the harness's stdout cannot carry. Claude Code ran with `--include-partial-messages`.
 */
import { createReadStream } from 'node:fs';
import { expect, test } from 'vitest';
import { accountUsage, normalize, type HarnessName, type TraceRecord } from '../../../lib/index.js';
import { asServed, captureDir, servedTotals, type Totals } from './served.js';

/** Run `run`'s stdout, normalized alone: its account, and the run's metrics' tokens. */
async function fromStdout(harness: HarnessName, run: number) {
  const stream = normalize(createReadStream(`${captureDir(harness)}/stdout-${run}.jsonl`), { harness, trace: true });
  const trace: TraceRecord[] = [];
  for await (const record of stream) trace.push(record as TraceRecord);
  const { total, warnings } = await accountUsage(trace, { harness });
  expect(warnings).toEqual([]);
  return { accounted: asServed(total.calls, total.tokens), metrics: asServed(0, stream.metrics.tokens ?? {}) };
}

const none: Totals = { calls: 0, input: 0, output: 0 };

test.each(['qwen', 'pi'] as const)('%s: every run, each of its calls, exactly', async (harness) => {
  for (const run of [1, 2, 3]) expect((await fromStdout(harness, run)).accounted).toEqual(servedTotals(harness, run));
});

test("claude-code: every call of the main agent, exactly; the subagent's two calls are not on stdout", async () => {
  const main = (run: number) => servedTotals('claude-code', run, (r) => r.conversation !== 'subagent');
  expect(servedTotals('claude-code', 1, (r) => r.conversation === 'subagent')).toEqual({
    calls: 2,
    input: 4_400,
    output: 40,
  });
  for (const run of [1, 2, 3]) expect((await fromStdout('claude-code', run)).accounted).toEqual(main(run));
});

test("gemini: no call's usage on stdout; the run's own total is in its metrics (result.stats)", async () => {
  for (const run of [1, 2]) {
    const { accounted, metrics } = await fromStdout('gemini', run);
    expect(accounted).toEqual(none);
    const { input, output } = servedTotals('gemini', run);
    expect(metrics).toEqual({ calls: 0, input, output });
  }
});

test("codex, stdout alone: a share of the thread's running total per turn, earlier runs' calls included", async () => {
  // What stdout alone cannot know: the calls within a turn, and the total before a resumed or forked run
  // (spawnHarness's rollout join knows both: test/runtime/run/codex-usage.test.ts).
  const shares = await Promise.all([1, 2, 3].map(async (run) => (await fromStdout('codex', run)).accounted));
  expect(shares).toEqual([
    { ...servedTotals('codex', 1), calls: 1 },
    { ...servedTotals('codex', undefined, (r) => r.run <= 2), calls: 1 },
    { ...servedTotals('codex'), calls: 1 },
  ]);
  expect(shares.map((share) => share.input)).toEqual([7_100, 12_300, 18_600]);
});
