/**
 * Stage 1, the line splitter: bytes in, lines out.
 *
 * Lines are cut on `\n` at the byte level and decoded only once whole, so a multi-byte UTF-8
 * character (or an invalid sequence) split across chunks is decoded as if it had arrived in
 * one piece; invalid UTF-8 becomes U+FFFD. A `\r` right before the `\n` is dropped. A last
 * line without a newline is kept. A byte-order mark at the start of a line is dropped (two
 * files concatenated carry one in the middle).
 *
 * Three kinds of line are not held whole:
 * - a line longer than `streamLinesAbove` leaves in pieces as its bytes arrive (`LinePart`),
 *   for the JSON parser to read incrementally, so memory does not grow with the line;
 * - a line longer than `maxLineBytes` is never held at all: its bytes are counted, not kept,
 *   and it comes out as a `LineTooLong` marker giving its size;
 * - input that is not UTF-8 text, told by its first bytes: UTF-16 (what Windows PowerShell 5.1's
 *   `>` writes) is decoded, gzip is skipped; either way one `EncodingNote` says so.
 *
 * After each chunk an `InputBytes` note says how many bytes it held, for the run metrics the
 * correlator keeps: the metrics are counted where the input passes, however the stages are joined.
 */
import { defineStage, type Sink, type Stage } from '../kernel/stage.js';
import { TextDecoder } from 'node:util';
import { limit } from '../kernel/limits.js';

/** The default `maxLineBytes`: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** The default `streamLinesAbove`: 8 MiB. */
export const DEFAULT_STREAM_LINES_ABOVE = 8 * 1024 * 1024;

/** A line that exceeded `maxLineBytes`; its content was not kept. */
export class LineTooLong {
  constructor(
    /** The line's length in bytes. */
    readonly bytes: number,
    /** The `maxLineBytes` it exceeded. */
    readonly limit?: number,
  ) {}
}

/** A piece of a line longer than `streamLinesAbove`, in order; the last piece of the line has `last` set. */
export class LinePart {
  constructor(
    /** The piece's bytes. */
    readonly bytes: Buffer,
    /** It ends the line. */
    readonly last: boolean,
    /** The splitter's `streamLinesAbove`: what the parser keeps of the line unless told otherwise. */
    readonly budget: number = DEFAULT_STREAM_LINES_ABOVE,
  ) {}
}

/** How many bytes of input a chunk held: the splitter's note to the correlator, which counts them. */
export class InputBytes {
  constructor(
    /** The chunk's size in bytes. */
    readonly bytes: number,
  ) {}
}

/** What the first bytes said about the input's encoding. */
export class EncodingNote {
  constructor(
    /** What was found (UTF-16, decoded; gzip, skipped): an `encoding` warning's message. */
    readonly message: string,
  ) {}
}

/** What the splitter gives: a whole line (without its line end), or a note about the input. */
export type Line = string | LineTooLong | LinePart | EncodingNote | InputBytes;

/** What the {@link splitLines} stage takes. */
export interface SplitLinesOptions {
  /** The longest line kept, in bytes without the line end. Default 64 MiB. */
  maxLineBytes?: number;
  /** Lines longer than this leave in pieces (`LinePart`) instead of whole. Default 8 MiB. */
  streamLinesAbove?: number;
  /** Tell UTF-16 and gzip input from its first bytes. Default true. */
  detectEncoding?: boolean;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BOM = 0xfeff;

function splitter(sink: Sink<Line>, options: SplitLinesOptions = {}): Stage<Buffer> {
  const maxLineBytes = limit('maxLineBytes', options.maxLineBytes, DEFAULT_MAX_LINE_BYTES);
  const streamAbove = limit('streamLinesAbove', options.streamLinesAbove, DEFAULT_STREAM_LINES_ABOVE);
  // The unfinished line: its pieces while it fits, only its length once it does not.
  let held: Buffer[] = [];
  let heldBytes = 0;
  let heldLastByte = -1;
  let overflowing = false;
  // The unfinished line is leaving in pieces (it outgrew streamAbove).
  let streaming = false;
  const encoding = options.detectEncoding === false ? undefined : new EncodingSniffer(sink);

  function emit(line: string): void {
    sink(line.charCodeAt(0) === BOM ? line.slice(1) : line);
  }

  /** Ends the line whose last piece is chunk[start, end). */
  function finish(chunk: Buffer, start: number, end: number): void {
    const last = end > start ? chunk[end - 1]! : heldLastByte;
    const bytes = heldBytes + end - start - (last === CARRIAGE_RETURN ? 1 : 0);
    if (overflowing || bytes > maxLineBytes) sink(new LineTooLong(bytes, maxLineBytes));
    else if (streaming || bytes > streamAbove) {
      // A long line arriving whole in one chunk leaves in pieces too. It keeps its `\r`: JSON reads it as whitespace.
      for (const part of held) sink(new LinePart(part, false, streamAbove));
      sink(new LinePart(chunk.subarray(start, end), true, streamAbove));
    } else if (heldBytes === 0) emit(chunk.toString('utf8', start, start + bytes));
    else {
      held.push(chunk.subarray(start, end));
      emit(Buffer.concat(held).toString('utf8', 0, bytes));
    }
    held = [];
    heldBytes = 0;
    heldLastByte = -1;
    overflowing = false;
    streaming = false;
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
    const piece = chunk.subarray(start, end);
    if (streaming) return sink(new LinePart(piece, false, streamAbove));
    held.push(piece);
    if (heldBytes > streamAbove) {
      streaming = true;
      for (const part of held) sink(new LinePart(part, false, streamAbove));
      held = [];
    }
  }

  function split(chunk: Buffer): void {
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(NEWLINE, start)) !== -1) {
      finish(chunk, start, newline);
      start = newline + 1;
    }
    hold(chunk, start, chunk.length);
  }

  return {
    write(chunk) {
      if (encoding?.pending) encoding.write(chunk, split);
      else split(chunk);
      sink(new InputBytes(chunk.length));
    },
    end() {
      encoding?.end(split);
      if (heldBytes > 0) finish(EMPTY, 0, 0);
    },
  };
}

