/**
 * The trace records of a capture or a session file as a test writes them out by hand (docs/contract.md "Trace
 * stream"): each checked against trace.schema.json, an observed `at` (the library's clock, different on every run)
 * dropped after checking its form, a harness `at` kept, and an `event` record reduced to its event's type beside its
 * ids (the events themselves are each harness's mapping tests' business).
 */
import { join } from 'node:path';
import type { HarnessName } from '../../lib/index.js';
import type { TraceRecord } from '../../lib/kernel/trace.js';
import { readSession } from '../../lib/runtime/sessions/sessions.js';
import * as validators from '../../lib/kernel/validators.js';
import { fixturePath, traceFixture } from '../helpers.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type Written = Record<string, unknown>;

/** A record as the tests write it: see the file's comment. */
export function written(record: TraceRecord): Written {
  const out: Written = { ...record };
  if (record.kind === 'event') {
    delete out.event;
    out.type = record.event.type;
  }
  for (const [time, source] of [
    ['at', 'at_source'],
    ['started_at', 'started_at_source'],
  ] as const) {
    if (out[source] !== 'observed') continue;
    if (typeof out[time] !== 'string' || !ISO.test(out[time])) throw new Error(`bad ${time} ${String(out[time])}`);
    delete out[time];
  }
  return out;
}

/** A capture's trace (test/fixtures/<relative>), written. */
export async function traceOf(relative: string, harness: HarnessName): Promise<Written[]> {
  return (await traceFixture(relative, { harness, strict: true })).map(written);
}

/** A session file's trace (test/fixtures/<harness>/transcripts/<scenario>/home/<session>), written. */
export async function sessionTraceOf(harness: string, scenario: string, session: string): Promise<Written[]> {
  const path = join(fixturePath(`${harness}/transcripts/${scenario}/`), 'home', session);
  const records: Written[] = [];
  for await (const record of readSession({ harness, path, strict: true, trace: true })) {
    if (!validators.trace(record)) throw new Error(`invalid trace record ${JSON.stringify(record)}`);
    records.push(written(record as unknown as TraceRecord));
  }
  return records;
}
