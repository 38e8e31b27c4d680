/**
 * Stage 2, the JSON parser: lines in, parsed records out.
 *
 * A line is parsed whole with `JSON.parse`. A line too long for that (the splitter sends it in
 * `LinePart`s) is parsed incrementally by stream-json's tokenizer as its pieces arrive, within a
 * budget (lib/transforms/long-line.ts): memory stays bounded however long the line, and what was cut is
 * reported with the record. A line that is not JSON is not an error: it comes out as a
 * `NotJson` marker carrying its text (the correlator turns it into a `warning`, docs/contract.md).
 * Blank lines come out as `BLANK`, so every input line is accounted for downstream.
 * `LineTooLong` and `EncodingNote` markers pass through.
 *
 * One repair: a harness that writes one record into the middle of another
 * (anthropics/claude-code#49640) leaves two broken lines, `HEAD` + `INNER` and `TAIL`, where
 * `INNER` is a whole record and `HEAD` + `TAIL` is the outer one. Both records are recovered:
 * `INNER` when the first line arrives, the outer record when the second completes it. A head
 * that nothing completes comes out as a `NotJson` fragment, so no byte is lost either way. Two
 * whole records glued together without a newline come out as both, in order.
 */
import { LongLine, type Cut } from './long-line.js';
import { defineStage, type Sink, type Stage } from '../kernel/stage.js';
import { EncodingNote, InputBytes, LinePart, LineTooLong, type Line } from './split-lines.js';

/** A line that did not parse as JSON, with its text. */
export class NotJson {
  constructor(
    /** The line's text. */
    readonly line: string,
    /**
     * The head of an earlier line that another record was written into, which nothing completed: not a line of its own.
     */
    readonly fragment = false,
  ) {}
}

/** A line holding nothing but whitespace. */
export const BLANK: unique symbol = Symbol('blank line');

/** A parsed line: its value (and, for a line parsed incrementally, what its budget cut), or what it was instead. */
export type Parsed =
  | {
      /** The parsed JSON value. */
      value: unknown;
      /** What the long line's budget cut from it, if anything. */
      cut?: Cut;
      /** The long line's length in bytes, when something was cut. */
      bytes?: number;
      /** A record written into the line before it (two records on one line): not a line of its own. */
      sameLine?: true;
    }
  | NotJson
  | LineTooLong
  | EncodingNote
  | InputBytes
  | typeof BLANK;

export type { Cut };

/** Where a record written into another line may start: real records open with their type. */
const RECORD_START = '{"type":';
/** How many record starts, from the end of a broken line, are tried (bounds the work per line). */
const MAX_ATTEMPTS = 4;

/** What the {@link parseJson} stage takes. */
export interface ParseJsonOptions {
  /**
   * What a line parsed incrementally may keep (lib/transforms/long-line.ts). Default: the splitter's
   * `streamLinesAbove`, which each `LinePart` carries.
   */
  longLineBudget?: number;
}

function parser(sink: Sink<Parsed>, options: ParseJsonOptions = {}): Stage<Line> {
  // The head of the last line, when a record was found written into its end.
  let head: string | undefined;
  // The long line being read in pieces.
  let long: LongLine | undefined;

  function releaseHead(): void {
    if (head === undefined) return;
    sink(new NotJson(head, true));
    head = undefined;
  }

  function broken(line: string): void {
    if (head !== undefined) {
      const outer = tryParse(head + line);
      const unfinished = head;
      head = undefined;
      if (outer !== FAILED) return sink({ value: outer });
      sink(new NotJson(unfinished, true));
    }
    const split = splitInterleaved(line);
    if (split === undefined) return sink(new NotJson(line));
    const whole = tryParse(split.head);
    if (whole !== FAILED) {
      // Two records glued together: both, in input order; the second is not a line of its own.
      sink({ value: whole });
      return sink({ value: split.inner, sameLine: true });
    }
    head = split.head;
    sink({ value: split.inner });
  }

  function part(piece: LinePart): void {
    releaseHead();
    long ??= new LongLine(options.longLineBudget ?? piece.budget);
    long.write(piece.bytes);
    if (!piece.last) return;
    const { bytes } = long;
    const result = long.end();
    long = undefined;
    if (result === undefined) return sink(BLANK);
    if (result instanceof Error) return sink(new NotJson(result.message));
    sink(result.cut === undefined ? { value: result.value } : { value: result.value, cut: result.cut, bytes });
  }

  return {
    write(line) {
      if (typeof line === 'string') {
        const value = tryParse(line);
        if (value !== FAILED) {
          releaseHead();
          return sink({ value });
        }
        if (line.trim() === '') {
          releaseHead();
          return sink(BLANK);
        }
        return broken(line);
      }
      // The splitter's byte count is the correlator's; it says nothing about lines.
      if (line instanceof InputBytes) return sink(line);
      if (line instanceof LinePart) return part(line);
      // A line too long to keep ends any long line in progress: its pieces are dropped.
      if (line instanceof LineTooLong) long = undefined;
      releaseHead();
      sink(line);
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

/**
 * The JSON parser: `Line` objects in, `Parsed` objects out. `parseJson(options)` is a Transform;
 * `parseJson.stage(options)` the same stage for `compose`.
 */
export const parseJson = defineStage(parser);
