/**
 * The usage ground truth in `npm test`: real session files of a run, its resume and its fork (Gemini CLI and Copilot:
 * no fork), from live/usage.live.ts (test/fixtures/<harness>/usage/resume-fork/README.md), accounted by
 * `accountUsage`, give exactly what the scripted model served: every call once, though a resume appends to the first
 * run's file and a fork restates it. Cline, without session files: its stdout.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { accountUsage, normalize, type UsageRow } from '../../../lib/index.js';
import { fixturePath } from '../../helpers.js';

interface Served {
  outcome: string;
  conversation?: string;
  usage?: { input: number; output: number };
}

// By hand (each README.md): the calls, and the tokens as the model counts them; the restated calls read and not
// counted again: the forks of Claude Code, Qwen Code and pi restate the parent's three main-agent calls, OpenCode's and
// Kilo's copy them under new ids (store:fork-copy); Codex's names its parent without copying its rows (its running
// totals start from the parent's: the per-call records are counted); Gemini CLI and Copilot have no fork.
test.each([
  ['claude-code', { calls: 6, input: 23_000, output: 298 }, 3],
  ['codex', { calls: 4, input: 18_600, output: 258 }, 0],
  ['gemini', { calls: 3, input: 12_300, output: 225 }, 0],
  ['qwen', { calls: 4, input: 18_600, output: 258 }, 3],
  ['pi', { calls: 4, input: 18_600, output: 258 }, 3],
  ['opencode', { calls: 4, input: 18_600, output: 258 }, 3],
  ['kilo', { calls: 4, input: 18_600, output: 258 }, 3],
  ['copilot', { calls: 3, input: 12_300, output: 225 }, 0],
])('%s: a run, its resume and its fork, each call once', async (harness, byHand, duplicates) => {
  const dir = fixturePath(`${harness}/usage/resume-fork`);
  const report = await accountUsage({ homes: [`${dir}/home`], harness });
  const accounted = asServed(report.total);
  expect(accounted).toEqual(servedIn(dir));
  expect(accounted).toEqual(byHand);
  expect(report.duplicates).toBe(duplicates);
  expect(report.warnings).toEqual([]);
});

test('cline: a run, from its stdout (no session reader), each call once', async () => {
  const dir = fixturePath('cline/usage/resume-fork');
  const records = normalize(createReadStream(`${dir}/stdout-1.jsonl`), { harness: 'cline', trace: true });
  const report = await accountUsage(records, { harness: 'cline' });
  expect(asServed(report.total)).toEqual(servedIn(dir));
  expect(asServed(report.total)).toEqual({ calls: 2, input: 7100, output: 180 });
  expect(report.warnings).toEqual([]);
});

/** What the model served, from the capture's log (OpenCode's title request left out: its store does not record it). */
function servedIn(dir: string) {
  const served = (JSON.parse(readFileSync(`${dir}/served.json`, 'utf8')) as Served[]).filter(
    (r) => r.usage && r.conversation !== 'title',
  );
  return {
    calls: served.length,
    input: served.reduce((sum, r) => sum + r.usage!.input, 0),
    output: served.reduce((sum, r) => sum + r.usage!.output, 0),
  };
}

/** As the model counts them: input with its cached part, output with its reasoning part. */
function asServed({ calls, tokens }: UsageRow) {
  return {
    calls,
    input: tokens.input + tokens.cache_read + tokens.cache_write,
    output: tokens.output + tokens.reasoning,
  };
}
