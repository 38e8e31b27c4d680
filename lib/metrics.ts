import type { RunMetrics, Tokens } from './events.js';

import type { Harness } from './harness.js';

export function createMetrics(harness: Harness): RunMetrics {
  const metrics: RunMetrics = { harness: harness.name, tokens: {}, input: { bytes: 0, lines: 0, rules: {} }, events: {} };
  if (harness.terminal !== undefined) metrics.ended = false;
  return metrics;
}

const tokenClasses = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

/** Adds `more` into `total`, class by class; a class stays absent until some turn reports it. */
export function addTokens(total: Tokens, more: Tokens): void {
  for (const name of tokenClasses) {
    const value = more[name];
    if (value !== undefined) total[name] = (total[name] ?? 0) + value;
  }
}

/** A token count as the contract allows it (a non-negative integer), or undefined. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
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
