/** A cost and its source: the CLI's figure, the table's estimate, or unknown; never $0 for an unpriced model. */
import { beforeAll, expect, test } from 'vitest';
import { costOf } from '../../../lib/runtime/usage/cost.js';
import { dataDates, loadPriceTable, type PriceTable } from '../../../lib/runtime/usage/prices.js';

let table: PriceTable;
beforeAll(async () => {
  table = await loadPriceTable();
});
const date = Object.values(dataDates).at(-1);
// Claude Haiku 4.5: input 1, output 5 per million. 10,000 x 1 + 2,000 x 5 = 20,000 per million.
const haiku = { harness: 'claude-code', model: 'claude-haiku-4-5', tokens: { input: 10_000, output: 2000 } };

test("the CLI's reported cost wins", () => {
  expect(costOf({ ...haiku, reported: 0.5 }, table)).toEqual({ usd: 0.5, source: 'reported' });
  expect(costOf({ ...haiku, reported: 0.5 })).toEqual({ usd: 0.5, source: 'reported' });
});

test('a reported 0 with tokens spent falls through to the estimate; with none spent, 0 is right', () => {
  expect(costOf({ ...haiku, reported: 0 }, table)).toEqual({ usd: 0.02, source: 'estimated', prices_date: date });
  expect(costOf({ ...haiku, tokens: { input: 0 }, reported: 0 }, table)).toEqual({ usd: 0, source: 'reported' });
});

test('a reported figure that is not a cost (NaN, negative) is ignored', () => {
  expect(costOf({ ...haiku, reported: Number.NaN }, table).source).toBe('estimated');
  expect(costOf({ ...haiku, reported: -1 }, table).source).toBe('estimated');
});

test('estimated: the table prices the tokens, at the call time (an ISO string is read)', () => {
  expect(costOf(haiku, table)).toEqual({ usd: 0.02, source: 'estimated', prices_date: date });
  // Gemini 3.6 Flash: 0.75 + 3.75 per million before 2027-01-01, then 1.5 + 7.5.
  const flash = { harness: 'gemini', model: 'gemini-3.6-flash', tokens: { input: 1_000_000, output: 1_000_000 } };
  expect(costOf({ ...flash, at: '2026-12-31T23:59:59.000Z' }, table).usd).toBe(4.5);
  expect(costOf({ ...flash, at: '2027-01-01T00:00:00.000Z' }, table).usd).toBe(9);
});

test('unknown: no model, an unpriced model, or no table (the price peer missing); never $0', () => {
  expect(costOf({ harness: 'claude-code', tokens: haiku.tokens }, table)).toEqual({ source: 'unknown' });
  expect(costOf({ harness: 'qwen', model: 'qwen3-coder-plus', tokens: { input: 5 } }, table)).toEqual({
    source: 'unknown',
  });
  expect(costOf(haiku)).toEqual({ source: 'unknown' });
});

test('a subscription run is marked so, whatever the source', () => {
  expect(costOf({ ...haiku, subscription: true }, table)).toEqual({
    usd: 0.02,
    source: 'estimated',
    prices_date: date,
    subscription: true,
  });
  expect(costOf({ ...haiku, model: 'opus', subscription: true }, table)).toEqual({
    source: 'unknown',
    subscription: true,
  });
  expect(costOf({ ...haiku, reported: 1, subscription: false }, table)).toEqual({ usd: 1, source: 'reported' });
});
