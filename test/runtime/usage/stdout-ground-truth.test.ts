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
import { accountOf, asServed, captureDir, servedTotals, stdoutLines, withoutShare, type Totals } from './served.js';

/** Run `run`'s stdout (the lines `keep` keeps, as `edit` leaves them), normalized alone: its account, its metrics. */
async function fromStdout(
  harness: HarnessName,
  run: number,
  keep?: (line: string) => boolean,
  edit?: (line: string) => string,
) {
  const stream = normalize(Readable.from(stdoutLines(captureDir(harness), run, keep, edit)), { harness, trace: true });
  const trace: TraceRecord[] = [];
  for await (const record of stream) trace.push(record as TraceRecord);
  return { ...(await accountOf(trace, harness)), metrics: asServed(0, stream.metrics.tokens ?? {}) };
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
    expect(await fromStdout('qwen', run)).toMatchObject({
      accounted: main(run),
      warnings: run === 1 ? [short('qwen')] : [],
    });
});

/** The warning of a run that had a subagent whose calls its stdout leaves out. */
const short = (harness: string) =>
  `a ${harness} run started a subagent and ${
    harness === 'qwen'
      ? "a subagent's calls are not on its stdout (its messages carry zero usage)"
      : harness === 'claude-code'
        ? "its subagents' calls are not on stdout"
        : 'a subagent is a child session whose calls are not on its stdout'
  }: the account is short of the subagent's calls; its session files have each call`;

const subagent = (request: { conversation?: string }) => request.conversation === 'subagent';
const main = (run: number) => servedTotals('claude-code', run, (request) => !subagent(request));
const instead = 'accounted instead as tokens no call itemizes (unitemized); its session files have each call';

test("claude-code: every token, exactly; every call of the main agent, the subagent's two not on stdout", async () => {
  expect(servedTotals('claude-code', 1, subagent)).toEqual({ calls: 2, input: 4_400, output: 40 });
  for (const run of [1, 2, 3]) {
    const served = servedTotals('claude-code', run);
    // The tokens: each result's model_usage_since_last_result, the run's own (a resume's and a fork's too).
    expect(await fromStdout('claude-code', run)).toMatchObject({
      accounted: { ...served, calls: main(run).calls },
      unitemized: { calls: 0, input: served.input - main(run).input, output: served.output - main(run).output },
      warnings:
        run === 1
          ? [
              "a claude-code run's own total is beyond the calls its records give (its subagents' calls are not on " +
                `stdout): the rest was ${instead}`,
            ]
          : [],
    });
  }
});

test.each(['opencode', 'kilo'] as const)(
  "%s: every call of the main agent, exactly; the subagent's two calls (a child session) are not on stdout",
  async (harness) => {
    const mainAgent = (run: number) => servedTotals(harness, run, (request) => !subagent(request));
    expect(servedTotals(harness, 1, subagent)).toEqual({ calls: 2, input: 4_400, output: 40 });
    for (const run of [1, 2, 3])
      expect(await fromStdout(harness, run)).toMatchObject({
        accounted: mainAgent(run),
        warnings: run === 1 ? [short(harness)] : [],
      });
  },
);

test("cline: every call, the subagent's included, each counted as its agent's", async () => {
  const lines = readFileSync(`${captureDir('cline')}/stdout-1.jsonl`, 'utf8').split(/(?<=\n)/);
  const trace = normalize(Readable.from(lines), { harness: 'cline', trace: true });
  const { rows, warnings } = await accountUsage(trace, { harness: 'cline', by: ['subagent'] });
  expect(warnings).toEqual([]);
  // The subagent is named by its spawn_agent call's id (Cline gives it no name).
  expect(rows.map((row) => [row.group.subagent, asServed(row.calls, row.tokens)])).toEqual([
    ['(main)', servedTotals('cline', 1, (request) => !subagent(request))],
    ['call_scripted_0002', servedTotals('cline', 1, subagent)],
  ]);
});

test('claude-code without partial messages (no stream_event line): no call, its total, a warning', async () => {
  const { accounted, unitemized, warnings } = await fromStdout(
    'claude-code',
    1,
    (line) => !line.includes('"stream_event"'),
  );
  const served = servedTotals('claude-code', 1);
  expect(accounted).toEqual({ ...served, calls: 0 });
  expect(unitemized).toEqual({ ...served, calls: 0 });
  expect(warnings).toEqual([
    "a claude-code run gave no model call's usage: its model calls carry no tokens on stdout without " +
      `--include-partial-messages; its own total was ${instead}`,
  ]);
});

test("claude-code before 2.1.328 (no model_usage_since_last_result): no session's total from stdout", async () => {
  // result.modelUsage is the session's running total, the run's own only in a session the run started, which a
  // saved stdout does not say (spawnHarness knows it: test/runtime/run/session-total.test.ts).
  for (const run of [1, 2, 3]) {
    const { accounted, unitemized, warnings } = await fromStdout('claude-code', run, undefined, withoutShare);
    expect({ accounted, unitemized, warnings }).toEqual({
      accounted: main(run),
      unitemized: none,
      warnings: run === 1 ? [short('claude-code')] : [],
    });
  }
});

test("gemini: no call's usage on stdout; every token, its subagent's too, from the run's own total", async () => {
  for (const run of [1, 2]) {
    const { accounted, unitemized, metrics, warnings } = await fromStdout('gemini', run);
    const served = servedTotals('gemini', run);
    expect(accounted).toEqual({ ...served, calls: 0 });
    expect(unitemized).toEqual({ ...served, calls: 0 });
    // Never a silent zero, nor a call it does not know.
    expect(warnings).toEqual([
      "a gemini run gave no model call's usage: its stdout gives only the run's total (result.stats: the run's " +
        `metrics); its own total was ${instead}`,
    ]);
    expect(metrics).toEqual({ ...served, calls: 0 });
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

test("copilot: no run's stdout carries a call's tokens (the subagent's neither): no call, and a warning", async () => {
  for (const run of [1, 2])
    expect(await fromStdout('copilot', run)).toMatchObject({
      accounted: none,
      warnings: [
        "a copilot run gave no model call's usage: its model calls carry no tokens on stdout (model.call_finished " +
          'has none); its session files have each call',
      ],
    });
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
