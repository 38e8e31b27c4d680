/**
 * Stage 1, the line splitter: bytes in, lines out.
 *
 * Lines are cut on `\n` at the byte level and decoded only once whole, so a multi-byte UTF-8
 * character (or an invalid sequence) split across chunks is decoded as if it had arrived in
 * one piece; invalid UTF-8 becomes U+FFFD. A `\r` right before the `\n` is dropped. A last
 * line without a newline is kept. A byte-order mark at the very start is dropped.
 *
 * A line longer than `maxLineBytes` is never held in memory: its bytes are counted, not
 * kept, and it comes out as a `LineTooLong` marker giving its size.
 */
import { toTransform, type Sink, type Stage } from '../lib/stage.js';

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** A line that exceeded `maxLineBytes`; its content was not kept. */
export class LineTooLong {
  constructor(readonly bytes: number) {}
}

export type Line = string | LineTooLong;

export interface SplitLinesOptions {
  /** The longest line kept, in bytes without the line end. Default 64 MiB. */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BOM = '\ufeff';

export function lineSplitter(sink: Sink<Line>, options: SplitLinesOptions = {}): Stage<Buffer> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // The unfinished line: its pieces while it fits, only its length once it does not.
  let held: Buffer[] = [];
  let heldBytes = 0;
  let heldLastByte = -1;
  let overflowing = false;
  let first = true;

  function emit(line: Line): void {
    if (first) {
      first = false;
      if (typeof line === 'string' && line.startsWith(BOM)) line = line.slice(1);
    }
    sink(line);
  }

  /** Ends the line whose last piece is chunk[start, end). */
  function finish(chunk: Buffer, start: number, end: number): void {
    const last = end > start ? chunk[end - 1]! : heldLastByte;
    const bytes = heldBytes + end - start - (last === CARRIAGE_RETURN ? 1 : 0);
    if (overflowing || bytes > maxLineBytes) emit(new LineTooLong(bytes));
    else if (heldBytes === 0) emit(chunk.toString('utf8', start, start + bytes));
    else {
      held.push(chunk.subarray(start, end));
      emit(Buffer.concat(held).toString('utf8', 0, bytes));
    }
    held = [];
    heldBytes = 0;
    heldLastByte = -1;
    overflowing = false;
  }

  /** Keeps chunk[start, end), the beginning of a line not yet ended. */
  function hold(chunk: Buffer, start: number, end: number): void {
    if (start === end) return;
    heldBytes += end - start;
    heldLastByte = chunk[end - 1]!;
    if (overflowing) return;
    // One byte of slack: a `\r` that turns out to precede the `\n` does not count.
    if (heldBytes > maxLineBytes + 1) {
      overflowing = true;
      held = [];
      return;
    }
    // A view, not a copy: a written chunk belongs to the stream (as everywhere in Node streams).
    held.push(chunk.subarray(start, end));
  }

  return {
    write(chunk) {
      let start = 0;
      let newline: number;
      while ((newline = chunk.indexOf(NEWLINE, start)) !== -1) {
        finish(chunk, start, newline);
        start = newline + 1;
      }
      hold(chunk, start, chunk.length);
    },
    end() {
      if (heldBytes > 0) finish(EMPTY, 0, 0);
    },
  };
}

const EMPTY = Buffer.alloc(0);

/** The line splitter as a Transform: bytes in, `Line` objects out. */
export function splitLines(options: SplitLinesOptions = {}) {
  return toTransform<Buffer, Line>((sink) => lineSplitter(sink, options), { bytesIn: true });
}
