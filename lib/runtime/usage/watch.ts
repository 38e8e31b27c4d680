/**
 * `watchUsage`: the account of the sessions under some homes, again each time one of them changes (docs/usage.md
 * "Live"): the sessions are listed every `pollMs`, and a session whose size, last record time or subagents changed is
 * read again; the others' calls are kept from the pass before. Ends when the signal aborts, with nothing left running.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionEntry } from '../sessions/sessions.js';
import type { UsageCall } from './call.js';
import { UsageAccount } from './account.js';
import { appendLedger, ledgerCalls } from './ledger.js';
import { entryCalls, inPeriod, periodOf, sessionEntries, type UsageSessions } from './sources.js';
import type { AccountUsageOptions, UsageReport } from './usage.js';

/** How often the sessions are listed again, by default (ms). */
export const DEFAULT_USAGE_POLL_MS = 2000;

export interface WatchUsageOptions extends Omit<AccountUsageOptions, 'onCall' | 'harness' | 'session' | 'project'> {
  /** Ends the watch. */
  signal: AbortSignal;
  /** Told the report at the start and each time it changes. */
  onReport: (report: UsageReport) => void;
  /** How often the sessions are listed again (ms). Default 2,000. */
  pollMs?: number;
}

/** What a session's files were like when its calls were read. */
const stampOf = (entry: SessionEntry) =>
  JSON.stringify([entry.bytes, entry.updated, entry.subagents.map((agent) => [agent.path, agent.bytes])]);

/** Follows the sessions' usage until `signal` aborts; resolves then. */
export async function watchUsage(selection: UsageSessions, options: WatchUsageOptions): Promise<void> {
  const { signal } = options;
  const period = periodOf(selection, options.tz);
  const said = new Set<string>();
  let warnings: string[] = [];
  const warn = (message: string) => {
    if (said.has(message)) return;
    said.add(message);
    warnings.push(message);
    options.onWarning?.(message);
  };
  // The ledger's calls, and those appended to it since: counted first, each pass.
  const ledgered: UsageCall[] = [];
  if (options.ledger !== undefined) for await (const call of ledgerCalls(options.ledger, warn)) ledgered.push(call);
  const read = new Map<string, { stamp: string; calls: UsageCall[] }>();
  let last: string | undefined;
  while (!signal.aborted) {
    const seen = new Set<string>();
    for await (const entry of sessionEntries(selection, period, warn)) {
      if (signal.aborted) return;
      const key = `${entry.harness}\n${entry.path}`;
      seen.add(key);
      const stamp = stampOf(entry);
      if (read.get(key)?.stamp === stamp) continue;
      const calls: UsageCall[] = [];
      for await (const call of entryCalls(entry, warn)) if (inPeriod(call.at, period)) calls.push(call);
      read.set(key, { stamp, calls });
    }
    // A session deleted since: its calls are gone, but for the ledger's.
    for (const key of read.keys()) if (!seen.has(key)) read.delete(key);
    const account = new UsageAccount(options);
    for (const call of ledgered) account.add(call);
    const added: UsageCall[] = [];
    for (const { calls } of read.values())
      for (const call of calls) if (account.add(call) && options.ledger !== undefined) added.push(call);
    if (options.ledger !== undefined && added.length > 0) {
      await appendLedger(options.ledger, added);
      ledgered.push(...added);
    }
    const report = { rows: account.rows(), total: account.totals(), duplicates: account.duplicates, warnings };
    const shown = JSON.stringify([report.rows, report.total]);
    if (shown !== last || warnings.length > 0) options.onReport(report);
    [last, warnings] = [shown, []];
    await sleep(options.pollMs ?? DEFAULT_USAGE_POLL_MS, undefined, { signal }).catch(() => {});
  }
}
