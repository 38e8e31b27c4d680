/**
 * One accounted model call (docs/usage.md): what `accountUsage` counts once, groups and prices. Built from a trace
 * `model_call` record, or from a `usage` event where the harness names no model call (stdout sources).
 */
import type { Tokens } from '../../kernel/events.js';

/** One model call, counted once by `id` however many files restate it. */
export interface UsageCall {
  /**
   * Its identity: `<harness>:<model_call_id>` where the harness names the call (Claude Code's message id, Codex's
   * response id, ...); otherwise `<harness>:<session>:<time>:<n>` (the n-th call of that session at that time), which
   * is the same each time the same file is read but is not recognised in another file.
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
}

/** Where a cost comes from: the harness's report, the price table, or neither. */
export type CostSource = 'reported' | 'estimated' | 'unknown';

/** A call's or a row's cost. `usd` is absent when nothing of it could be priced: never a made-up $0. */
export interface UsageCost {
  /** USD; for a row whose `source` is `unknown`, the sum of the calls that could be priced (`unpriced` are not). */
  usd?: number;
  /** `reported` (the harness's figure), `estimated` (the price table), `unknown` (some call could not be priced). */
  source: CostSource;
  /** The price table's date, when a price from it was used. */
  prices_date?: string;
  /** A row's calls that could not be priced (only when some could). */
  unpriced?: number;
}

/** Whether a call spent tokens. */
export function spent(tokens: Tokens): boolean {
  return Object.values(tokens).some((count) => count !== undefined && count > 0);
}

/**
 * A call's cost: the harness's figure, unless it reported 0 for tokens spent (a CLI that does not know the model's
 * price says 0); otherwise unknown. The one place the decision is made: the price table's estimate comes in here.
 */
export function costOfCall(call: UsageCall): UsageCost {
  if (call.reported_usd !== undefined && (call.reported_usd > 0 || !spent(call.tokens)))
    return { usd: call.reported_usd, source: 'reported' };
  return { source: 'unknown' };
}
