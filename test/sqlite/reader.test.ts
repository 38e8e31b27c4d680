/**
 * The SQLite reader (lib/sqlite/) against real SQLite: python3's sqlite3 writes a WAL
 * database (test/sqlite/sql-writer.py, one statement per command, answered once it has run) and
 * says what each table holds; the reader must give exactly that, from the main file and the
 * committed frames of the -wal, while the writer keeps the database open and goes on writing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { SqlValue } from '../../lib/sqlite/btree.js';
import { columnsOf, lastRow, readTable } from '../../lib/sqlite/database.js';
import { python } from './python.js';

const script = new URL('./sql-writer.py', import.meta.url).pathname;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function writer(name = 'test.db') {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-sqlite-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, name);
  const { send, answer } = python(script, [db], cleanup);
  const ask = async (line: string): Promise<string> => {
    send(line);
    return answer(line);
  };
  return { db, ask };
}

/** A value as sql-writer.py prints it. */
function plain(value: SqlValue): unknown {
  if (value instanceof Uint8Array) return { hex: Buffer.from(value).toString('hex') };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

async function rows(db: string, table: string, after?: bigint): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const row of readTable(db, table, after)) {
    const { rowid, ...columns } = row;
    out.push([Number(rowid), ...Object.values(columns).map(plain)]);
  }
  return out;
}

