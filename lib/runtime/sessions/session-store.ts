/**
 * The sessions a format keeps in a store rather than in JSONL files (OpenCode's and Kilo's
 * SQLite database): their listing facts, and their records as the JSONL bytes a reader takes.
 */
import { Readable } from 'node:stream';
import type { SessionLocation, SessionStore } from '../../kernel/session.js';
import type { FileFacts } from './session-facts.js';

/** A stored session's facts in the shape the listing takes for a file's. */
export async function storeFacts(store: SessionStore, location: SessionLocation): Promise<FileFacts> {
  const facts = await store.describe(location);
  return { cwd: facts.cwd, started: facts.started, updated: facts.updated, bytes: facts.bytes, mtimeMs: facts.mtimeMs };
}

/** A stored session's records, one line each, read as the stream is consumed (a slow reader holds nothing more). */
export function storeInput(store: SessionStore, location: SessionLocation): Readable {
  async function* lines(): AsyncGenerator<Buffer> {
    for await (const record of store.records(location)) yield Buffer.from(`${record.line}\n`);
  }
  return Readable.from(lines(), { objectMode: false });
}
