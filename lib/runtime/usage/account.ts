/**
 * The account: every call added once (by its `id`), summed into one row per group (docs/usage.md). Pure: what it
 * holds is the ids seen and one row per group value, not the calls.
 */
import type { Tokens } from '../../kernel/events.js';
import { costOfCall, type UsageCall, type UsageCost } from './call.js';
import { roundUsd, type Cost } from './cost.js';
import { groupValue, type UsageGroup } from './group.js';
import type { PriceTable } from './prices.js';

/** The version of a row's shape (`v`): a row changes shape only with a new version (2: `unitemized`). */
export const USAGE_ROW_VERSION = 2;

/** Every token class, each a number (0 when no call reported it). */
export type TokenTotals = Required<Tokens>;

/** One group's totals: `harness-events usage --json` prints one per line. */
export interface UsageRow {
  /** The row's version (2). */
  v: typeof USAGE_ROW_VERSION;
  /** The row's group: one field per `by`, e.g. `{ day: '2026-12-01', model: 'gpt-5.5' }`; empty for the total. */
  group: Partial<Record<UsageGroup, string>>;
  /** Model calls counted (each once). */
  calls: number;
  /** Their tokens, every class, with those no call itemizes (`unitemized`). */
  tokens: TokenTotals;
  /**
   * Of `tokens`, those no counted call itemizes: a run's own reported total beyond the calls its stdout gives one by
   * one (docs/usage.md "From stdout"); 0 in every class when none.
   */
  unitemized: TokenTotals;
  /** Their cost, and how it is known: `reported`, `estimated` (with the price table's date) or `unknown`. */
  cost: UsageCost;
  /** The first call's time (ISO 8601, UTC), or a run's end, for its unitemized tokens. */
  first: string;
  /** The last call's time. */
  last: string;
}

/** A row being summed. */
interface Sum {
  group: Partial<Record<UsageGroup, string>>;
  /** What was added: calls, and runs' unitemized tokens. */
  entries: number;
  calls: number;
  tokens: TokenTotals;
  unitemized: TokenTotals;
  usd: number;
  priced: number;
  estimated: boolean;
  prices_date?: string;
  /** Entries on a subscription, those of them priced, and the part of `usd` that is theirs. */
  planCalls: number;
  planPriced: number;
  planUsd: number;
  first: string;
  last: string;
}

/** How calls are grouped and priced. */
export interface AccountOptions {
  /** The groups of a row, in order. Default: none (one row, the total). */
  by?: readonly UsageGroup[];
  /** The zone days, weeks and months are taken in (IANA name). Default: this process's. */
  tz?: string;
  /**
   * The price table (`loadPriceTable()`) costs are estimated from where the CLI reports none. Without it, a call the
   * CLI did not price is `unknown`.
   */
  prices?: PriceTable;
  /**
   * The harnesses whose calls were made on a subscription (a CLI logged in to a plan): their cost is marked, `usd`
   * being what the API would have charged (docs/usage.md "Subscriptions").
   */
  subscription?: readonly string[];
}

const zero = (): TokenTotals => ({ input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 });

function newSum(group: Sum['group'], at: string): Sum {
  const [usd, priced, planCalls, planPriced, planUsd] = [0, 0, 0, 0, 0];
  const plan = { planCalls, planPriced, planUsd };
  const tokens = { tokens: zero(), unitemized: zero() };
  return { group, entries: 0, calls: 0, ...tokens, usd, priced, estimated: false, ...plan, first: at, last: at };
}

export class UsageAccount {
  private readonly seen = new Set<string>();
  private readonly sums = new Map<string, Sum>();
  private readonly total: Sum = newSum({}, '');
  private readonly by: readonly UsageGroup[];
  /** Calls given again (the same id): restated by a fork, a resume or another file, counted once. */
  duplicates = 0;

  constructor(private readonly options: AccountOptions = {}) {
    this.by = options.by ?? [];
  }

  /** Counts the call unless its id was counted already; says whether it was new. */
  add(call: UsageCall): boolean {
    if (this.seen.has(call.id)) {
      this.duplicates++;
      return false;
    }
    this.seen.add(call.id);
    const group = Object.fromEntries(this.by.map((name) => [name, groupValue(call, name, this.options.tz)]));
    const key = JSON.stringify(this.by.map((name) => group[name]));
    let sum = this.sums.get(key);
    if (sum === undefined) this.sums.set(key, (sum = newSum(group, call.at)));
    const cost = costOfCall(call, this.options.prices, this.options.subscription?.includes(call.harness));
    for (const into of [sum, this.total]) addCall(into, call, cost);
    return true;
  }

  /** The rows, sorted by their groups' values. */
  rows(): UsageRow[] {
    return [...this.sums.values()].sort((a, b) => compareGroups(a.group, b.group, this.by)).map(rowOf);
  }

  /** Every call's totals in one row (its `group` empty). */
  totals(): UsageRow {
    return rowOf(this.total);
  }
}

function addCall(sum: Sum, call: UsageCall, cost: Cost): void {
  if (sum.entries === 0 || call.at < sum.first) sum.first = call.at;
  if (sum.entries === 0 || call.at > sum.last) sum.last = call.at;
  sum.entries++;
  if (!call.unitemized) sum.calls++;
  for (const name of Object.keys(sum.tokens) as (keyof TokenTotals)[]) {
    sum.tokens[name] += call.tokens[name] ?? 0;
    if (call.unitemized) sum.unitemized[name] += call.tokens[name] ?? 0;
  }
  if (cost.subscription) sum.planCalls++;
  if (cost.usd === undefined) return;
  sum.usd += cost.usd;
  if (cost.subscription) [sum.planPriced, sum.planUsd] = [sum.planPriced + 1, sum.planUsd + cost.usd];
  sum.priced++;
  if (cost.source === 'estimated') sum.estimated = true;
  if (cost.prices_date !== undefined) sum.prices_date = cost.prices_date;
}

function rowOf(sum: Sum): UsageRow {
  const unpriced = sum.entries - sum.priced;
  let cost: UsageCost;
  if (sum.priced === 0) cost = { source: sum.entries === 0 ? 'reported' : 'unknown' };
  else if (unpriced > 0) cost = { usd: roundUsd(sum.usd), source: 'unknown', unpriced };
  else cost = { usd: roundUsd(sum.usd), source: sum.estimated ? 'estimated' : 'reported' };
  if (sum.prices_date !== undefined) cost.prices_date = sum.prices_date;
  if (sum.planPriced > 0) cost.subscription_usd = roundUsd(sum.planUsd);
  if (sum.planCalls > 0 && sum.planCalls === sum.entries) cost.subscription = true;
  if (sum.entries === 0) cost.usd = 0;
  const { group, calls, first, last } = sum;
  const tokens = { tokens: { ...sum.tokens }, unitemized: { ...sum.unitemized } };
  return { v: USAGE_ROW_VERSION, group, calls, ...tokens, cost, first, last };
}

function compareGroups(a: Sum['group'], b: Sum['group'], by: readonly UsageGroup[]): number {
  for (const name of by) {
    const [x, y] = [a[name] ?? '', b[name] ?? ''];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