const EMPTY = Buffer.alloc(0);

/** gzip's magic number. */
const GZIP = [0x1f, 0x8b];

/**
 * Reads the first bytes of the input: UTF-16 (a byte-order mark, or JSON's `{` with a NUL
 * beside it) is decoded to UTF-8 from then on; gzip is skipped. Anything else passes as it is.
 */
class EncodingSniffer {
  /** Undecided until enough bytes have arrived; then, how every later chunk is handled. */
  pending = true;
  private start: Buffer[] = [];
  private decoder: TextDecoder | undefined;
  private skipped = 0;

  constructor(private readonly sink: Sink<Line>) {}

  write(chunk: Buffer, next: (chunk: Buffer) => void): void {
    if (this.decoder) return next(Buffer.from(this.decoder.decode(chunk, { stream: true })));
    if (this.skipped > 0) {
      this.skipped += chunk.length;
      return;
    }
    this.start.push(chunk);
    const head = Buffer.concat(this.start);
    if (head.length < 4) return;
    this.start = [];
    this.decide(head, next);
  }

  end(next: (chunk: Buffer) => void): void {
    if (this.decoder) return next(Buffer.from(this.decoder.decode()));
    if (this.skipped > 0) {
      this.sink(
        new EncodingNote(
          `the input is gzip-compressed (it starts with 1f 8b): ${this.skipped} bytes skipped; decompress it first ` +
            `(zcat FILE | harness-events ...)`,
        ),
      );
      return;
    }
    if (this.start.length > 0) this.decide(Buffer.concat(this.start), next);
  }

  private decide(head: Buffer, next: (chunk: Buffer) => void): void {
    const utf16 = utf16Of(head);
    if (utf16) {
      this.decoder = new TextDecoder(utf16, { fatal: false });
      this.sink(
        new EncodingNote(
          `the input is ${utf16.toUpperCase()}, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded`,
        ),
      );
      return next(Buffer.from(this.decoder.decode(head, { stream: true })));
    }
    if (head[0] === GZIP[0] && head[1] === GZIP[1]) {
      this.skipped = head.length;
      return;
    }
    this.pending = false;
    next(head);
  }
}

function utf16Of(head: Buffer): 'utf-16le' | 'utf-16be' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  // JSON starts with ASCII: in UTF-16 every other byte of it is NUL.
  if (head[0]! > 0 && head[0]! < 0x80 && head[1] === 0 && head[2]! > 0 && head[2]! < 0x80 && head[3] === 0)
    return 'utf-16le';
  if (head[0] === 0 && head[1]! > 0 && head[1]! < 0x80 && head[2] === 0 && head[3]! > 0 && head[3]! < 0x80)
    return 'utf-16be';
  return undefined;
}

/**
 * The line splitter: bytes in, `Line` objects out. `splitLines(options)` is a Transform;
 * `splitLines.stage(options)` the same stage for `compose`.
 */
export const splitLines = defineStage(splitter, { bytesIn: true });
