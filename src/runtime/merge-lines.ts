/**
 * The lines of several JSONL files as one stream, in time order: a session and its subagents'
 * transcripts, each written in order, interleaved as the run went. A k-way merge: one line of
 * each file is held at a time. A line without a time (bookkeeping) keeps its file's last time, and
 * on equal times the earlier file (the main one) goes first.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';

interface Cursor {
  lines: AsyncIterator<string>;
  line: string;
  time: string;
}

async function advance(cursor: Cursor, timeOf: (record: unknown) => string | undefined): Promise<boolean> {
  const next = await cursor.lines.next();
  if (next.done === true) return false;
  cursor.line = next.value;
  try {
    cursor.time = timeOf(JSON.parse(next.value)) ?? cursor.time;
  } catch {
    // Not JSON: the stages report it; here it keeps its file's time.
  }
  return true;
}

export function mergeLines(paths: readonly string[], timeOf: (record: unknown) => string | undefined): Readable {
  if (paths.length === 1) return createReadStream(paths[0]!);
  const inputs = paths.map((path) => createReadStream(path));
  async function* merged(): AsyncGenerator<string> {
    const cursors: Cursor[] = [];
    for (const input of inputs) {
      const cursor: Cursor = {
        lines: createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator](),
        line: '',
        time: '',
      };
      if (await advance(cursor, timeOf)) cursors.push(cursor);
    }
    while (cursors.length > 0) {
      let first = 0;
      for (let i = 1; i < cursors.length; i++) if (cursors[i]!.time < cursors[first]!.time) first = i;
      const cursor = cursors[first]!;
      yield cursor.line + '\n';
      if (!(await advance(cursor, timeOf))) cursors.splice(first, 1);
    }
  }
  const stream = Readable.from(merged(), { objectMode: false });
  stream.once('close', () => inputs.forEach((input) => input.destroy()));
  return stream;
}
