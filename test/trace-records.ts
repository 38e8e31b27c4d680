/**
 * What the harnesses' trace tests compare (docs/contract.md "Trace stream"): the records of a session read with the
 * trace on, and records without the times the library observed (which differ on every run), harness times kept.
 */
import type { HarnessName } from '../lib/index.js';
import type { TraceRecord } from '../lib/kernel/trace.js';
import { readSession } from '../lib/runtime/sessions/sessions.js';
import * as validators from '../lib/kernel/validators.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function checked(time: unknown): void {
  if (typeof time !== 'string' || !ISO.test(time)) throw new Error(`bad time ${String(time)}`);
}

/** The trace of a session file (`readSession` with the trace on), each record checked against trace.schema.json. */
export async function traceSession(harness: HarnessName, path: string): Promise<TraceRecord[]> {
  const records: TraceRecord[] = [];
  for await (const record of readSession({ harness, path, strict: true, trace: true })) {
    if (!validators.trace(record)) throw new Error(`invalid trace record ${JSON.stringify(record)}`);
    records.push(record as unknown as TraceRecord);
  }
  return records;
}

/**
 * The records without observed times: an `observed` `at` or `started_at` is dropped (after checking its form), and
 * an event record's event loses its `timestamp` and `session_id` (the plain stream's tests pin those).
 */
export function timeless(records: TraceRecord[]): Record<string, unknown>[] {
  return records.map((record) => {
    const copy: Record<string, unknown> = { ...record };
    if (copy.at_source === 'observed') {
      checked(copy.at);
      delete copy.at;
    }
    if (copy.started_at_source === 'observed') {
      checked(copy.started_at);
      delete copy.started_at;
    }
    if (record.kind === 'event') {
      const { timestamp, session_id: _, ...event } = record.event;
      checked(timestamp);
      copy.event = event;
    }
    return copy;
  });
}
