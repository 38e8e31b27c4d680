/**
 * The calls of the sessions under some homes (docs/usage.md): every session the session finder lists (its defaults
 * and environment variables, or each home given), each read with the trace on, its subagents' files too where the
 * format reads them on their own. A session whose records the reader does not know, and that gives no call, is a
 * warning naming its harness, the records and the CLI's version: format drift is never a silent zero.
 */
import { isObject } from '../../kernel/json.js';
import type { SessionEnv } from '../../kernel/session.js';
import { sessionFormats } from '../registry.js';
import { findSessions, readSession, type SessionEntry } from '../sessions/sessions.js';
import type { UsageCall } from './call.js';
import { runCalls, type UsageRecord } from './calls.js';
import { dayStart } from './zone.js';
import { callHints, versionOf, type CallHint } from './hints.js';

/** Which sessions are accounted: those found under the homes (default: the session finder's). */
export interface UsageSessions {
  /** The homes searched, each as the agents lay it out. Default: yours, with the variables that move the files. */
  homes?: readonly string[];
  /** The variables that move the agents' files (`CLAUDE_CONFIG_DIR`, ...). Default: `process.env` without `homes`. */
  env?: SessionEnv;
  /** Only this harness's sessions. */
  harness?: string;
  /** Only calls at or after this time: a `Date`, an ISO 8601 time, or a date (`2026-12-01`: its start, in `tz`). */
  since?: Date | string;
  /** Only calls before this time; a date (`2026-12-31`) includes that day. */
  until?: Date | string;
}

/** The period asked for, as instants (ms): `since` included, `until` not. */
export interface Period {
  since?: number;
  until?: number;
}

/**
 * The instant a bound names: a `Date`, an ISO 8601 time, or a calendar date (`2026-12-01`) in `zone`, which names
 * its start; an `until` date names the end of that day (it is included). A TypeError for anything else.
 */
export function instant(bound: Date | string | undefined, name: 'since' | 'until', zone?: string): number | undefined {
  if (bound === undefined) return undefined;
  const ms =
    bound instanceof Date
      ? bound.getTime()
      : (dayStart(bound, zone, name === 'until' ? 1 : 0) ?? (/\d[T ]\d/.test(bound) ? Date.parse(bound) : NaN));
  if (Number.isNaN(ms)) throw new TypeError(`${name}: not a date or time: ${String(bound)}`);
  return ms;
}

/** The selection's period, its dates in `zone`. */
export function periodOf(selection: UsageSessions, zone?: string): Period {
  return { since: instant(selection.since, 'since', zone), until: instant(selection.until, 'until', zone) };
}

/** Whether an instant (ISO 8601) is in the period. */
export function inPeriod(at: string, { since, until }: Period): boolean {
  const ms = Date.parse(at);
  return (since === undefined || ms >= since) && (until === undefined || ms < until);
}

/** The sessions found under the homes that may have calls in the period. */
export async function* sessionEntries(
  selection: UsageSessions,
  period: Period,
  warn: (message: string) => void,
): AsyncGenerator<SessionEntry> {
  const homes = selection.homes === undefined || selection.homes.length === 0 ? [undefined] : selection.homes;
  for (const home of homes) {
    const env = selection.env ?? (home === undefined ? process.env : {});
    for await (const entry of findSessions({ home, env, harness: selection.harness, onWarning: warn })) {
      // A session that ended before the period, or started after it, has no call in it.
      if (period.since !== undefined && Date.parse(entry.updated) < period.since) continue;
      if (period.until !== undefined && entry.started !== undefined && Date.parse(entry.started) >= period.until)
        continue;
      yield entry;
    }
  }
}

/** Every call in the period of every session found, in the order read (a call restated in several files: once each). */
export async function* sessionCalls(
  selection: UsageSessions,
  period: Period,
  warn: (message: string) => void,
): AsyncGenerator<UsageCall> {
  for await (const entry of sessionEntries(selection, period, warn))
    for await (const call of entryCalls(entry, warn)) if (inPeriod(call.at, period)) yield call;
}

/** A session's calls: its main file (subagents merged, where the format does) and each subagent read on its own. */
export async function* entryCalls(entry: SessionEntry, warn: (message: string) => void): AsyncGenerator<UsageCall> {
  const format = sessionFormats.get(entry.harness)!;
  const files = [
    { path: entry.path, agent: undefined as string | undefined },
    ...(format.mergesSubagents ? [] : entry.subagents.map((agent) => ({ path: agent.path, agent: agent.id }))),
  ];
  // The subagents' names the main file gives (OpenCode's `task` call names its child session's agent): each
  // subagent's own file, read after it, is grouped under its name.
  const names = new Map<string, string>();
  for (const file of files) {
    const hints = new Map<string, CallHint>();
    const hintOf = callHints[entry.harness];
    let time: string | undefined;
    let version: string | undefined;
    const unknown = new Map<string, number>();
    let calls = 0;
    const onRecord = (record: unknown) => {
      if (!isObject(record)) return;
      time = format.facts(record).time ?? time;
      version ??= versionOf(record);
      const hint = hintOf?.hint(record);
      if (hint !== undefined) hints.set(hint.model_call_id, hint);
    };
    const records = readSession({ harness: entry.harness, path: file.path, cwd: entry.cwd, trace: true, onRecord });
    const context = {
      harness: entry.harness,
      session: entry.id,
      project: entry.cwd,
      agent: file.agent,
      agentName: file.agent === undefined ? undefined : names.get(file.agent),
      named: (agent: string, name: string) => names.set(agent, name),
      hint: (id: string) => hints.get(id),
      time: () => time,
    };
    try {
      for await (const call of runCalls(noting(records, unknown), context)) {
        calls++;
        yield call;
      }
    } catch (error) {
      warn(`${entry.harness} session ${JSON.stringify(file.path)} read in part: ${(error as Error).message}`);
    }
    if (calls === 0 && unknown.size > 0) warn(drift(entry.harness, file.path, unknown, version));
  }
}

/** The records, counting on the way the `unknown` events by the raw record's type. */
async function* noting(records: AsyncIterable<UsageRecord>, unknown: Map<string, number>): AsyncGenerator<UsageRecord> {
  for await (const record of records) {
    if ('kind' in record && record.kind === 'event' && record.event.type === 'unknown') {
      const raw = record.event.raw;
      const type = isObject(raw) && typeof raw.type === 'string' ? raw.type : '(no type)';
      unknown.set(type, (unknown.get(type) ?? 0) + 1);
    }
    yield record;
  }
}

function drift(harness: string, path: string, unknown: Map<string, number>, version: string | undefined): string {
  const types = [...unknown].map(([type, count]) => `${JSON.stringify(type)} x${count}`).join(', ');
  const cli = version === undefined ? 'a version it does not name' : `version ${version}`;
  return (
    `${harness} session ${JSON.stringify(path)} (${cli}): no model call read, and records this reader does not ` +
    `know (${types}): a session format it does not read, not a session without usage`
  );
}
