import type { RunMetrics, Tokens } from './events.js';

import type { Harness } from './harness.js';

/** A run's metrics before anything is read: the harness's name and empty counts (a correlator's starting point). */
export function createMetrics(harness: Harness): RunMetrics {
  const metrics: RunMetrics = {
    harness: harness.name,
    tokens: {},
    input: { bytes: 0, lines: 0, rules: {} },
    events: {},
  };
  if (harness.terminal !== undefined) metrics.ended = false;
  return metrics;
}

/**
 * The correlator's note to the classifier: the run's metrics, where the classifier counts each
 * event it lets out. It goes out before the correlator's first event and no further than the
 * classifier, so hand-joined stages count what the normalizer counts.
 */
export class MetricsNote {
  constructor(
    /** The run's metrics. */
    readonly metrics: RunMetrics,
  ) {}
}

/** Counts an event of `type` as one the run gave. */
export function countEvent(metrics: RunMetrics, type: string): void {
  metrics.events[type] = (metrics.events[type] ?? 0) + 1;
}

const tokenClasses = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

/** Adds `more` into `total`, class by class; a class stays absent until some turn reports it. */
export function addTokens(total: Tokens, more: Tokens): void {
  for (const name of tokenClasses) {
    const value = more[name];
    if (value !== undefined) total[name] = (total[name] ?? 0) + value;
  }
}

/**
 * The largest count or amount read from a harness. JSON's `1e400` parses to Infinity and
 * `1e308 + 1e308` overflows to it; capping each value at 2^53 keeps every value exact and every
 * sum finite (it would take 10^292 additions to overflow), so events and metrics stay valid JSON
 * against the schemas.
 */
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/** A token count as the contract allows it (a non-negative integer, at most 2^53), or undefined. */
export function tokenCount(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/**
 * A non-negative finite amount (a cost in USD, a duration in ms), or undefined: NaN, Infinity, negatives and absurd
 * values are dropped.
 */
export function amount(value: unknown): number | undefined {
  return typeof value === 'number' && value >= 0 && value <= MAX_AMOUNT ? value : undefined;
}

/**
 * A count the harness reports inside a larger one (Codex's and Copilot's cached input inside
 * their input count): the rest, at least 0; the whole alone when the part is not reported.
 */
export function excluding(whole: number | undefined, part: number | undefined): number | undefined {
  return whole !== undefined && part !== undefined ? Math.max(0, whole - part) : whole;
}

/** Builds a Tokens object from the classes that are reported, leaving the others absent. */
export function tokensOf(classes: { [K in keyof Tokens]: unknown }): Tokens {
  const tokens: Tokens = {};
  for (const name of tokenClasses) {
    const value = tokenCount(classes[name]);
    if (value !== undefined) tokens[name] = value;
  }
  return tokens;
}
