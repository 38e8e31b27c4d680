/**
 * Stage 2, the JSON parser: lines in, parsed records out.
 *
 * Built on stream-json's per-line JSONL parser (`jsonlParser`) with an `errorIndicator`, so a
 * line that is not JSON is not an error: it comes out as a `NotJson` marker carrying its text
 * (the correlator turns it into a `warning`, CONTRACT.md). Blank lines come out as `BLANK`, so
 * every input line is accounted for downstream. `LineTooLong` markers pass through.
 */
import { jsonlParser } from 'stream-json/jsonl/parser.js';
import { toTransform, type Sink, type Stage } from '../lib/stage.js';
import { LineTooLong, type Line } from './split-lines.js';

/** A line that did not parse as JSON, with its text. */
export class NotJson {
  constructor(readonly line: string) {}
}

/** A line holding nothing but whitespace. */
export const BLANK: unique symbol = Symbol('blank line');

/** A parsed line: its value, or what it was instead. */
export type Parsed = { value: unknown } | NotJson | LineTooLong | typeof BLANK;

export function jsonParser(sink: Sink<Parsed>): Stage<Line> {
  const parseLine = jsonlParser({
    errorIndicator: (_error: unknown, line: string) => (line.trim() === '' ? BLANK : new NotJson(line)),
  });
  return {
    write(line) {
      if (line instanceof LineTooLong) return sink(line);
      const item = parseLine(line);
      if (typeof item === 'symbol') return sink(BLANK);
      const value = (item as { value: unknown }).value;
      sink(value === BLANK || value instanceof NotJson ? value : (item as { value: unknown }));
    },
    end() {},
  };
}

/** The JSON parser as a Transform: `Line` objects in, `Parsed` objects out. */
export function parseJson() {
  return toTransform<Line, Parsed>(jsonParser);
}
