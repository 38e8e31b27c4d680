/**
 * Stage 2, the JSON parser: lines in, parsed records out.
 *
 * Built on stream-json's per-line JSONL parser (`jsonlParser`) with an `errorIndicator`, so a
 * line that is not JSON is not an error: it comes out as a `NotJson` marker carrying its text
 * (the correlator turns it into a `warning`, CONTRACT.md). Blank lines come out as `BLANK`, so
 * every input line is accounted for downstream. `LineTooLong` markers pass through.
 *
 * One repair: a harness that writes one record into the middle of another
 * (anthropics/claude-code#49640) leaves two broken lines, `HEAD` + `INNER` and `TAIL`, where
 * `INNER` is a whole record and `HEAD` + `TAIL` is the outer one. Both records are recovered:
 * `INNER` when the first line arrives, the outer record when the second completes it. A head
 * that nothing completes comes out as a `NotJson` fragment, so no byte is lost either way.
 */
import { jsonlParser } from 'stream-json/jsonl/parser.js';
import { toTransform, type Sink, type Stage } from '../lib/stage.js';
import { LineTooLong, type Line } from './split-lines.js';

/** A line that did not parse as JSON, with its text. */
export class NotJson {
  constructor(
    readonly line: string,
    /** The head of an earlier line that another record was written into, which nothing completed: not a line of its own. */
    readonly fragment = false,
  ) {}
}

/** A line holding nothing but whitespace. */
export const BLANK: unique symbol = Symbol('blank line');

/** A parsed line: its value, or what it was instead. */
export type Parsed = { value: unknown } | NotJson | LineTooLong | typeof BLANK;

/** Where a record written into another line may start: real records open with their type. */
const RECORD_START = '{"type":';
/** How many record starts, from the end of a broken line, are tried (bounds the work per line). */
const MAX_ATTEMPTS = 4;

export function jsonParser(sink: Sink<Parsed>): Stage<Line> {
  const parseLine = jsonlParser({
    errorIndicator: (_error: unknown, line: string) => (line.trim() === '' ? BLANK : new NotJson(line)),
  });
  // The head of the last line, when a record was found written into its end.
  let head: string | undefined;

  function releaseHead(): void {
    if (head === undefined) return;
    sink(new NotJson(head, true));
    head = undefined;
  }

  function broken(line: NotJson): void {
    if (head !== undefined) {
      const outer = tryParse(head + line.line);
      const unfinished = head;
      head = undefined;
      if (outer !== FAILED) return sink({ value: outer });
      sink(new NotJson(unfinished, true));
    }
    const split = splitInterleaved(line.line);
    if (split === undefined) return sink(line);
    head = split.head;
    sink({ value: split.inner });
  }

  return {
    write(line) {
      if (line instanceof LineTooLong) {
        releaseHead();
        return sink(line);
      }
      const item = parseLine(line);
      const value = typeof item === 'symbol' ? BLANK : (item as { value: unknown }).value;
      if (value instanceof NotJson) return broken(value);
      releaseHead();
      sink(value === BLANK ? BLANK : (item as { value: unknown }));
    },
    end: releaseHead,
  };
}

const FAILED = Symbol('not JSON');

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return FAILED;
  }
}

/** `HEAD` + a whole record, where `HEAD` looks like the start of another record. */
function splitInterleaved(line: string): { head: string; inner: unknown } | undefined {
  if (!line.startsWith('{')) return undefined;
  let at = line.length;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    at = line.lastIndexOf(RECORD_START, at - 1);
    if (at <= 0) return undefined;
    const inner = tryParse(line.slice(at));
    if (inner !== FAILED) return { head: line.slice(0, at), inner };
  }
  return undefined;
}

/** The JSON parser as a Transform: `Line` objects in, `Parsed` objects out. */
export function parseJson() {
  return toTransform<Line, Parsed>(jsonParser);
}
