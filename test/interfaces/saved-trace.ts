import { readFileSync } from 'node:fs';
import type { HarnessEvent } from '../../lib/kernel/events.js';
import type { TraceRecord } from '../../lib/kernel/trace.js';
import * as validators from '../../lib/kernel/validators.js';
import { fixturePath } from '../helpers.js';

/**
 * A saved trace (test/fixtures/trace/, see its README.md): a real capture's trace stream as `normalize --format trace`
 * wrote it, each record schema-checked.
 */
export function savedTrace(name: string): TraceRecord[] {
  const lines = readFileSync(fixturePath(`trace/${name}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean);
  return lines.map((line) => {
    const record: unknown = JSON.parse(line);
    if (!validators.trace(record)) throw new Error(`invalid trace record ${line}`);
    return record as TraceRecord;
  });
}

/** The events a trace carries, in order: the plain stream it wraps. */
export function eventsOfTrace(records: TraceRecord[]): HarnessEvent[] {
  return records.flatMap((record) => (record.kind === 'event' ? [record.event] : []));
}
