/**
 * A session kept in a store (OpenCode's and Kilo's SQLite database) followed as it is written:
 * the store's records after the last one given, read again whenever a file in the database's
 * directory changes (each commit appends to the `-wal`; a checkpoint writes the database), with
 * the slow poll behind the watch that tail.ts uses. It ends as a tailed file does: after the
 * format's end marker and `endGraceMs` of nothing new, after `quietMs` of nothing new, when the
 * database is deleted, or on abort. A snapshot lost to a writer checkpointing without pause is read again at the next
 * change, never the end; a database deleted and made again (another inode) is read again from its start, with a
 * `session_truncated` notice.
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SessionLocation, SessionStore } from '../../kernel/session.js';
import { SnapshotLost } from '../../sqlite/pages.js';
import { Deadline, TailNotice, Waker, type TailOptions } from './tail.js';

const deleted = (db: string) => new TailNotice('session_deleted', `${db} was deleted; following it ends`);

export async function* followStore(
  store: SessionStore,
  location: SessionLocation,
  options: TailOptions,
): AsyncGenerator<Buffer | TailNotice> {
  const [db] = store.files(location);
  let cursor = options.from === 'end' ? await store.end(location) : undefined;
  options.onStart?.();
  // The directory, not the files: the `-wal` is created, removed and recreated as the writer checkpoints.
  const waker = new Waker(dirname(db!));
  const deadline = new Deadline(options);
  let inode = (await stat(db!).catch(() => undefined))?.ino;
  try {
    while (options.signal?.aborted !== true) {
      waker.arm();
      let read = false;
      const now = await stat(db!).catch(() => undefined);
      if (now === undefined) return yield deleted(db!);
      if (inode !== undefined && now.ino !== inode) {
        yield new TailNotice('session_truncated', `${db} was replaced; reading it again from its start`);
        cursor = undefined;
      }
      inode = now.ino;
      try {
        for await (const record of store.records(location, cursor)) {
          cursor = record.cursor;
          read = true;
          yield Buffer.from(`${record.line}\n`);
        }
      } catch (error) {
        // Deleted between the check and the read.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return yield deleted(db!);
        // What was read is given; the rest is read from a new snapshot at the next change.
        if (!(error instanceof SnapshotLost)) throw error;
      }
      if (read) {
        deadline.renew();
        continue;
      }
      const until = deadline.until();
      if (Date.now() >= until) return;
      await waker.wait(until, options.pollMs, [options.signal]);
    }
  } finally {
    waker.unwatch();
  }
}
