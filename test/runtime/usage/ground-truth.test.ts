/**
 * The usage ground truth in `npm test`: real session files of a run, its resume and its fork (Gemini CLI and Copilot:
 * no fork), from live/usage.live.ts (test/fixtures/<harness>/usage/resume-fork/README.md), accounted by
 * `accountUsage`, give exactly what the scripted model served: every call once, though a resume appends to the first
 * run's file and a fork restates it. Cline, without session files: its stdout.
 */
import { createReadStream } from 'node:fs';
import { expect, test } from 'vitest';
import { accountUsage, normalize } from '../../../lib/index.js';
import { asServed, captureDir, servedTotals } from './served.js';

// By hand (each README.md): the calls, and the tokens as the model counts them (a failed attempt, retried, served
// none; Gemini CLI's and Qwen Code's first run adds its subagent's two calls, in a file of their own); the restated
// calls read and not counted again: the forks of Claude Code and pi restate the parent's three main-agent calls, Qwen
// Code's its five (the subagent's two too, as the parent file's request telemetry), OpenCode's and Kilo's copy them
// under new ids (store:fork-copy); Codex's names its parent without copying its rows (its running totals start from
// the parent's: the per-call records are counted); Gemini CLI and Copilot have no fork.
test.each([
  ['claude-code', { calls: 6, input: 23_000, output: 298 }, 3],
  ['codex', { calls: 7, input: 26_500, output: 318 }, 0],
  ['gemini', { calls: 5, input: 16_700, output: 265 }, 0],
  ['qwen', { calls: 6, input: 23_000, output: 298 }, 5],
  ['pi', { calls: 4, input: 18_600, output: 258 }, 3],
  ['opencode', { calls: 4, input: 18_600, output: 258 }, 3],
  ['kilo', { calls: 4, input: 18_600, output: 258 }, 3],
  ['copilot', { calls: 3, input: 12_300, output: 225 }, 0],
])('%s: a run, its resume and its fork, each call once', async (harness, byHand, duplicates) => {
  const report = await accountUsage({ homes: [`${captureDir(harness)}/home`], harness });
  const accounted = asServed(report.total.calls, report.total.tokens);
  expect(accounted).toEqual(servedTotals(harness));
  expect(accounted).toEqual(byHand);
  expect(report.duplicates).toBe(duplicates);
  expect(report.warnings).toEqual([]);
});

test('cline: a run, from its stdout (no session reader), each call once', async () => {
  const records = normalize(createReadStream(`${captureDir('cline')}/stdout-1.jsonl`), {
    harness: 'cline',
    trace: true,
  });
  const report = await accountUsage(records, { harness: 'cline' });
  const accounted = asServed(report.total.calls, report.total.tokens);
  expect(accounted).toEqual(servedTotals('cline'));
  expect(accounted).toEqual({ calls: 2, input: 7100, output: 180 });
  expect(report.warnings).toEqual([]);
});
