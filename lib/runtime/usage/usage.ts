/**
 * `accountUsage`: the model calls of any trace or event source, or of the sessions under some homes, each counted
 * once, grouped and priced (docs/usage.md).
 */
import type { UsageCall } from './call.js';
import { UsageAccount, type AccountOptions, type UsageRow } from './account.js';
import { runCalls, type UsageRecord } from './calls.js';
import { appendLedger, ledgerCalls } from './ledger.js';
import { periodOf, sessionCalls, type UsageSessions } from './sources.js';

/** How `accountUsage` groups, prices and reports (and, for a stream source, what its records do not say). */
export interface AccountUsageOptions extends AccountOptions {
  /** A stream source's harness, until its `run_started` names it. */
  harness?: string;
  /** A stream source's session id (session sources know their own). */
  session?: string;
  /** A stream source's working directory: its calls' `project` (session sources know their own). */
  project?: string;
  /**
   * A JSONL ledger: its calls are counted first, and the calls counted that it did not have are appended to it
   * (made when it is not there).
   */
  ledger?: string;
  /** Told each warning as it comes (they are also in the report). */
  onWarning?: (message: string) => void;
  /** Told each call counted (each once), in the order read. */
  onCall?: (call: UsageCall) => void;
}

/** What `accountUsage` found. */
export interface UsageReport {
  /** One row per group (sorted by the groups' values); one row, the total, without `by`. */
  rows: UsageRow[];
  /** Every call counted, in one row. */
  total: UsageRow;
  /** Calls read again and not counted: restated by a fork, another file, or already in the ledger. */
  duplicates: number;
  /** Sessions read in part or not at all, formats not known, ledger lines left out. */
  warnings: string[];
}

/** The sources `accountUsage` takes: trace records or events of runs, or the sessions found under homes. */
export type UsageSource = AsyncIterable<UsageRecord> | Iterable<UsageRecord> | UsageSessions;

function isStream(source: UsageSource): source is AsyncIterable<UsageRecord> | Iterable<UsageRecord> {
  return Symbol.asyncIterator in source || Symbol.iterator in source;
}

async function* fromIterable<T>(items: Iterable<T> | AsyncIterable<T>): AsyncGenerator<T> {
  yield* items;
}

/**
 * The usage of a source, each model call counted once.
 *
 * @example
 * ```ts
 * const report = await accountUsage({ homes: ['/home/me'], since: '2026-12-01' }, { by: ['day', 'model'] });
 * for (const row of report.rows) console.log(row.group, row.calls, row.tokens, row.cost);
 * ```
 */
export async function accountUsage(source: UsageSource, options: AccountUsageOptions = {}): Promise<UsageReport> {
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.onWarning?.(message);
  };
  const account = new UsageAccount(options);
  if (options.ledger !== undefined) for await (const call of ledgerCalls(options.ledger, warn)) account.add(call);
  const added: UsageCall[] = [];
  const { project } = options;
  const calls = isStream(source)
    ? runCalls(fromIterable(source), { harness: options.harness, session: options.session, project, warn })
    : sessionCalls(source, periodOf(source, options.tz), warn);
  for await (const call of calls) {
    if (!account.add(call)) continue;
    options.onCall?.(call);
    if (options.ledger !== undefined) added.push(call);
  }
  if (options.ledger !== undefined) await appendLedger(options.ledger, added);
  return { rows: account.rows(), total: account.totals(), duplicates: account.duplicates, warnings };
}
