/**
 * `spawnHarness({ budget })` with a real child printing a real OpenCode capture's lines (its four steps use 2,530,
 * 2,730, 2,925 and 3,140 tokens, at a reported cost of 0), then hanging as an agent that goes on: the budget stops
 * it as a timeout does. No sleeps: the child hangs until it is ended.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnHarness, type PriceTable } from '../../../lib/index.js';
import { bodies } from '../../helpers.js';
import {
  captureLines,
  eventsOf as eventsFrom,
  playing as replaying,
  rejection,
  roundPrices,
} from './budget-capture.js';
import { collect, node, result, script } from './scripted-child.js';

const capture = captureLines('opencode/lab/read.jsonl');
/** The child: the capture's first `count` lines, then it hangs. */
const playing = (count: number) => replaying(capture, count);
const eventsOf = (lines: string[]) => eventsFrom('opencode', lines);
/** The capture's lines 1-7: its first two steps. */
const twoSteps = 7;

let prices: PriceTable;
beforeAll(async () => {
  prices = await roundPrices();
});

describe('a budget stops the run as a timeout does', () => {
  test('in tokens: the step that passes it (2,530 + 2,730 = 5,260 > 5,000) is the last; reason budget', async () => {
    const run = spawnHarness({ harness: 'opencode', budget: { tokens: 5000 }, ...playing(twoSteps) });
    const message = `${node} used 5260 tokens, past its budget of 5000, and was stopped`;
    const events = bodies(await collect(run));
    expect(events).toEqual([
      ...bodies(await eventsOf(capture.slice(0, twoSteps))),
      { type: 'error', code: 'budget', message },
    ]);
    const error = await rejection(run.done);
    expect(error).toMatchObject({
      reason: 'budget',
      code: 'ERR_HARNESS_BUDGET',
      message,
      spent: { tokens: 5260 },
      timedOut: false,
      isCanceled: false,
      signal: 'SIGTERM',
    });
    expect(error.metrics.failure).toBe('limit');
  });

  test('in USD: the reported 0 with tokens spent is estimated from the prices; past $0.005 at $0.0058', async () => {
    // Step 1: 2,500 x 1 + 30 x 10 = 2,800 per million; step 2: (300 + 2,400) x 1 + 30 x 10 = 3,000.
    const budget = { usd: 0.005, prices, model: 'fake-model' };
    const run = spawnHarness({ harness: 'opencode', budget, ...playing(twoSteps) });
    const message = `${node} used $0.0058, past its budget of $0.005, and was stopped`;
    expect(bodies(await collect(run)).at(-1)).toEqual({ type: 'error', code: 'budget', message });
    expect(await rejection(run.done)).toMatchObject({ reason: 'budget', spent: { tokens: 5260, usd: 0.0058 } });
  });

  test('a run within its budget ends as it would, and tells what it spent', async () => {
    // Steps 3 and 4: (300 + 2,600) x 1 + 25 x 10 = 3,150; (300 + 2,800) x 1 + 40 x 10 = 3,500 per million.
    const steps = script([...capture.map((out) => ({ out })), { exit: 0 }]);
    const budget = { usd: 1, tokens: 11_325, prices, model: 'fake-model' };
    const run = spawnHarness({ harness: 'opencode', budget, ...steps });
    expect(bodies(await collect(run))).toEqual(bodies(await eventsOf(capture)));
    expect(await run.done).toMatchObject({ failed: false, spent: { tokens: 11_325, usd: 0.01245 } });
  });

  test("a harness that reports only the run's total (Claude Code) is counted by it at the end", async () => {
    // Claude Haiku 4.5: 5 x 1 + 7 x 5 = 40 per million; the result reports no cost.
    const budget = { tokens: 100, usd: 1, prices, model: 'claude-haiku-4-5' };
    const run = spawnHarness({ harness: 'claude-code', budget, ...script([{ out: result }, { exit: 0 }]) });
    await collect(run);
    expect(await run.done).toMatchObject({ failed: false, spent: { tokens: 12, usd: 0.00004 } });
  });

  test('without a budget the result has no spent', async () => {
    const run = spawnHarness({ harness: 'opencode', ...script([{ exit: 0 }]) });
    await collect(run);
    expect(await run.done).not.toHaveProperty('spent');
  });
});

describe('a budget that cannot be kept is an error at the call, before anything starts', () => {
  const start = (budget: object | number, model?: string) => () =>
    spawnHarness({
      harness: 'opencode',
      budget: model === undefined ? budget : { ...(budget as object), model },
      ...script([{ exit: 0 }]),
    } as never);
  test('USD without a price for the model: none given, no table, a model the table misses', () => {
    const unknown = (model: string) =>
      `spawnHarness: a budget in USD needs the cost of the run's model (${model}), and it is unknown: give model and ` +
      'budget.prices (loadPriceTable(), with an overrides file for a model it misses), or a budget in tokens';
    expect(start({ usd: 1, prices })).toThrow(new TypeError(unknown('no model given')));
    expect(start({ usd: 1 }, 'fake-model')).toThrow(new TypeError(unknown('fake-model')));
    expect(start({ usd: 1, prices }, 'qwen3-coder-plus')).toThrow(new TypeError(unknown('qwen3-coder-plus')));
  });
  test.each([
    ['a number', 5, 'spawnHarness: budget must be an object, got 5'],
    ['empty', {}, 'spawnHarness: budget must be an object with usd, tokens or both'],
    ['negative USD', { tokens: 5, usd: -1 }, 'spawnHarness: budget.usd must be a number of USD (0 or more), got -1'],
    ['fractional tokens', { tokens: 1.5 }, 'spawnHarness: budget.tokens must be a whole number (0 or more), got 1.5'],
  ])('%s', (_, budget, message) => {
    expect(start(budget)).toThrow(new TypeError(message));
  });
});

test('a budget of 0 tokens stops the run at its first usage; the model call, when given with a prompt', async () => {
  const run = spawnHarness({ harness: 'opencode', budget: { tokens: 0 }, ...playing(4) });
  await collect(run);
  expect(await rejection(run.done)).toMatchObject({ reason: 'budget', spent: { tokens: 2530 } });
  // With a prompt, the run's own model prices it (the command line is the library's: not started here).
  const prompted = () =>
    spawnHarness({ harness: 'opencode', prompt: 'hi', model: 'qwen3-coder-plus', budget: { usd: 1, prices } });
  expect(prompted).toThrow("the cost of the run's model (qwen3-coder-plus), and it is unknown");
});
