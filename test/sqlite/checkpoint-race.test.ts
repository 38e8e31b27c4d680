/**
 * The reader against a live writer that checkpoints as it commits (test/sqlite/race-writer.py, python3's sqlite3):
 * read on from the last row given, as following a store does, every row of every commit is given once and equals
 * what SQLite itself reads back, though the WAL was copied into the main file, emptied and restarted under the reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { readTable } from '../../lib/sqlite/database.js';
import { python } from './python.js';

const script = new URL('./race-writer.py', import.meta.url).pathname;
const COMMITS = 3000;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

test('3,000 commits with PASSIVE and TRUNCATE checkpoints among them: every row once, as SQLite reads it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-race-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, 'race.db');
  const { send, answer } = python(script, [db, String(COMMITS), '5', '37'], cleanup);
  expect(await answer()).toBe('ready');
  send('go');
  const given: [number, unknown, unknown][] = [];
  let done = false;
  let givenWhileWriting = 0;
  const finished = answer().then((line) => {
    expect(line).toBe('done');
    done = true;
    givenWhileWriting = given.length;
  });
  let cursor: bigint | undefined;
  for (;;) {
    // A last read once the writer is done: what it committed last is read too.
    const last = done;
    for await (const row of readTable(db, 't', cursor)) {
      given.push([Number(row.rowid), row.n, row.s]);
      cursor = row.rowid;
      // A reader handing each row on (as a follow does): the writer goes on meanwhile, under the same snapshot.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (last) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await finished;
  send('rows');
  const expected = JSON.parse(await answer()) as [number, number, string][];
  expect(expected).toHaveLength(COMMITS);
  expect(given.length).toBe(COMMITS);
  expect(given).toEqual(expected);
  // The reads raced the writer (not all after it).
  expect(givenWhileWriting).toBeGreaterThan(0);
});
