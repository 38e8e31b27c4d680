/**
 * One accounted model call (docs/usage.md): what `accountUsage` counts once, groups and prices. Built from a trace
 * `model_call` record, or from a `usage` event where the harness names no model call (stdout sources); or a run's
 * tokens no call itemizes (`unitemized`).
 */
import type { Tokens } from '../../kernel/events.js';
import { costOf, type Cost } from './cost.js';
import type { PriceTable } from './prices.js';

/** One model call, counted once by `id` however many files restate it. */
export interface UsageCall {
  /**
   * Its identity: `<harness>:<model_call_id>` where the harness names the call (Claude Code's message id, Codex's
   * response id, ...; OpenCode's and Kilo's `@<message creation time>:<tokens>`, which a fork's copy keeps);
   * otherwise `<harness>:<session>:<time>:<n>` (the n-th call of that session at that time), which is the same each
   * time the same file is read but is not recognised in another file.
   */
  id: string;
  /** The harness whose call it is. */
  harness: string;
  /** The harness's id for the call, where it gives one. */
  model_call_id?: string;
  /** The session the call was made in (a fork's restated call: the session that made it). */
  session?: string;
  /** The working directory of its session. */
  project?: string;
  /** The subagent that made it (its id); absent: the session's main agent. */
  agent?: string;
  /** The subagent's name or type, where the harness gives one. */
  subagent?: string;
  /** The skill the agent was using (docs/usage.md says when a call is a skill's). */
  skill?: string;
  /** The model, as the harness names it. */
  model?: string;
  /** When it ended (ISO 8601, UTC): the record's own time where it has one. */
  at: string;
  /** Its tokens, in the `usage` events' classes. */
  tokens: Tokens;
  /** The cost the harness reported for it, in USD. */
  reported_usd?: number;
  /**
   * Not a model call: the tokens of a run's own reported total beyond the calls its records give one by one (a Gemini
   * CLI run's stdout: all of them; Claude Code's: its subagents'), counted as tokens, never as a call
   * (docs/usage.md "From stdout").
   */
  unitemized?: true;
}

/** A row's cost: a call's `Cost`, and the calls that could not be priced when some could. */
export interface UsageCost extends Cost {
  /**
   * A row's calls (and runs' unitemized tokens) that could not be priced, when some could: `usd` is then the others'
   * sum.
   */
  unpriced?: number;
  /**
   * Of `usd`, the part priced for calls on a subscription (`subscription` option): what the API would have charged,
   * not paid per token. Present when some of them could be priced; `subscription: true` when all the row's calls were
   * on one.
   */
  subscription_usd?: number;
}

/**
 * A call's cost (docs/library.md "Prices and costs"): reported, else estimated from `table`, else unknown; marked
 * `subscription` when the caller said the call's harness runs on a plan.
 */
export function costOfCall(call: UsageCall, table?: PriceTable, subscription?: boolean): Cost {
  const { harness, model, tokens, at } = call;
  return costOf({ harness, model, tokens, at, reported: call.reported_usd, subscription }, table);
}
