/**
 * What a call or a run cost, and how we know: the CLI's own figure, an estimate from the price table, or unknown.
 * Never $0 for a model nobody priced (docs/library.md "Prices and costs").
 */
import type { Tokens } from '../../kernel/events.js';
import type { PriceTable } from './prices.js';

/** A cost and how it is known (`costOf`). */
export interface Cost {
  /** USD; absent when unknown. */
  usd?: number;
  /** The CLI's own figure, the price table's estimate, or unknown (never $0 for a model nobody priced). */
  source: 'reported' | 'estimated' | 'unknown';
  /** The price table's date, for an estimate. */
  prices_date?: string;
  /** The run was on a subscription (a CLI logged in to a plan): `usd` is what the API would have charged. */
  subscription?: true;
}

/** What `costOf` prices: one model call, or a run's total where only that is known. */
export interface CostInput {
  /** The harness, which names the provider of its bare model names. */
  harness?: string;
  /** The model's name as the CLI reported it; without one, an estimate is not possible. */
  model?: string;
  /** The tokens, by class (docs/events.md). */
  tokens: Tokens;
  /** The cost the CLI reported for these tokens, if it did. */
  reported?: number;
  /** When the call was made (a Date or an ISO time): date-ranged prices apply from it. */
  at?: Date | string;
  /** Mark the cost as a subscription's. */
  subscription?: boolean;
}

/** Whether any token was spent. */
export function spent(tokens: Tokens): boolean {
  return Object.values(tokens).some((count) => count !== undefined && count > 0);
}

/** USD rounded to a billionth of a dollar: sums of float prices then compare exactly. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/**
 * The cost of `input`: the CLI's reported cost, unless it reported 0 with tokens spent; else the table's estimate;
 * else unknown (also without a table: the price peer missing).
 */
export function costOf(input: CostInput, table?: PriceTable): Cost {
  const mark = input.subscription === true ? { subscription: true as const } : {};
  const { reported } = input;
  if (reported !== undefined && Number.isFinite(reported) && reported >= 0 && (reported > 0 || !spent(input.tokens)))
    return { usd: reported, source: 'reported', ...mark };
  const at = typeof input.at === 'string' ? new Date(input.at) : input.at;
  const usd =
    table === undefined || input.model === undefined
      ? undefined
      : table.usd({
          ...(input.harness === undefined ? {} : { harness: input.harness }),
          model: input.model,
          tokens: input.tokens,
          ...(at === undefined || Number.isNaN(at.getTime()) ? {} : { at }),
        });
  if (usd === undefined) return { source: 'unknown', ...mark };
  return {
    usd: roundUsd(usd),
    source: 'estimated',
    ...(table?.date === undefined ? {} : { prices_date: table.date }),
    ...mark,
  };
}
