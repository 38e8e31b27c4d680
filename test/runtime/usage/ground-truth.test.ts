/**
 * The usage ground truth in `npm test`: real session files of a run, its resume and its fork (Gemini CLI and Copilot:
 * no fork), from live/usage.live.ts (test/fixtures/<harness>/usage/resume-fork/README.md), accounted by
 * `accountUsage`, give exactly what the scripted model served: every call once, though a resume appends to the first
 * run's file and a fork restates it, and a retried request is one call. Cline, without session files: its stdout.
 */
import { createReadStream } from 'node:fs';
import { expect, test } from 'vitest';
import { accountUsage, normalize } from '../../../lib/index.js';
import { asServed, captureDir, failedAttempts, servedTotals } from './served.js';

// By hand (each README.md): the calls, and the tokens as the model counts them (a failed attempt, retried, served
// none; the first run of Claude Code, Gemini CLI, Qwen Code, OpenCode, Kilo and Copilot adds its subagent's two
// calls); the restated calls read and not counted again: the forks of Claude Code and pi restate the parent's three
// main-agent calls, Qwen Code's its five (the subagent's two too, as the parent file's request telemetry), OpenCode's
// and Kilo's copy them under new ids (store:fork-copy), Kilo's its subagent's session too (two calls more); Codex's
// names its parent without copying its rows (its running totals start from the parent's: the per-call records are
// counted); Gemini CLI and Copilot have no fork.
test.each([
  ['claude-code', { calls: 6, input: 23_000, output: 298 }, 3],
  ['codex', { calls: 7, input: 26_500, output: 318 }, 0],
  ['gemini', { calls: 5, input: 16_700, output: 265 }, 0],
  ['qwen', { calls: 6, input: 23_000, output: 298 }, 5],
  ['pi', { calls: 4, input: 18_600, output: 258 }, 3],
  ['opencode', { calls: 6, input: 23_000, output: 298 }, 3],
  ['kilo', { calls: 6, input: 23_000, output: 298 }, 5],
  ['copilot', { calls: 5, input: 16_700, output: 265 }, 0],
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
  expect(accounted).toEqual({ calls: 4, input: 11_500, output: 220 });
  expect(report.warnings).toEqual([]);
});

// The first run of these rows starts a subagent (its two calls: 4,400 input, 40 output tokens) and one of its
// requests fails once before it is served (served.json: `failed`): the failed attempt served no usage, and each
// total above has the retried call once.
test.each(['claude-code', 'opencode', 'kilo', 'copilot', 'cline'])(
  '%s: the first run has a subagent and a retry, each call once',
  (harness) => {
    expect(failedAttempts(harness)).toEqual([{ run: 1, outcome: 'failed', conversation: 'run1', turn: 1 }]);
    expect(servedTotals(harness, 1, (r) => r.conversation === 'subagent')).toEqual({
      calls: 2,
      input: 4_400,
      output: 40,
    });
    expect(servedTotals(harness, 1)).toEqual({ calls: 4, input: 11_500, output: 220 });
  },
);

// `--by subagent`: each subagent's calls under its name or type. OpenCode's and Kilo's subagent is a child session of
// its own, named only by its parent's `task` call (explore): read after the parent, it takes that name.
test.each([
  ['opencode', 'explore'],
  ['kilo', 'explore'],
  ['qwen', 'general-purpose'],
  ['copilot', 'explore'],
  ['claude-code', 'general-purpose'],
])("%s: the subagent's two calls under its name (%s)", async (harness, name) => {
  const { rows } = await accountUsage({ homes: [`${captureDir(harness)}/home`], harness }, { by: ['subagent'] });
  const subagent = (request: { conversation?: string }) => request.conversation === 'subagent';
  expect(rows.map((row) => [row.group.subagent, asServed(row.calls, row.tokens)])).toEqual([
    ['(main)', servedTotals(harness, undefined, (request) => !subagent(request))],
    [name, servedTotals(harness, undefined, subagent)],
  ]);
});
