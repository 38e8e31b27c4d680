/**
 * The first row of every harness page: dispatch on a record's top-level `type`. A parsed line
 * that is not an object with a string `type`, or whose type the harness's table lacks, is
 * `unknown` carrying it verbatim (CONTRACT.md: nothing is lost), under rule names every
 * harness shares.
 */
import type { RunContext } from './harness.js';
import { isObject, type JsonObject } from './json.js';

/** A row of a record table: handles one record, returns the name of the spec rule it applied. */
export type RecordRule = (record: JsonObject) => string;

export function recordTable(
  run: RunContext,
  rows: ReadonlyMap<string, RecordRule>,
  /** Runs before every line is handled (the record, or undefined when the line is not a typed object): a flush, a session id. */
  before?: (record: JsonObject | undefined) => void,
): (value: unknown) => string {
  return (value) => {
    if (!isObject(value) || typeof value.type !== 'string') {
      before?.(undefined);
      run.emit({ type: 'unknown', raw: value });
      return 'not a typed object: unknown';
    }
    before?.(value);
    const rule = rows.get(value.type);
    if (rule) return rule(value);
    run.emit({ type: 'unknown', raw: value });
    return 'other type: unknown';
  };
}
