/**
 * Reading through an index (sqlite.org/fileformat2.html, "B-tree Pages"): the entries of an index
 * b-tree whose first columns equal a prefix, in index order, found by descending only into the
 * subtrees that can hold them. With them (and `tableRow`) a session's rows are read without
 * scanning the whole table (OpenCode's `event_aggregate_seq_idx` on `(aggregate_id,
 * seq)`).
 */
import { checkVisits, decodeRecord, MAX_DEPTH, payload, varint, type SqlValue } from './btree.js';
import { NotADatabase, type PageSource } from './pages.js';

const LEAF_INDEX = 0x0a;
const INTERIOR_INDEX = 0x02;

/** SQLite's order of values (NULL, numbers, text, blobs; text by its UTF-8 bytes, the BINARY collation). */
function compareValues(a: SqlValue, b: SqlValue): number {
  const rank = (value: SqlValue) =>
    value === null ? 0 : typeof value === 'number' || typeof value === 'bigint' ? 1 : typeof value === 'string' ? 2 : 3;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a === null || b === null) return 0;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An entry against the prefix: <0 before every match, 0 a match, >0 after them all. */
function againstPrefix(entry: readonly SqlValue[], prefix: readonly SqlValue[]): number {
  for (let i = 0; i < prefix.length; i++) {
    const order = compareValues(entry[i] ?? null, prefix[i]!);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The entries of the index rooted at `root` whose first columns equal `prefix`, in index order (each entry's last
 * value is its row's rowid). Interior cells are entries too: child i holds the entries before cell i.
 */
export async function* indexEntries(
  source: PageSource,
  root: number,
  prefix: readonly SqlValue[],
): AsyncGenerator<SqlValue[]> {
  // Pages still to visit and interior entries still to give, the next one last.
  const stack: ({ page: number; depth: number } | { entry: SqlValue[] })[] = [{ page: root, depth: 0 }];
  let visited = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if ('entry' in next) {
      yield next.entry;
      continue;
    }
    const { page: number, depth } = next;
    if (depth > MAX_DEPTH) throw new NotADatabase('a b-tree deeper than SQLite allows (a loop in its pages)');
    checkVisits(source, ++visited);
    const page = await source.page(number);
    const base = number === 1 ? 100 : 0;
    const kind = page[base]!;
    const cells = page.readUInt16BE(base + 3);
    if (kind !== LEAF_INDEX && kind !== INTERIOR_INDEX)
      throw new NotADatabase(`page ${number} is not an index b-tree page (type ${kind})`);
    const interior = kind === INTERIOR_INDEX;
    // What this page adds, in order; pushed reversed so that the first is visited first.
    const visits: ({ page: number; depth: number } | { entry: SqlValue[] })[] = [];
    let past = false;
    for (let i = 0; i < cells && !past; i++) {
      let at = page.readUInt16BE(base + (interior ? 12 : 8) + 2 * i);
      const child = interior ? page.readUInt32BE(at) : 0;
      if (interior) at += 4;
      const [size, start] = varint(page, at);
      const entry = decodeRecord(await payload(source, page, start, Number(size), true));
      const order = againstPrefix(entry, prefix);
      // Entries before cell i are at most it: a cell before the prefix rules its left subtree out.
      if (interior && order >= 0) visits.push({ page: child, depth: depth + 1 });
      if (order === 0) {
        if (interior) visits.push({ entry });
        else yield entry;
      }
      past = order > 0;
    }
    if (interior && !past) visits.push({ page: page.readUInt32BE(base + 8), depth: depth + 1 });
    stack.push(...visits.reverse());
  }
}
