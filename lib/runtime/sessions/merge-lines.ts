/**
 * The lines of several JSONL files as one stream, in time order: a session and its subagents'
 * transcripts, each written in order, interleaved as the run went. A k-way merge: one line of
 * each file is held at a time. A line without a time (bookkeeping) keeps its file's last time, and
 * on equal times the earlier file (the main one) goes first. A line longer than `LONG_LINE_BYTES`
 * is never held whole: it takes its file's last time and passes in pieces, as the stages expect
 * of a long line, before any other file's next line.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/** A line is held whole (to read its time) up to this; past it, it passes in pieces of about this size. */
export const LONG_LINE_BYTES = 1 << 20;

/** A piece of a line: the whole line (with its `\n`) when `end` is set and it was not preceded by pieces. */
interface Piece {
  readonly bytes: Buffer;
  readonly end: boolean;
  /** Passed as read, not a line (the file is the only one left). */
  readonly alone?: boolean;
}

const NEWLINE = 0x0a;

/**
 * A file's lines as pieces: each line whole when it is at most `LONG_LINE_BYTES`, else in pieces. Once it is the only
 * file left (`alone()`), its bytes pass as they are read: nothing is left to order them against.
 */
async function* pieces(input: AsyncIterable<Buffer>, alone: () => boolean): AsyncGenerator<Piece> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of input) {
    if (alone()) {
      yield { bytes: heldBytes > 0 ? Buffer.concat([...held, chunk]) : chunk, end: true, alone: true };
      held = [];
      heldBytes = 0;
      continue;
    }
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (alone()) {
        // Left alone in the middle of a chunk: the rest of it as it is.
        yield { bytes: Buffer.concat([...held, chunk.subarray(start)]), end: true, alone: true };
        held = [];
        heldBytes = 0;
        start = chunk.length;
        break;
      }
      yield { bytes: Buffer.concat([...held, chunk.subarray(start, end + 1)]), end: true };
      held = [];
      heldBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      held.push(chunk.subarray(start));
      heldBytes += chunk.length - start;
    }
    if (heldBytes > LONG_LINE_BYTES) {
      yield { bytes: Buffer.concat(held), end: false };
      held = [];
      heldBytes = 0;
    }
  }
  // A last line without its newline gets one: the next file's line must not join it.
  if (heldBytes > 0) yield { bytes: Buffer.concat([...held, Buffer.of(NEWLINE)]), end: true };
}

interface Cursor {
  pieces: AsyncGenerator<Piece>;
  piece: Piece;
  time: string;
}

async function advance(cursor: Cursor, timeOf: (record: unknown) => string | undefined): Promise<boolean> {
  const next = await cursor.pieces.next();
  if (next.done === true) return false;
  cursor.piece = next.value;
  if (!next.value.end || next.value.alone === true) return true;
  try {
    cursor.time = timeOf(JSON.parse(next.value.bytes.toString('utf8'))) ?? cursor.time;
  } catch {
    // Not JSON (or the end of a long line): the stages report it; here it keeps its file's time.
  }
  return true;
}

export function mergeLines(paths: readonly string[], timeOf: (record: unknown) => string | undefined): Readable {
  if (paths.length === 1) return createReadStream(paths[0]!);
  const inputs = paths.map((path) => createReadStream(path));
  async function* merged(): AsyncGenerator<Buffer> {
    const cursors: Cursor[] = [];
    let started = false;
    const alone = () => started && cursors.length === 1;
    for (const input of inputs) {
      const cursor: Cursor = { pieces: pieces(input, alone), piece: { bytes: Buffer.alloc(0), end: true }, time: '' };
      if (await advance(cursor, timeOf)) cursors.push(cursor);
    }
    started = true;
    while (cursors.length > 0) {
      let first = 0;
      for (let i = 1; i < cursors.length; i++) if (cursors[i]!.time < cursors[first]!.time) first = i;
      const cursor = cursors[first]!;
      // A long line's pieces go on together; then its file's next line is read.
      let more: boolean;
      for (;;) {
        const { bytes, end } = cursor.piece;
        yield bytes;
        more = await advance(cursor, timeOf);
        if (end || !more) break;
      }
      if (!more) cursors.splice(first, 1);
    }
  }
  const stream = Readable.from(merged(), { objectMode: false });
  stream.once('close', () => inputs.forEach((input) => input.destroy()));
  return stream;
}
