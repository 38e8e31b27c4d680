/**
 * A session's running total on stdout under spawnHarness (docs/usage.md "From stdout"): Claude Code's
 * `result.modelUsage` (before 2.1.328, which also gives each result's own share) and Goose's `complete` are the run's
 * own only when the run started the session. spawnHarness built the command line, so it knows: without a flag that
 * goes on with a session, `run_ended` carries the total and the account's tokens are exact; with one (or a command
 * line the caller built), nothing is taken from it. A real child replays the saved stdout (test/children/replay.mjs):
 * Claude Code's usage capture (test/fixtures/claude-code/usage/resume-fork/) with its results' shares taken out, and
 * the authored Goose run (test/fixtures/goose/full-run.jsonl).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { spawnHarness, type HarnessName, type SpawnHarnessOptions } from '../../../lib/index.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { hasFlag } from '../../../lib/kernel/command-line.js';
import { fixturePath } from '../../helpers.js';
import { accountOf, captureDir, servedTotals, stdoutLines, withoutShare } from '../usage/served.js';
import { children } from './scripted-child.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * The lines replayed under spawnHarness by a program that takes whatever arguments the harness's command line has:
 * the run's trace, and its account.
 */
async function replayed(harness: HarnessName, lines: readonly string[], options: Partial<SpawnHarnessOptions>) {
  const dir = mkdtempSync(join(tmpdir(), 'he-session-total-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'stdout.jsonl'), lines.join(''));
  const program = join(dir, 'agent');
  const replay = join(children, 'replay.mjs');
  const argv = JSON.stringify([join(dir, 'stdout.jsonl'), '0']);
  writeFileSync(
    program,
    `#!${process.execPath}\nprocess.argv.splice(2, Infinity, ...${argv});\nimport(${JSON.stringify(replay)});\n`,
  );
  chmodSync(program, 0o755);
  const run = spawnHarness({ harness, command: program, cwd: dir, trace: true, ...options } as SpawnHarnessOptions & {
    trace: true;
  });
  const trace: TraceRecord[] = [];
  for await (const record of run) trace.push(record);
  await run.done;
  const ended = trace.at(-1);
  return { ended: ended?.kind === 'run_ended' ? ended : undefined, ...(await accountOf(trace, harness)) };
}

const claude = (run: number) => stdoutLines(captureDir('claude-code'), run, undefined, withoutShare);
const main = (run: number) => servedTotals('claude-code', run, (request) => request.conversation !== 'subagent');
const partial = '--include-partial-messages';
const session = '3aa95455-fc51-42bf-8444-6d8c0016fb06';

test('claude-code, a run that starts its session: result.modelUsage is its own, subagent included', async () => {
  const { ended, accounted, unitemized } = await replayed('claude-code', claude(1), {
    prompt: 'usage-gt-1',
    extraArgs: [partial],
  });
  const served = servedTotals('claude-code', 1);
  expect(ended?.tokens).toEqual({ input: 5_700, output: 220, cache_read: 5_800, cache_write: 0, reasoning: 0 });
  expect(accounted).toEqual({ ...served, calls: main(1).calls });
  expect(unitemized).toEqual({ calls: 0, input: 4_400, output: 40 });
});

test.each([
  [2, [partial, '--resume', session]],
  [2, [partial, `--resume=${session}`]],
  [2, [partial, '-r', session]],
  [2, [partial, '-c']],
  [3, [partial, '--resume', session, '--fork-session']],
])("claude-code, run %i with %j: modelUsage is the session's, not taken", async (run, extraArgs) => {
  const { ended, accounted, unitemized } = await replayed('claude-code', claude(run), {
    prompt: 'usage-gt',
    extraArgs,
  });
  expect(ended).toBeDefined();
  expect(ended?.tokens).toBeUndefined();
  expect({ accounted, unitemized }).toEqual({ accounted: main(run), unitemized: { calls: 0, input: 0, output: 0 } });
});

test('claude-code, a command line the caller built: not known to start a session, so no total', async () => {
  const { ended, accounted } = await replayed('claude-code', claude(1), { args: [partial] });
  expect(ended?.tokens).toBeUndefined();
  expect(accounted).toEqual(main(1));
});

const goose = readFileSync(fixturePath('goose/full-run.jsonl'), 'utf8').split(/(?<=\n)/);

test("goose: complete's totals are the run's own in a session it started; not after --resume", async () => {
  const fresh = await replayed('goose', goose, { prompt: 'go' });
  expect(fresh.ended?.tokens).toEqual({ input: 4_800, output: 320 });
  expect(fresh).toMatchObject({ accounted: { calls: 0, input: 4_800, output: 320 }, unitemized: { calls: 0 } });
  expect(fresh.warnings).toEqual([
    "a goose run gave no model call's usage: its stdout gives only the session's total (complete: the run's " +
      'metrics); its own total was accounted instead as tokens no call itemizes (unitemized); its session files ' +
      'have each call',
  ]);
  const resumed = await replayed('goose', goose, { prompt: 'go', extraArgs: ['--resume'] });
  expect(resumed.ended?.tokens).toBeUndefined();
  expect(resumed.accounted).toEqual({ calls: 0, input: 0, output: 0 });
});

test('hasFlag: a flag, its `=` form, a short flag in a cluster; not past `--`', () => {
  const flags = ['--resume', '-r', '--continue', '-c'];
  expect(hasFlag(['--print', '--resume', 'x'], flags)).toBe(true);
  expect(hasFlag(['--resume=x'], flags)).toBe(true);
  expect(hasFlag(['-pc'], flags)).toBe(true);
  expect(hasFlag(['--resumed', '--print', '-p'], flags)).toBe(false);
  expect(hasFlag(['--print', '--', '--resume'], flags)).toBe(false);
});
