/**
 * A run's budget (`spawnHarness({ budget })`, `run --max-cost`, `--max-tokens`): the run's own `usage` events, each
 * counted once as it arrives, priced by costOf, or, for a harness whose events give only the run's total, the model
 * calls its stdout records tell of (budget-calls.ts), or the model calls its companion file says (Codex's rollout),
 * which stand for its usage events; past the budget the run is stopped as at its timeout (docs/run-contract.md
 * "Budgets"). A budget in USD that cannot be priced is an error at the call, never a silent pass.
 */
import type { HarnessEvent, RunMetrics, Tokens } from '../../kernel/events.js';
import { isObject } from '../../kernel/json.js';
import { callFigures } from './budget-calls.js';
import { costOf, roundUsd } from '../usage/cost.js';
import type { PriceTable } from '../usage/prices.js';
import type { LimitError } from './deadlines.js';

/** What a run may use before it is stopped (`spawnHarness({ budget })`): either bound, or both. */
export interface Budget {
  /** USD the run may spend: the CLI's reported cost where it gives one, else the `prices` estimate. */
  usd?: number;
  /** Tokens the run may use, every class counted (input, output, cache reads and writes, reasoning). */
  tokens?: number;
  /** The price table (`await loadPriceTable()`), needed for `usd`; the model must be in it. */
  prices?: PriceTable;
  /** The model to price the tokens at: default the run's `model` (give it here with `command` and `args`). */
  model?: string;
}

/** What the run had used when it ended (or was stopped). */
export interface Spent {
  /** Every token class summed. */
  tokens: number;
  /** With a budget in USD. */
  usd?: number;
}

export interface BudgetWatch {
  /**
   * What the run's result tells: `spent`. A run without usage events (a harness that reports only the run's total)
   * is counted by its metrics' total, at its end.
   */
  told(metrics: RunMetrics): { spent: Spent };
  /** Counts `event` (every usage event, also past the budget); the first to pass it calls `stop` with the message. */
  see(event: HarnessEvent, stop: (error: LimitError) => void): void;
  /** Counts what a stdout record (each parsed line) says of a model call (budget-calls.ts), as `see` does. */
  record(record: unknown, stop: (error: LimitError) => void): void;
  /** Counts a model call the run's companion file said (each once): from the first, they stand for the usage events. */
  call(call: { tokens?: Tokens; cost?: number; at?: string }, stop: (error: LimitError) => void): void;
  /** The run's outputs are all read: with a companion file, its usage events are checked now if no call stood in. */
  settled(stop: (error: LimitError) => void): void;
}

/** Calls whose figures are kept, to count only what a later line of the same call adds; past it the oldest go. */
const MAX_CALLS = 1024;

const isAmount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * The watch for `budget`, or undefined without one. Throws at once for a budget that is not one, and for a budget
 * in USD without a price for the run's model.
 */
export function watchBudget(
  budget: Budget | undefined,
  /** `companion`: the run joins a file that may say its model calls: its usage events wait for the run's end. */
  run: { harness: string; model?: string; command: string; companion?: boolean },
): BudgetWatch | undefined {
  if (budget === undefined) return undefined;
  if (!isObject(budget as unknown) || (budget.usd === undefined && budget.tokens === undefined))
    throw new TypeError('spawnHarness: budget must be an object with usd, tokens or both');
  if (budget.usd !== undefined && !isAmount(budget.usd))
    throw new TypeError(`spawnHarness: budget.usd must be a number of USD (0 or more), got ${String(budget.usd)}`);
  if (budget.tokens !== undefined && !(Number.isSafeInteger(budget.tokens) && budget.tokens >= 0))
    throw new TypeError(`spawnHarness: budget.tokens must be a whole number (0 or more), got ${String(budget.tokens)}`);
  const { usd: maxUsd, tokens: maxTokens, prices } = budget;
  const model = budget.model ?? run.model;
  if (maxUsd !== undefined && (model === undefined || !priced(run.harness, model, prices)))
    throw new TypeError(
      `spawnHarness: a budget in USD needs the cost of the run's model (${model ?? 'no model given'}), and it is ` +
        'unknown: give model and budget.prices (loadPriceTable(), with an overrides file for a model it misses), ' +
        'or a budget in tokens',
    );
  const none = (): Spent => ({ tokens: 0, ...(maxUsd === undefined ? {} : { usd: 0 }) });
  // Two counts of the same calls, each short of the truth: the usage events, and the stdout records' figures; and the
  // companion file's calls, exact (a resumed Codex run's first usage event is the thread's total, over the truth).
  const [events, calls, said] = [none(), none(), none()];
  const figures = new Map<string, Tokens>();
  let [seen, passed, saidAny] = [false, false, false];
  const count = (into: Spent, tokens: Tokens, reported: number | undefined, at?: string) => {
    into.tokens += Object.values(tokens).reduce((sum, n) => sum + (n ?? 0), 0);
    if (into.usd === undefined) return;
    const usd = costOf({ harness: run.harness, model, tokens, reported, at }, prices).usd ?? 0;
    into.usd = roundUsd(into.usd + usd);
  };
  const spent = () => (saidAny ? said : calls.tokens > events.tokens ? calls : events);
  const check = (stop: (error: LimitError) => void) => {
    const { tokens, usd } = spent();
    if (passed) return;
    const over =
      maxTokens !== undefined && tokens > maxTokens
        ? `${tokens} tokens, past its budget of ${maxTokens}`
        : maxUsd !== undefined && usd! > maxUsd
          ? `$${usd}, past its budget of $${maxUsd}`
          : undefined;
    if (over === undefined) return;
    passed = true;
    stop({ type: 'error', code: 'budget', message: `${run.command} used ${over}, and was stopped` });
  };
  const figureOf = callFigures[run.harness];
  return {
    told(metrics) {
      if (saidAny) return { spent: { ...said } };
      if (seen) return { spent: { ...events } };
      // The run's total (its result) is exact where it came: the figures fall short of it (Claude Code's output).
      const total = none();
      count(total, metrics.tokens, metrics.cost);
      return { spent: { ...(calls.tokens > total.tokens ? calls : total) } };
    },
    see(event, stop) {
      if (event.type !== 'usage') return;
      seen = true;
      count(events, event.tokens, event.cost, event.timestamp);
      if (!run.companion) check(stop);
    },
    record(record, stop) {
      const figure = isObject(record) ? figureOf?.(record) : undefined;
      if (figure === undefined) return;
      const before = figures.get(figure.id) ?? {};
      const after = { ...before };
      const added: Tokens = {};
      for (const [name, n] of Object.entries(figure.tokens) as [keyof Tokens, number | undefined][]) {
        const more = (n ?? 0) - (before[name] ?? 0);
        if (more > 0) [added[name], after[name]] = [more, n];
      }
      figures.delete(figure.id);
      figures.set(figure.id, after);
      if (figures.size > MAX_CALLS) figures.delete(figures.keys().next().value!);
      if (Object.keys(added).length === 0) return;
      count(calls, added, undefined);
      check(stop);
    },
    call(call, stop) {
      saidAny = true;
      count(said, call.tokens ?? {}, call.cost, call.at);
      check(stop);
    },
    settled(stop) {
      if (run.companion) check(stop);
    },
  };
}

function priced(harness: string, model: string, prices: PriceTable | undefined): boolean {
  return costOf({ harness, model, tokens: { input: 1 } }, prices).source === 'estimated';
}
