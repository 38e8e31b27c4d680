/**
 * A live Codex run's usage events are stdout's turn shares (docs/harnesses/codex.md "Usage"), whether its rollout is
 * joined or not: a real child (test/children/codex-usage.mjs) replays each run of live/usage.live.ts's Codex plan
 * (test/fixtures/codex/usage/resume-fork/) as Codex wrote it, stdout and the rollout under CODEX_HOME. Stdout's
 * `turn.completed` is the thread's running total, so a resumed or forked run's one share includes the earlier runs'
 * calls (the documented limitation); the session files are exact (test/runtime/usage/ground-truth.test.ts).
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

// The sub-agent's own thread has its own totals; the parent's leave them out.
const parent = (through: number) => (r: { run: number; conversation?: string }) =>
  r.run <= through && r.conversation !== 'subagent';

test.each([
  [
    1,
    "the first run: its one turn's share, three calls, and its sub-agent's",
    { calls: 2, input: 15_000, output: 240 },
  ],
  [2, "the resume: the thread's total, the first run's calls included", { calls: 1, input: 15_800, output: 245 }],
  [3, "the fork: its parent's total besides its own call", { calls: 1, input: 22_100, output: 278 }],
])('run %i, %s', async (run, _what, byHand) => {
  const { totals, usage } = await accounted(run);
  const expected =
    run === 1
      ? { ...servedTotals('codex', 1), calls: 2 }
      : { ...servedTotals('codex', undefined, parent(run)), calls: 1 };
  expect(totals).toEqual(expected);
  expect(totals).toEqual(byHand);
  expect(usage).toBe(byHand.calls);
});

test("no rollout (an ephemeral run): stdout's turn shares are the run's usage", async () => {
  // The first run's one turn: both calls' tokens in one share (stdout cannot tell its calls apart).
  expect(await accounted(1, 'ephemeral')).toEqual({ totals: { calls: 1, input: 10_600, output: 200 }, usage: 1 });
});
