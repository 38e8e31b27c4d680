/**
 * A SQLite database read by table name, row by row, as objects keyed by column name: the schema
 * (`sqlite_schema`, page 1) gives each table's root page and its `CREATE TABLE` columns. Reading
 * survives a writer's checkpoint: when the snapshot is lost mid-scan, a new one is taken and the
 * scan goes on after the last rowid it gave (rows are never re-given, none skipped that existed).
 */
import { decodeRecord, lastRowid, tableRow, tableRows, type Row, type SqlValue } from './btree.js';
import { indexEntries } from './index-tree.js';
import { backOff, NotADatabase, PageSource, SnapshotLost } from './pages.js';

type SqlRow = Readonly<Record<string, SqlValue>> & { readonly rowid: bigint };

interface Table {
  readonly root: number;
  readonly columns: readonly string[];
  /** Its plain indexes (ascending, BINARY, no WHERE): their columns, and their root page. */
  readonly indexes: { readonly columns: readonly string[]; readonly root: number }[];
}

/**
 * Snapshots lost in a row, with no row given between them, before a scan gives up (each waits longer, up to 20 ms: some
 * 20 s in all): a writer checkpointing faster than a row can be read, all that time.
 */
const MAX_RETRIES = 1000;

/** Only the rows whose `column` holds `value` (compared before the rest of the row is decoded). */
interface RowFilter {
  readonly column: string;
  readonly value: SqlValue;
  /**
   * The column whose order the rows are wanted in: an index on exactly `(column, orderBy)` is then read instead of
   * the whole table. Without an index, rowid order.
   */
  readonly orderBy?: string;
}

/**
 * The rows of `table` in the database at `path` with rowids after `after`, in rowid order; with a filter on a column
 * an index leads with, in that index's order (for OpenCode's log, `(aggregate_id, seq)`: the order rows were written).
 * A read resumed after a lost snapshot skips the rows at or before the last rowid it gave: through an index, that
 * holds when the index's order is the rowid order, as the log's is.
 */
export async function* readTable(
  path: string,
  table: string,
  after?: bigint,
  where?: RowFilter,
): AsyncGenerator<SqlRow> {
  let last = after;
  for (let retries = 0; ;) {
    const source = await PageSource.open(path);
    try {
      const found = await tableOf(source, table);
      if (found === undefined) return;
      const filtered = where === undefined ? -1 : found.columns.indexOf(where.column);
      const index =
        where?.orderBy === undefined
          ? undefined
          : found.indexes.find(({ columns }) => columns.join() === [where.column, where.orderBy].join())?.root;
      const scan = index === undefined;
      const rows = scan ? tableRows(source, found.root, last) : indexedRows(source, found.root, index, where!, last);
      for await (const row of rows) {
        // A b-tree gives its rowids in ascending order: one that does not is a page reached twice (a damaged file).
        if (scan && last !== undefined && row.rowid <= last)
          throw new NotADatabase(`${path}: ${table} gives row ${row.rowid} again (a page reached twice)`);
        last = row.rowid;
        retries = 0;
        if (filtered >= 0 && decodeRecord(row.record, filtered + 1)[filtered] !== where!.value) continue;
        const values = decodeRecord(row.record);
        const named: Record<string, SqlValue> = {};
        // Rows written before an `ALTER TABLE ... ADD COLUMN` are shorter: the missing columns are NULL.
        found.columns.forEach((column, index) => (named[column] = values[index] ?? null));
        yield { ...named, rowid: row.rowid };
      }
      return;
    } catch (error) {
      if (!retryable(error, source) || ++retries > MAX_RETRIES) throw error;
    } finally {
      source.close();
    }
    await backOff(retries);
  }
}

/**
 * Whether a read that failed is to be taken again from a new snapshot: the snapshot was lost, or what looked damaged
 * was read from files that changed under it (a page of a newer commit than the snapshot's is not damage).
 */
function retryable(error: unknown, source: PageSource): boolean {
  return error instanceof SnapshotLost || (error instanceof NotADatabase && !source.stillCurrent());
}

/** The largest rowid of `table` now (undefined when it is empty or missing). */
export async function lastRow(path: string, table: string): Promise<bigint | undefined> {
  for (let retries = 0; ; retries++) {
    const source = await PageSource.open(path);
    try {
      const found = await tableOf(source, table);
      return found === undefined ? undefined : await lastRowid(source, found.root);
    } catch (error) {
      if (!retryable(error, source) || retries >= MAX_RETRIES) throw error;
    } finally {
      source.close();
    }
    await backOff(retries);
  }
}

