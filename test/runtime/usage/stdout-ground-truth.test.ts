/**
 * The usage ground truth from stdout in `npm test` (docs/usage.md "From stdout"): each run's stdout as saved by
 * live/usage.live.ts (test/fixtures/<harness>/usage/resume-fork/stdout-<n>.jsonl; served.json names each request's
 * run), normalized with the trace and accounted by `accountUsage`: exactly what the model served that run, less
 * exactly what the harness's stdout cannot carry. Claude Code ran with `--include-partial-messages`.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { accountUsage, normalize, type HarnessName, type TraceRecord } from '../../../lib/index.js';
import { fixturePath } from '../../helpers.js';
import { asServed, captureDir, servedTotals, type Totals } from './served.js';

/** Run `run`'s stdout (the lines `keep` keeps), normalized alone: its account and warnings, its metrics' tokens. */
async function fromStdout(harness: HarnessName, run: number, keep: (line: string) => boolean = () => true) {
  const lines = readFileSync(`${captureDir(harness)}/stdout-${run}.jsonl`, 'utf8').split(/(?<=\n)/);
  const stream = normalize(Readable.from(lines.filter(keep)), { harness, trace: true });
  const trace: TraceRecord[] = [];
  for await (const record of stream) trace.push(record as TraceRecord);
  const { total, warnings } = await accountUsage(trace, { harness });
  const metrics = asServed(0, stream.metrics.tokens ?? {});
  return { accounted: asServed(total.calls, total.tokens), warnings, metrics };
}

const none: Totals = { calls: 0, input: 0, output: 0 };

test("pi: every run, each of its calls, exactly (the attempts it retried: no call's)", async () => {
  for (const run of [1, 2, 3])
    expect(await fromStdout('pi', run)).toMatchObject({ accounted: servedTotals('pi', run), warnings: [] });
});

test("qwen: every call of the main agent, exactly; the subagent's two calls are not on stdout", async () => {
  const main = (run: number) => servedTotals('qwen', run, (r) => r.conversation !== 'subagent');
  expect(servedTotals('qwen', 1, (r) => r.conversation === 'subagent')).toEqual({ calls: 2, input: 4_400, output: 40 });
  expect(main(1)).toEqual({ calls: 2, input: 7_100, output: 180 });
  for (const run of [1, 2, 3])
    expect(await fromStdout('qwen', run)).toMatchObject({ accounted: main(run), warnings: [] });
});

test("claude-code: every call of the main agent, exactly; the subagent's two calls are not on stdout", async () => {
  const main = (run: number) => servedTotals('claude-code', run, (r) => r.conversation !== 'subagent');
  expect(servedTotals('claude-code', 1, (r) => r.conversation === 'subagent')).toEqual({
    calls: 2,
    input: 4_400,
    output: 40,
  });
  for (const run of [1, 2, 3])
    expect(await fromStdout('claude-code', run)).toMatchObject({ accounted: main(run), warnings: [] });
});

test('claude-code without partial messages (its stream_event lines left out): no call, and a warning', async () => {
  const { accounted, warnings } = await fromStdout('claude-code', 1, (line) => !line.includes('"stream_event"'));
  expect(accounted).toEqual(none);
  expect(warnings).toEqual([
    "a claude-code run gave no model call's usage: its model calls carry no tokens on stdout without " +
      '--include-partial-messages; its session files have each call',
  ]);
});

test("gemini: no call's usage on stdout; the run's own total, its subagent's included, in its metrics", async () => {
  for (const run of [1, 2]) {
    const { accounted, metrics, warnings } = await fromStdout('gemini', run);
    expect(accounted).toEqual(none);
    // Never a silent zero.
    expect(warnings).toEqual([
      "a gemini run gave no model call's usage: its stdout gives only the run's total (result.stats: the run's " +
        'metrics); its session files have each call',
    ]);
    const { input, output } = servedTotals('gemini', run);
    expect(metrics).toEqual({ calls: 0, input, output });
  }
});

test("codex, stdout alone: a share of the thread's running total per turn, earlier runs' calls included", async () => {
  // What stdout alone cannot know: the calls within a turn, the total before a resumed or forked run, and a
  // sub-agent's calls, which the parent thread's totals leave out (spawnHarness's rollout join knows them all:
  // test/runtime/run/codex-usage.test.ts).
  const runs = await Promise.all([1, 2, 3].map((run) => fromStdout('codex', run)));
  expect(runs.flatMap((run) => run.warnings)).toEqual([]);
  const shares = runs.map((run) => run.accounted);
  const parent = (through: number) => (r: { run: number; conversation?: string }) =>
    r.run <= through && r.conversation !== 'subagent';
  expect(shares).toEqual([
    { ...servedTotals('codex', undefined, parent(1)), calls: 1 },
    { ...servedTotals('codex', undefined, parent(2)), calls: 1 },
    { ...servedTotals('codex', undefined, parent(3)), calls: 1 },
  ]);
  expect(shares.map((share) => share.input)).toEqual([10_600, 15_800, 22_100]);
});

test("copilot: its stdout's model calls carry no tokens (a lab capture): no call, and a warning", async () => {
  const lines = readFileSync(fixturePath('copilot/lab/files.jsonl'), 'utf8').split(/(?<=\n)/);
  const trace: TraceRecord[] = [];
  for await (const record of normalize(Readable.from(lines), { harness: 'copilot', trace: true }))
    trace.push(record as TraceRecord);
  expect(trace.filter((record) => record.kind === 'model_call')).toHaveLength(4);
  const { total, warnings } = await accountUsage(trace, { harness: 'copilot' });
  expect(total.calls).toBe(0);
  expect(warnings).toEqual([
    "a copilot run gave no model call's usage: its model calls carry no tokens on stdout (model.call_finished has " +
      'none); its session files have each call',
  ]);
});
