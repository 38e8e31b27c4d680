/**
 * What the session listing says of one file without reading it whole: the first working
 * directory and time from its head, the last time from its tail (sessions run to megabytes).
 */
import { open } from 'node:fs/promises';
import type { RecordFacts } from '../../kernel/session.js';

const HEAD_BYTES = 1 << 20;
const TAIL_BYTES = 1 << 18;

export interface FileFacts {
  cwd?: string;
  id?: string;
  started?: string;
  updated?: string;
  bytes: number;
  mtimeMs: number;
}

/** The complete lines of a chunk, parsed; a line that is not JSON is skipped. */
function records(text: string, from: 'start' | 'middle', complete: boolean): unknown[] {
  const lines = text.split('\n');
  if (from === 'middle') lines.shift();
  if (!complete) lines.pop();
  const parsed: unknown[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      // A line cut by the chunk or not JSON: the listing reads what it can.
    }
  }
  return parsed;
}

export async function fileFacts(path: string, factsOf: (record: unknown) => RecordFacts): Promise<FileFacts> {
  const handle = await open(path, 'r');
  try {
    const stats = await handle.stat();
    const facts: FileFacts = { bytes: stats.size, mtimeMs: stats.mtimeMs };
    const headLength = Math.min(stats.size, HEAD_BYTES);
    const head = Buffer.alloc(headLength);
    await handle.read(head, 0, headLength, 0);
    for (const record of records(head.toString('utf8'), 'start', headLength === stats.size)) {
      const found = factsOf(record);
      facts.cwd ??= found.cwd;
      facts.id ??= found.id;
      facts.started ??= found.time;
      if (found.time !== undefined) facts.updated = found.time;
    }
    const tailStart = Math.max(headLength, stats.size - TAIL_BYTES);
    if (tailStart < stats.size) {
      const tail = Buffer.alloc(stats.size - tailStart);
      await handle.read(tail, 0, tail.length, tailStart);
      // The tail may start inside a line: only the complete lines after its first newline count.
      for (const record of records(tail.toString('utf8'), 'middle', true)) {
        const time = factsOf(record).time;
        if (time !== undefined) facts.updated = time;
      }
    }
    return facts;
  } finally {
    await handle.close();
  }
}
