/**
 * A live Codex run's usage is its own calls, one usage event each (docs/harnesses/codex.md "Runs: stdout and the
 * rollout"): a real child (test/children/codex-usage.mjs) replays each run of live/usage.live.ts's Codex plan
 * (test/fixtures/codex/usage/resume-fork/) as Codex wrote it, stdout and the rollout under CODEX_HOME. Stdout's
 * `turn.completed` is the thread's running total (after a resume or in a fork, the earlier processes' calls included);
 * the rollout's `token_usage_record` rows written since the run started are the run's calls.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { accountUsage } from '../../../lib/index.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { asServed, captureDir, servedTotals } from '../usage/served.js';
import { children, node } from './scripted-child.js';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Run `run` of the capture under spawnHarness: what `accountUsage` gives over its trace, and its usage events. */
async function accounted(run: number, mode?: 'ephemeral') {
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  homes.push(home);
  const started = spawnHarness({
    harness: 'codex',
    command: node,
    args: [join(children, 'codex-usage.mjs'), captureDir('codex'), String(run), ...(mode ? [mode] : [])],
    cwd: tmpdir(),
    env: { CODEX_HOME: home },
    trace: true,
  });
  const trace: TraceRecord[] = [];
  for await (const record of started) trace.push(record);
  await started.done;
  const { total } = await accountUsage(trace, { harness: 'codex' });
  const usage = trace.filter((r) => r.kind === 'event' && r.event.type === 'usage');
  return { totals: asServed(total.calls, total.tokens), usage: usage.length };
}

test.each([
  [1, 'the first run: each of its two calls once', { calls: 2, input: 7_100, output: 180 }],
  [2, 'the resume: its own call, not the thread total (12,300 input)', { calls: 1, input: 5_200, output: 45 }],
  [3, "the fork: its own call, not its parent's total besides (18,600 input)", { calls: 1, input: 6_300, output: 33 }],
])('run %i, %s', async (run, _what, byHand) => {
  const { totals, usage } = await accounted(run);
  expect(totals).toEqual(servedTotals('codex', run));
  expect(totals).toEqual(byHand);
  expect(usage).toBe(byHand.calls);
});

test("no rollout (an ephemeral run): stdout's turn shares are the run's usage", async () => {
  // The first run's one turn: both calls' tokens in one share (stdout cannot tell its calls apart).
  expect(await accounted(1, 'ephemeral')).toEqual({ totals: { calls: 1, input: 7_100, output: 180 }, usage: 1 });
});
