/**
 * A run's tokens no call itemizes (docs/usage.md "From stdout"): where the run's records end with its own total
 * (`run_ended.tokens`), what that total has beyond the calls counted from the same records, by model where the total
 * says which model used them. Pure.
 */
import type { Tokens } from '../../kernel/events.js';
import { addTokens } from '../../kernel/metrics.js';

const classes = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

/** A run's own total, as `run_ended` gives it. */
export interface ReportedTotal {
  tokens: Tokens;
  models?: Record<string, Tokens>;
}

/** Tokens no call itemizes, and the model that used them where it is known. */
export interface Unitemized {
  model?: string;
  tokens: Tokens;
}

/** `a - b`, class by class (a class 0 on both sides left out); undefined when `b` has more of some class. */
function minus(a: Tokens, b: Tokens): Tokens | undefined {
  const rest: Tokens = {};
  for (const name of classes) {
    const left = (a[name] ?? 0) - (b[name] ?? 0);
    if (left < 0) return undefined;
    if (left > 0) rest[name] = left;
  }
  return rest;
}

const isZero = (tokens: Tokens) => classes.every((name) => (tokens[name] ?? 0) === 0);

/**
 * The part of `total` the run's calls (`called`: their tokens by model, `undefined` for calls that name none) do not
 * itemize: none when they itemize all of it.
 */
export function unitemized(total: ReportedTotal, called: ReadonlyMap<string | undefined, Tokens>): Unitemized[] {
  const sum: Tokens = {};
  for (const tokens of called.values()) addTokens(sum, tokens);
  const rest = minus(total.tokens, sum);
  // A total below what the run's own calls add up to is not a total of those calls (another scope, or classes
  // counted otherwise): which of the two is right cannot be told, so the calls stand and the total is not used.
  if (rest === undefined || isZero(rest)) return [];
  return byModel(total.models, called, rest) ?? [{ model: onlyModel(total.models, called), tokens: rest }];
}

/**
 * The rest split by model, where every call names one of the total's models and each model's total covers its
 * calls; undefined otherwise (the rest is then one part).
 */
function byModel(
  models: Record<string, Tokens> | undefined,
  called: ReadonlyMap<string | undefined, Tokens>,
  rest: Tokens,
): Unitemized[] | undefined {
  if (models === undefined) return undefined;
  for (const [model, tokens] of called)
    if (!isZero(tokens) && (model === undefined || !Object.hasOwn(models, model))) return undefined;
  const parts: Unitemized[] = [];
  const sum: Tokens = {};
  for (const [model, tokens] of Object.entries(models)) {
    const part = minus(tokens, called.get(model) ?? {});
    if (part === undefined) return undefined;
    addTokens(sum, part);
    if (!isZero(part)) parts.push({ model, tokens: part });
  }
  return classes.every((name) => (rest[name] ?? 0) === (sum[name] ?? 0)) ? parts : undefined;
}

/** The one model the run used, where its total or its calls name exactly one. */
function onlyModel(
  models: Record<string, Tokens> | undefined,
  called: ReadonlyMap<string | undefined, Tokens>,
): string | undefined {
  const names = Object.keys(models ?? {});
  if (names.length === 1) return names[0];
  const used = [...called.keys()];
  return names.length === 0 && used.length === 1 ? used[0] : undefined;
}
