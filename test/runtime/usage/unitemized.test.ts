/**
 * A run's own total beyond its calls (lib/runtime/usage/unitemized.ts, calls.ts, account.ts; docs/usage.md "From
 * stdout"): the rest is accounted as tokens no call itemizes, counted once however often the run is read, never
 * making the run count more than its total, and not at all when the total is below the calls' sum. Each expected
 * figure is worked out by hand from the records above it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { accountUsage, loadPriceTable } from '../../../lib/index.js';
import type { Tokens } from '../../../lib/kernel/events.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const at = (second: number) => `2026-12-01T10:00:0${second}.000Z`;
const started: TraceRecord = { kind: 'run_started', v: 1, harness: 'claude-code', at: at(0), at_source: 'harness' };

function call(id: string, model: string, input: number, output: number): TraceRecord {
  return { kind: 'model_call', model_call_id: id, model, tokens: { input, output }, at: at(1), at_source: 'harness' };
}

function ended(tokens: Tokens, models?: Record<string, Tokens>): TraceRecord {
  return {
    kind: 'run_ended',
    at: '2026-12-02T08:00:00.000Z',
    at_source: 'observed',
    tokens,
    ...(models && { models }),
  };
}

const totals = (input: number, output: number) => ({ input, output, cache_read: 0, cache_write: 0, reasoning: 0 });

/** A run with one call (1,000 in, 100 out) whose own total is 1,500 in, 140 out: 500 and 40 unitemized. */
const run = [
  started,
  call('msg_1', 'claude-opus-5-5', 1_000, 100),
  ended({ input: 1_500, output: 140 }, { 'claude-opus-5-5': { input: 1_500, output: 140 } }),
];

test("the run's total beyond its calls: its tokens, no call, at the run's own latest time", async () => {
  const { total, rows } = await accountUsage(run, { by: ['subagent'] });
  expect(total).toMatchObject({ calls: 1, tokens: totals(1_500, 140), unitemized: totals(500, 40) });
  // The rest's time is the run's latest from its own records (the call's), not when the trace was read.
  expect([total.first, total.last]).toEqual([at(1), at(1)]);
  // Which agent used it is not known.
  expect(rows.map((row) => [row.group.subagent, row.calls, row.tokens.input])).toEqual([
    ['(main)', 1, 1_000],
    ['(unitemized)', 0, 500],
  ]);
});

test('read twice, in one stream or through the ledger: counted once', async () => {
  const twice = await accountUsage([...run, ...run]);
  expect(twice.total).toMatchObject({ calls: 1, tokens: totals(1_500, 140), unitemized: totals(500, 40) });
  expect(twice.duplicates).toBe(2);
  const dir = mkdtempSync(join(tmpdir(), 'he-unitemized-'));
  dirs.push(dir);
  const ledger = join(dir, 'ledger.jsonl');
  await accountUsage(run, { ledger });
  const again = await accountUsage(run, { ledger });
  expect(again.total).toMatchObject({ calls: 1, tokens: totals(1_500, 140), unitemized: totals(500, 40) });
  expect(again.duplicates).toBe(2);
  const lines = readFileSync(ledger, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((line) => [line.v, line.model_call_id, line.tokens, line.unitemized])).toEqual([
    [2, 'msg_1', { input: 1_000, output: 100 }, undefined],
    [2, undefined, { input: 500, output: 40 }, true],
  ]);
});

test('a call counted before (another file, the ledger) still leaves the run at its total, never above', async () => {
  const report = await accountUsage([started, call('msg_1', 'claude-opus-5-5', 1_000, 100), ...run]);
  expect(report.total).toMatchObject({ calls: 1, tokens: totals(1_500, 140) });
});

test("a total below its calls' sum in some class is not the calls' total: the calls stand", async () => {
  const below = [started, call('msg_1', 'claude-opus-5-5', 1_000, 100), ended({ input: 1_500, output: 90 })];
  const { total } = await accountUsage(below);
  expect(total).toMatchObject({ calls: 1, tokens: totals(1_000, 100), unitemized: totals(0, 0) });
});

test('by model where the total says which model used what; priced like a call of that model', async () => {
  const prices = await loadPriceTable({
    overrides: { big: { input: 10, output: 100 }, small: { input: 1, output: 2 } },
  });
  const split = [
    started,
    call('msg_1', 'big', 1_000, 100),
    ended({ input: 3_000, output: 300 }, { big: { input: 1_000, output: 100 }, small: { input: 2_000, output: 200 } }),
  ];
  const { rows } = await accountUsage(split, { by: ['model'], prices });
  expect(rows.map((row) => [row.group.model, row.calls, row.tokens.input, row.unitemized.input, row.cost.usd])).toEqual(
    [
      // 1,000 x 10 + 100 x 100 per million; the small model's 2,000 x 1 + 200 x 2.
      ['big', 1, 1_000, 0, 0.02],
      ['small', 0, 2_000, 2_000, 0.0024],
    ],
  );
  // A call whose model the total does not name: the rest is one part, its model not known, its cost unknown.
  const unnamed = [started, call('msg_1', 'other', 1_000, 100), ...split.slice(2)];
  const other = await accountUsage(unnamed, { by: ['model'], prices });
  expect(other.rows.map((row) => [row.group.model, row.calls, row.unitemized.input, row.cost.source])).toEqual([
    ['(unknown)', 0, 2_000, 'unknown'],
    ['other', 1, 0, 'unknown'],
  ]);
});
