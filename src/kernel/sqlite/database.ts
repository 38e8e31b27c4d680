/**
 * A SQLite database read by table name, row by row, as objects keyed by column name: the schema
 * (`sqlite_schema`, page 1) gives each table's root page and its `CREATE TABLE` columns. Reading
 * survives a writer's checkpoint: when the snapshot is lost mid-scan, a new one is taken and the
 * scan goes on after the last rowid it gave (rows are never re-given, none skipped that existed).
 */
import { decodeRecord, lastRowid, tableRows, type SqlValue } from './btree.js';
import { NotADatabase, PageSource, SnapshotLost } from './pages.js';

export type SqlRow = Readonly<Record<string, SqlValue>> & { readonly rowid: bigint };

interface Table {
  readonly root: number;
  readonly columns: readonly string[];
}

/** Snapshots lost in a row before a scan gives up: a writer checkpointing faster than a page can be read. */
const MAX_RETRIES = 20;

/** Only the rows whose `column` holds `value` (compared before the rest of the row is decoded). */
export interface RowFilter {
  readonly column: string;
  readonly value: SqlValue;
}

/** The rows of `table` in the database at `path` with rowids after `after`, in rowid order. */
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
      const found = (await schema(source)).get(table);
      if (found === undefined) return;
      const filtered = where === undefined ? -1 : found.columns.indexOf(where.column);
      for await (const row of tableRows(source, found.root, last)) {
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
      if (!(error instanceof SnapshotLost) || ++retries > MAX_RETRIES) throw error;
    } finally {
      source.close();
    }
  }
}

/** The largest rowid of `table` now (undefined when it is empty or missing). */
export async function lastRow(path: string, table: string): Promise<bigint | undefined> {
  for (let retries = 0; ; retries++) {
    const source = await PageSource.open(path);
    try {
      const found = (await schema(source)).get(table);
      return found === undefined ? undefined : await lastRowid(source, found.root);
    } catch (error) {
      if (!(error instanceof SnapshotLost) || retries >= MAX_RETRIES) throw error;
    } finally {
      source.close();
    }
  }
}

/** The tables of the schema by name (indexes, views and triggers left out). */
async function schema(source: PageSource): Promise<Map<string, Table>> {
  const tables = new Map<string, Table>();
  for await (const row of tableRows(source, 1)) {
    const [type, name, , root, sql] = decodeRecord(row.record);
    if (type !== 'table' || typeof name !== 'string' || typeof root !== 'number' || typeof sql !== 'string') continue;
    // A WITHOUT ROWID table is an index b-tree, which tableRows does not read.
    if (/\)\s*WITHOUT\s+ROWID\s*$/i.test(sql)) continue;
    tables.set(name, { root, columns: columnsOf(sql) });
  }
  return tables;
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