/**
 * The table named `table` in the schema, undefined when there is none (nor a rowid table of that name). Only its own
 * definition and its indexes' are parsed: one the reader cannot parse elsewhere in the schema does not matter.
 */
async function tableOf(source: PageSource, table: string): Promise<Table | undefined> {
  let found: { root: number; sql: string } | undefined;
  const indexes: Table['indexes'] = [];
  for await (const row of tableRows(source, 1)) {
    const [type, name, owner, root, sql] = decodeRecord(row.record);
    if (typeof name !== 'string' || typeof root !== 'number' || typeof sql !== 'string') continue;
    if (type === 'index' && owner === table) {
      const columns = plainColumns(sql);
      if (columns !== undefined) indexes.push({ columns, root });
    }
    // A WITHOUT ROWID table is an index b-tree, which tableRows does not read.
    if (type === 'table' && name === table && !/\)\s*WITHOUT\s+ROWID\s*$/i.test(sql)) found = { root, sql };
  }
  return found && { root: found.root, columns: columnsOf(found.sql), indexes };
}

/** The columns of a `CREATE INDEX` whose order is its columns' own (no expression, COLLATE, DESC or WHERE). */
function plainColumns(sql: string): string[] | undefined {
  if (/\)\s*WHERE\s/i.test(sql)) return undefined;
  const open = sql.indexOf('(');
  const close = sql.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const columns: string[] = [];
  for (const definition of splitTopLevel(sql.slice(open + 1, close))) {
    const match = /^\s*(?:`([^`]+)`|"([^"]+)"|\[([^\]]+)\]|(\w+))(?:\s+ASC)?\s*$/i.exec(definition);
    if (match === null) return undefined;
    columns.push(match[1] ?? match[2] ?? match[3] ?? match[4]!);
  }
  return columns;
}

/** The rows an index lists under `where.value`, found in the table by rowid; those at or before `after` left out. */
async function* indexedRows(
  source: PageSource,
  root: number,
  index: number,
  where: RowFilter,
  after: bigint | undefined,
): AsyncGenerator<Row> {
  for await (const entry of indexEntries(source, index, [where.value])) {
    const key = entry[entry.length - 1];
    if (typeof key !== 'number' && typeof key !== 'bigint') throw new NotADatabase('an index entry without a rowid');
    const rowid = BigInt(key);
    if (after !== undefined && rowid <= after) continue;
    const row = await tableRow(source, root, rowid);
    if (row === undefined) throw new NotADatabase(`an index names row ${rowid}, which its table has not`);
    yield row;
  }
}

/** Words that start a table constraint rather than a column definition. */
const CONSTRAINTS = new Set(['constraint', 'primary', 'unique', 'check', 'foreign']);

/** The column names of a `CREATE TABLE` statement, in order (quoted with `"`, `` ` ``, `[` or bare). */
export function columnsOf(sql: string): string[] {
  const open = sql.indexOf('(');
  const close = sql.lastIndexOf(')');
  if (open < 0 || close < open) throw new NotADatabase(`a table definition without columns: ${sql.slice(0, 80)}`);
  const columns: string[] = [];
  for (const definition of splitTopLevel(sql.slice(open + 1, close))) {
    const match = /^\s*(?:"((?:[^"]|"")*)"|`((?:[^`]|``)*)`|\[([^\]]*)\]|([^\s(]+))/.exec(definition);
    if (match === null) continue;
    const bare = match[4];
    if (bare !== undefined && CONSTRAINTS.has(bare.toLowerCase())) continue;
    const name = match[1]?.replaceAll('""', '"') ?? match[2]?.replaceAll('``', '`') ?? match[3] ?? bare!;
    columns.push(name);
  }
  return columns;
}

/** The comma-separated parts of a column list, commas inside parentheses or quotes kept. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === '`' || char === "'") quote = char;
    else if (char === '[') quote = ']';
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The names of the database's tables, from its schema (a damaged file: the error reading it). */
export async function tableNames(path: string): Promise<string[]> {
  for (let retries = 0; ; retries++) {
    const source = await PageSource.open(path);
    try {
      const names: string[] = [];
      for await (const row of tableRows(source, 1)) {
        const [type, name] = decodeRecord(row.record, 2);
        if (type === 'table' && typeof name === 'string') names.push(name);
      }
      return names;
    } catch (error) {
      if (!retryable(error, source) || retries >= MAX_RETRIES) throw error;
    } finally {
      source.close();
    }
    await backOff(retries);
  }
}
