/**
 * The usage join's rule (lib/harnesses/codex/usage-join.ts): whichever side goes out first is the run's usage, never
 * both; the rollout's rows from before the run are not its calls.
 */
import { expect, test } from 'vitest';
import type { Tokens } from '../../../lib/kernel/events.js';
import { usageJoin } from '../../../lib/harnesses/codex/usage-join.js';

const started = Date.parse('2026-12-05T12:00:00.000Z');
const before = '2026-12-05T11:59:59.999Z';
const after = '2026-12-05T12:00:01.000Z';

function sides() {
  const sent: [string, Tokens][] = [];
  const stdout = (tokens: Tokens) => sent.push(['stdout', tokens]);
  const rollout = (tokens: Tokens) => sent.push(['rollout', tokens]);
  return { join: usageJoin(started), sent, stdout, rollout };
}

test("the rollout's rows since the start are the usage; stdout's shares, before or after them, are dropped", () => {
  const { join, sent, stdout, rollout } = sides();
  join.open();
  join.stdout({ input: 10 }, stdout);
  join.rollout({ input: 1 }, before, rollout);
  join.rollout({ input: 4 }, after, rollout);
  join.rollout({ input: 6 }, after, rollout);
  join.stdout({ input: 20 }, stdout);
  join.release(rollout);
  expect(sent).toEqual([
    ['rollout', { input: 4 }],
    ['rollout', { input: 6 }],
  ]);
});

test('a rollout without rows of this run: the shares held go out at its end, later ones at once', () => {
  const { join, sent, stdout, rollout } = sides();
  join.open();
  join.stdout({ input: 10 }, stdout);
  join.rollout({ input: 1 }, before, rollout);
  join.rollout({ input: 2 }, 'no time', rollout);
  join.release(rollout);
  join.stdout({ input: 20 }, stdout);
  expect(sent).toEqual([
    ['rollout', { input: 10 }],
    ['stdout', { input: 20 }],
  ]);
});

test('not found in time: stdout releases what it held; rows found later are not counted again', () => {
  const { join, sent, stdout, rollout } = sides();
  join.open();
  join.stdout({ input: 10 }, stdout);
  join.unhold();
  expect(join.releasing).toBe(true);
  join.release(stdout);
  expect(join.releasing).toBe(false);
  join.rollout({ input: 4 }, after, rollout);
  join.release(rollout);
  expect(sent).toEqual([['stdout', { input: 10 }]]);
});
