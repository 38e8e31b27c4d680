/**
 * What the budget tests share: a capture's lines, a child that prints some of them and then hangs (an agent that
 * goes on, ended only by the budget), the events the same lines normalize to, a run's rejection, and a price table
 * of round figures (1 USD a million input tokens, cache reads at that price too; 10 a million output tokens).
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { HarnessRunError, loadPriceTable, normalize, type HarnessName, type PriceTable } from '../../../lib/index.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { script } from './scripted-child.js';

/** A capture's lines (test/fixtures/<path>), each with its line break. */
export const captureLines = (path: string): string[] =>
  readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${line}\n`);

/** The child: the capture's first `count` lines, then it hangs. */
export const playing = (capture: string[], count: number) =>
  script([...capture.slice(0, count).map((out) => ({ out })), { hang: true }]);

/** The events these lines normalize to. */
export async function eventsOf(harness: HarnessName, lines: string[]): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of normalize(Readable.from(lines), { harness })) events.push(event);
  return events;
}

/** The error a run's `done` rejects with. */
export async function rejection(done: Promise<unknown>): Promise<HarnessRunError> {
  const settled = await done.then(
    (result) => result,
    (error: unknown) => error,
  );
  expect(settled).toBeInstanceOf(HarnessRunError);
  return settled as HarnessRunError;
}

/** The round-figure table: `fake-model` at 1 USD a million input tokens, 10 a million output tokens. */
export const roundPrices = (): Promise<PriceTable> =>
  loadPriceTable({ overrides: { 'fake-model': { input: 1, output: 10 } } });