describe('the SQLite reader', () => {
  test('every value type, overflow chains, interior pages and added columns, all still in the WAL', async () => {
    const { db, ask } = await writer();
    const statements = [
      'CREATE TABLE t (`id` text PRIMARY KEY, "a b" integer, [c] real, d blob, e text, CONSTRAINT x CHECK ' +
        '(length(id) > 0))',
      "INSERT INTO t VALUES ('nulls', NULL, NULL, NULL, NULL)",
      "INSERT INTO t VALUES ('ints', 0, 1, x'00ff', '')",
      ...[
        '127',
        '-128',
        '32767',
        '-8388608',
        '2147483647',
        '-140737488355328',
        '9007199254740993',
        '-4611686018427387904',
      ].map((n) => `INSERT INTO t VALUES ('n${n}', ${n}, ${n}.5, NULL, 'é ✓')`),
      // Rows past a page (overflow chains) and enough rows for interior pages.
      "INSERT INTO t VALUES ('big', 1, 2.5, randomblob(20000), printf('%.*c', 70000, 'x'))",
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO t SELECT 'r' " +
        "|| i, i, i / 7.0, NULL, printf('%.*c', i % 900, 'y') FROM n",
      'ALTER TABLE t ADD COLUMN f text',
      "INSERT INTO t VALUES ('last', 2, 3.5, NULL, 'z', 'added')",
      'CREATE TABLE w (k text PRIMARY KEY, v text) WITHOUT ROWID',
    ];
    for (const statement of statements) expect(await ask(statement)).toBe('ok');
    const expected = JSON.parse(await ask('rows t')) as unknown[][];
    expect(expected).toHaveLength(3012);
    // A row written before the ALTER TABLE has no value for the added column: NULL, as SQLite reads it.
    expect(await rows(db, 't')).toEqual(expected);
    expect(await lastRow(db, 't')).toBe(3012n);
    // Rowids after a cursor: the descent skips the subtrees before it.
    expect(await rows(db, 't', 3000n)).toEqual(expected.slice(3000));
    // A WITHOUT ROWID table is an index b-tree: not read (no rows, not a wrong reading).
    expect(await rows(db, 'w')).toEqual([]);
    expect(await rows(db, 'missing')).toEqual([]);
  });

  test('a transaction not yet committed is not read, though its pages are already in the WAL', async () => {
    const { db, ask } = await writer();
    for (const statement of [
      'CREATE TABLE t (id integer, s text)',
      "INSERT INTO t VALUES (1, 'committed')",
      // A cache of a few pages: the open transaction spills its pages into the WAL before any commit frame.
      'PRAGMA cache_size=2',
      'BEGIN',
      'WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 400) INSERT INTO t SELECT i, ' +
        "printf('%.*c', 3000, 'u') FROM n",
    ])
      expect(await ask(statement)).toBe('ok');
    expect(await rows(db, 't')).toEqual([[1, 1, 'committed']]);
    expect(await ask('COMMIT')).toBe('ok');
    expect(await rows(db, 't')).toHaveLength(400);
  });

  test('a checkpoint in the middle of a scan: the scan goes on from a new snapshot, nothing twice', async () => {
    const { db, ask } = await writer();
    expect(await ask('CREATE TABLE t (id integer, s text)')).toBe('ok');
    expect(
      await ask(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i, ' +
          "printf('%.*c', 500, 'v') FROM n",
      ),
    ).toBe('ok');
    const seen: number[] = [];
    for await (const row of readTable(db, 't')) {
      seen.push(row.id as number);
      if (seen.length === 1) {
        // The writer moves every page into the main file (rewriting it) and empties the WAL, then writes more.
        expect(await ask('PRAGMA wal_checkpoint(TRUNCATE)')).toBe('ok');
        expect(await ask("INSERT INTO t VALUES (2001, 'after')")).toBe('ok');
      }
    }
    expect(seen).toEqual(Array.from({ length: 2001 }, (_, i) => i + 1));
  });

  test('a long scan lets the event loop turn (a signal handler or a timer is not held off until it ends)', async () => {
    const { db, ask } = await writer();
    expect(await ask('CREATE TABLE t (id integer, s text)')).toBe('ok');
    expect(
      await ask(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i, ' +
          "printf('%.*c', 1000, 'v') FROM n",
      ),
    ).toBe('ok');
    let rows = 0;
    let rowsAtTurn: number | undefined;
    setImmediate(() => (rowsAtTurn = rows));
    for await (const row of readTable(db, 't')) if (row.rowid > 0n) rows++;
    expect(rows).toBe(5000);
    // The callback queued before the scan ran during it, not after its 5,000 rows.
    expect(rowsAtTurn).toBeLessThan(5000);
  });

  test('a filter on the first column of an index on (column, order) seeks through it, in its order', async () => {
    const { db, ask } = await writer();
    for (const statement of [
      'CREATE TABLE ev (id text PRIMARY KEY, agg text NOT NULL, seq integer NOT NULL, data text)',
      'CREATE UNIQUE INDEX ev_agg_seq ON ev (agg, seq)',
      'CREATE INDEX ev_agg_type ON ev (agg, data)',
      // Seven sessions' rows interleaved, long keys (a deep index, entries in interior cells), seq not in rowid order.
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999) INSERT INTO ev SELECT 'e' " +
        "|| i, printf('ses_%d_%.*c', (i * 7919) % 7, 300, 'k'), (i * 37) % 5000, printf('%.*c', (i * 31) % 700, " +
        "'d') FROM n",
    ])
      expect(await ask(statement)).toBe('ok');
    for (const session of [0, 3, 6]) {
      const agg = `ses_${session}_${'k'.repeat(300)}`;
      const expected = JSON.parse(
        await ask(`SELECT rowid, id, agg, seq, data FROM ev WHERE agg = '${agg}' ORDER BY seq`),
      ) as unknown[][];
      expect(expected.length).toBeGreaterThan(700);
      const where = { column: 'agg', value: agg, orderBy: 'seq' };
      const got: unknown[][] = [];
      for await (const { rowid, ...row } of readTable(db, 'ev', undefined, where))
        got.push([Number(rowid), ...Object.values(row)]);
      expect(got).toEqual(expected);
      const after: unknown[][] = [];
      for await (const { rowid } of readTable(db, 'ev', 4000n, where)) after.push([Number(rowid)]);
      expect(after).toEqual(expected.filter(([rowid]) => (rowid as number) > 4000).map(([rowid]) => [rowid]));
    }
    expect(await rows(db, 'ev', undefined)).toHaveLength(5000);
    const none: unknown[] = [];
    for await (const row of readTable(db, 'ev', undefined, { column: 'agg', value: 'ses_9', orderBy: 'seq' }))
      none.push(row);
    expect(none).toEqual([]);
  });

  test('column names of CREATE TABLE statements, constraints left out', () => {
    expect(
      columnsOf(
        'CREATE TABLE `e` (\n\t`id` text PRIMARY KEY,\n\t`n` integer DEFAULT (1, 2),\n\tCONSTRAINT `f` FOREIGN ' +
          'KEY (`id`) REFERENCES `x`(`id`)\n)',
      ),
    ).toEqual(['id', 'n']);
    expect(columnsOf('CREATE TABLE t ("a ""q""" text, [b c], d, PRIMARY KEY (d), CHECK (d > 0))')).toEqual([
      'a "q"',
      'b c',
      'd',
    ]);
  });
});
