/**
 * Budgets for harnesses whose events give usage only as the run's total (lib/runtime/run/budget-calls.ts): a real
 * child prints a real capture's lines, then hangs, and the budget stops it at the model call that passes it, counted
 * from the stdout records. Claude Code (test/fixtures/claude-code/lab/parallel.jsonl): message msg_fake_main_0 on
 * lines 1-4 (one per content block, each repeating its usage: 120 input, output 1), msg_fake_main_1 on lines 8-10,
 * msg_fake_main_2 on line 13, the result (360 input, 75 output) on line 14. Qwen Code
 * (test/fixtures/qwen/lab/files.jsonl): its assistant lines carry each call's usage, input counting the cached tokens:
 * 6,000 + 80 out, then 6,400 (6,000 cached) + 120 out, ...
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnHarness, type PriceTable } from '../../../lib/index.js';
import { bodies } from '../../helpers.js';
import { captureLines, eventsOf, playing, rejection, roundPrices } from './budget-capture.js';
import { collect, node, script } from './scripted-child.js';

const claude = captureLines('claude-code/lab/parallel.jsonl');
const qwen = captureLines('qwen/lab/files.jsonl');

let prices: PriceTable;
beforeAll(async () => {
  prices = await roundPrices();
});

describe('Claude Code: each API message counted once, from its first line', () => {
  test('past 200 tokens at the second message (121 + 121), not at the first one restated by its blocks', async () => {
    // The child prints lines 0-8: up to msg_fake_main_1's first line. Counting each block would pass at line 2.
    const run = spawnHarness({ harness: 'claude-code', budget: { tokens: 200 }, ...playing(claude, 9) });
    const message = `${node} used 242 tokens, past its budget of 200, and was stopped`;
    const events = bodies(await collect(run));
    // The error comes with the line that passed it, before that message's own events: after msg_fake_main_0's four.
    const first = bodies(await eventsOf('claude-code', claude.slice(0, 8))).slice(0, 4);
    expect(events.slice(0, 5)).toEqual([...first, { type: 'error', code: 'budget', message }]);
    expect(await rejection(run.done)).toMatchObject({ reason: 'budget', message, spent: { tokens: 242 } });
  });

  test("a run within its budget tells the result's total, which has the output the lines do not", async () => {
    const run = spawnHarness({
      harness: 'claude-code',
      budget: { tokens: 1000 },
      ...script([...claude.map((out) => ({ out })), { exit: 0 }]),
    });
    await collect(run);
    // The lines say 3 x 121 = 363; the result 360 + 75 = 435.
    expect(await run.done).toMatchObject({ failed: false, spent: { tokens: 435 } });
  });
});

describe("Qwen Code: each call's whole usage", () => {
  test('in USD: $0.0068, then $0.0076 more passes $0.01 at the second call', async () => {
    // 6,000 x 1 + 80 x 10 = 6,800 per million; (400 + 6,000) x 1 + 120 x 10 = 7,600.
    const budget = { usd: 0.01, prices, model: 'fake-model' };
    // The child prints lines 0-8: up to the second call's assistant line.
    const run = spawnHarness({ harness: 'qwen', budget, ...playing(qwen, 9) });
    const message = `${node} used $0.0144, past its budget of $0.01, and was stopped`;
    expect(bodies(await collect(run))).toContainEqual({ type: 'error', code: 'budget', message });
    expect(await rejection(run.done)).toMatchObject({ reason: 'budget', spent: { tokens: 12_600, usd: 0.0144 } });
  });
});
