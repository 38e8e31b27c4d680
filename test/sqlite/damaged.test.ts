/**
 * The SQLite reader on damaged files made from real ones (test/sqlite/damage.py): what a damaged page or WAL header
 * says is never allocated or followed forever; the read ends with a NotADatabase naming it, or reads what is sound.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { readTable } from '../../lib/sqlite/database.js';
import { NotADatabase } from '../../lib/sqlite/pages.js';

const script = new URL('./damage.py', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function damaged(mode: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-damaged-'));
  dirs.push(dir);
  const db = join(dir, 'test.db');
  execFileSync('python3', [script, mode, db]);
  return db;
}

async function count(db: string): Promise<number> {
  let rows = 0;
  for await (const row of readTable(db, 't')) if (row.rowid > 0n) rows++;
  return rows;
}

test(
  'interior pages that all point at one child: the rows it gives ' + 'again end the read, not 2,000 x its fan-out',
  async () => {
    const read = count(damaged('dag'));
    await expect(read).rejects.toThrow(NotADatabase);
    await expect(read).rejects.toThrow(/gives row \d+ again \(a page reached twice\)/);
  },
);

test.each(['wal-1001', 'wal-huge'])(
  '%s: a WAL of a page size no database has is ignored, as SQLite does',
  async (mode) => {
    expect(await count(damaged(mode))).toBe(2000);
  },
);

test(
  '24 levels of interior pages all naming one child (no loop, no row): ' + 'the walk ends at the pages the file has',
  async () => {
    const read = count(damaged('dag-deep'));
    await expect(read).rejects.toThrow(NotADatabase);
    await expect(read).rejects.toThrow('a b-tree walk visits more pages than the file has (70)');
  },
);

test(
  'a 1.2 GB payload on a self-linked overflow page, under a WAL commit ' + 'of 0xfffffff0 pages: nothing allocated',
  async () => {
    // The bound is the pages that exist (the main file's 7 and the WAL's one frame), not the page count a frame claims.
    const read = count(damaged('huge-cell'));
    await expect(read).rejects.toThrow(NotADatabase);
    await expect(read).rejects.toThrow('a cell larger than the database');
  },
);

test('an unused table whose definition cannot be parsed: the table read is read', async () => {
  expect(await count(damaged('bad-sql'))).toBe(2000);
});
