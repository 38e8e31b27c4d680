/**
 * A budget on a Codex run counts the model calls its rollout says (docs/run-contract.md "Budgets"), which stand for
 * its usage events: a resumed run's first usage event is the thread's running total, the earlier runs' calls
 * included, and its rollout's own rows are exact. A real child (test/children/codex-usage.mjs) replays each run of
 * live/usage.live.ts's Codex plan (test/fixtures/codex/usage/resume-fork/), stdout and the rollout under CODEX_HOME.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { bodies } from '../../helpers.js';
import { captureDir } from '../usage/served.js';
import { rejection } from './budget-capture.js';
import { children, collect, node } from './scripted-child.js';

const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Run `run` of the capture under spawnHarness with a budget of `tokens`. */
function budgeted(run: number, tokens: number, mode?: 'ephemeral') {
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  homes.push(home);
  return spawnHarness({
    harness: 'codex',
    command: node,
    args: [join(children, 'codex-usage.mjs'), captureDir('codex'), String(run), ...(mode ? [mode] : [])],
    cwd: tmpdir(),
    env: { CODEX_HOME: home },
    budget: { tokens },
  });
}

const stopped = (tokens: number, budget: number) => ({
  type: 'error',
  code: 'budget',
  message: `${node} used ${tokens} tokens, past its budget of ${budget}, and was stopped`,
});

test("a resumed run within its budget ends as it would: its own call's 5,245 tokens, not the thread's", async () => {
  const run = budgeted(2, 6_000);
  const events = bodies(await collect(run));
  expect(events.filter((event) => event.code === 'budget')).toEqual([]);
  expect(await run.done).toMatchObject({ failed: false, spent: { tokens: 5_245 } });
});

test('a resumed run past its budget is stopped at its own call', async () => {
  const run = budgeted(2, 5_000);
  expect(bodies(await collect(run)).filter((event) => event.code === 'budget')).toEqual([stopped(5_245, 5_000)]);
  expect(await rejection(run.done)).toMatchObject({ reason: 'budget', spent: { tokens: 5_245 } });
});

test("the call that passes it stops the run: the first run's five calls, its sub-agent's, 15,240 tokens", async () => {
  // Past 15,000 only at the last call, whichever rollout the join reads first.
  const run = budgeted(1, 15_000);
  expect(bodies(await collect(run)).filter((event) => event.code === 'budget')).toEqual([stopped(15_240, 15_000)]);
  expect(await rejection(run.done)).toMatchObject({ reason: 'budget', spent: { tokens: 15_240 } });
});

test("without a rollout (an ephemeral run) its usage events count: a resume's is the thread's total", async () => {
  const run = budgeted(2, 6_000, 'ephemeral');
  expect(bodies(await collect(run)).filter((event) => event.code === 'budget')).toEqual([stopped(16_045, 6_000)]);
  expect(await rejection(run.done)).toMatchObject({ reason: 'budget', spent: { tokens: 16_045 } });
});
