/**
 * The rows of a table b-tree in rowid order (sqlite.org/fileformat2.html, "B-tree Pages" and
 * "Record Format"): interior pages are descended from the first child that can hold a rowid past
 * `after`, leaf cells decoded into their column values, overflow chains followed. Only rowid
 * tables are read (the tables OpenCode's migrations create); an index or WITHOUT ROWID tree is
 * refused.
 */
import { NotADatabase, type PageSource } from './pages.js';

export type SqlValue = null | number | bigint | string | Uint8Array;

export interface Row {
  readonly rowid: bigint;
  /** The row's record, decoded by `decodeRecord` (a reader that filters decodes a column or two first). */
  readonly record: Buffer;
}

const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
/** Deeper than any b-tree of a file SQLite can address: a loop in the pages, not a tree. */
export const MAX_DEPTH = 40;

/**
 * The table rooted at page `root`, rows with a rowid greater than `after` (all when undefined): a depth-first walk
 * with its own stack (a generator per level would hand every row up through each of them).
 */
export async function* tableRows(source: PageSource, root: number, after?: bigint): AsyncGenerator<Row> {
  // Pages still to visit, the next one last, each with its depth.
  const stack: [number, number][] = [[root, 0]];
  let visited = 0;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [number, depth] = next;
    if (depth > MAX_DEPTH) throw new NotADatabase('a b-tree deeper than SQLite allows (a loop in its pages)');
    checkVisits(source, ++visited);
    const page = await source.page(number);
    // Page 1 starts with the 100-byte database header.
    const base = number === 1 ? 100 : 0;
    const kind = page[base]!;
    const cells = page.readUInt16BE(base + 3);
    if (kind === INTERIOR_TABLE) {
      stack.push([page.readUInt32BE(base + 8), depth + 1]);
      for (let i = cells - 1; i >= 0; i--) {
        const cell = page.readUInt16BE(base + 12 + 2 * i);
        // The key is the largest rowid in the child's subtree: one ending at or before `after` is skipped.
        const key = BigInt.asIntN(64, varint(page, cell + 4)[0]);
        if (after === undefined || key > after) stack.push([page.readUInt32BE(cell), depth + 1]);
      }
      continue;
    }
    if (kind !== LEAF_TABLE) throw new NotADatabase(`page ${number} is not a table b-tree page (type ${kind})`);
    for (let i = 0; i < cells; i++) {
      const [size, sizeEnd] = varint(page, page.readUInt16BE(base + 8 + 2 * i));
      const [unsigned, rowidEnd] = varint(page, sizeEnd);
      const rowid = BigInt.asIntN(64, unsigned);
      if (after !== undefined && rowid <= after) continue;
      yield { rowid, record: await payload(source, page, rowidEnd, Number(size)) };
    }
  }
}

/** A tree visits each page once: a walk past the pages there are met a page twice (interior pages forming a DAG). */
export function checkVisits(source: PageSource, visited: number): void {
  if (visited > source.existingPages)
    throw new NotADatabase(`a b-tree walk visits more pages than the file has (${source.existingPages})`);
}

/**
 * The leaf a descent of the table rooted at `root` ends at: at each interior page the first child whose largest
 * rowid is at least `rowid`, else (and always without a rowid) the rightmost.
 */
async function leafFor(source: PageSource, root: number, rowid?: bigint): Promise<{ page: Buffer; cells: number[] }> {
  let number = root;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const page = await source.page(number);
    const base = number === 1 ? 100 : 0;
    const count = page.readUInt16BE(base + 3);
    if (page[base] === INTERIOR_TABLE) {
      number = page.readUInt32BE(base + 8);
      for (let i = 0; rowid !== undefined && i < count; i++) {
        const cell = page.readUInt16BE(base + 12 + 2 * i);
        if (BigInt.asIntN(64, varint(page, cell + 4)[0]) >= rowid) {
          number = page.readUInt32BE(cell);
          break;
        }
      }
      continue;
    }
    if (page[base] !== LEAF_TABLE) throw new NotADatabase(`page ${number} is not a table b-tree page`);
    return { page, cells: Array.from({ length: count }, (_, i) => page.readUInt16BE(base + 8 + 2 * i)) };
  }
  throw new NotADatabase('a b-tree deeper than SQLite allows (a loop in its pages)');
}

/** The largest rowid of the table rooted at `root` (its rightmost leaf's last cell), undefined when it is empty. */
export async function lastRowid(source: PageSource, root: number): Promise<bigint | undefined> {
  const { page, cells } = await leafFor(source, root);
  const last = cells[cells.length - 1];
  return last === undefined ? undefined : BigInt.asIntN(64, varint(page, varint(page, last)[1])[0]);
}

/** The row of the table rooted at `root` with `rowid`, undefined when there is none. */
export async function tableRow(source: PageSource, root: number, rowid: bigint): Promise<Row | undefined> {
  const { page, cells } = await leafFor(source, root, rowid);
  for (const cell of cells) {
    const [size, sizeEnd] = varint(page, cell);
    const [key, keyEnd] = varint(page, sizeEnd);
    if (BigInt.asIntN(64, key) === rowid) return { rowid, record: await payload(source, page, keyEnd, Number(size)) };
  }
  return undefined;
}

/** A cell's payload: the bytes on the page, then its overflow chain (`index`: an index b-tree's cell). */
export async function payload(
  source: PageSource,
  page: Buffer,
  at: number,
  size: number,
  index = false,
): Promise<Buffer> {
  const usable = source.usableSize;
  const local = localBytes(size, usable, index);
  if (local === size) return page.subarray(at, at + size);
  // A payload cannot be larger than the pages there are: a damaged size is not allocated.
  if (size > source.existingPages * usable) throw new NotADatabase('a cell larger than the database');
  const out = Buffer.alloc(size);
  page.copy(out, 0, at, at + local);
  let filled = local;
  let next = page.readUInt32BE(at + local);
  for (let hops = 0; filled < size; hops++) {
    if (next === 0 || hops > source.existingPages) throw new NotADatabase('an overflow chain ends before its payload');
    const overflow = await source.page(next);
    const take = Math.min(size - filled, usable - 4);
    overflow.copy(out, filled, 4, 4 + take);
    filled += take;
    next = overflow.readUInt32BE(0);
  }
  return out;
}

/** How much of a cell's payload is stored on the page itself (the format's X, M and K). */
function localBytes(size: number, usable: number, index: boolean): number {
  const max = index ? Math.floor(((usable - 12) * 64) / 255) - 23 : usable - 35;
  if (size <= max) return size;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((size - min) % (usable - 4));
  return k <= max ? k : min;
}

/**
 * A record's column values: the header's serial types, then the values they describe (UTF-8 text); only the first
 * `count` columns when it is given.
 */
export function decodeRecord(record: Buffer, count = Infinity): SqlValue[] {
  const [headerSize, first] = varint(record, 0);
  const types: bigint[] = [];
  for (let at = first; at < Number(headerSize) && types.length < count;) {
    const [type, next] = varint(record, at);
    types.push(type);
    at = next;
  }
  const values: SqlValue[] = [];
  let at = Number(headerSize);
  for (const serial of types) {
    const type = Number(serial);
    if (type >= 12) {
      const length = Math.floor((type - 12) / 2);
      const bytes = record.subarray(at, at + length);
      values.push(type % 2 === 0 ? new Uint8Array(bytes) : bytes.toString('utf8'));
      at += length;
      continue;
    }
    const width = INT_WIDTHS[type];
    if (width !== undefined) {
      values.push(width === 0 ? null : integer(record, at, width));
      at += width;
    } else if (type === 7) {
      values.push(record.readDoubleBE(at));
      at += 8;
    } else if (type === 8 || type === 9) values.push(type - 8);
    else throw new NotADatabase(`a record with the reserved serial type ${type}`);
  }
  return values;
}

/** Serial types 0 (NULL) to 6: the big-endian two's-complement integer's width in bytes. */
const INT_WIDTHS: Readonly<Record<number, number>> = { 0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8 };

/** A number when it is exact as one, else a bigint. */
function integer(data: Buffer, at: number, width: number): number | bigint {
  if (width <= 6) return data.readIntBE(at, width);
  const value = data.readBigInt64BE(at);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** SQLite's varint: up to eight bytes of seven bits, then a ninth of eight; gives the value and the offset after it. */
export function varint(data: Buffer, at: number): [bigint, number] {
  const first = data[at];
  if (first !== undefined && first < 0x80) return [BigInt(first), at + 1];
  let value = 0n;
  for (let i = 0; i < 8; i++) {
    const byte = data[at + i];
    if (byte === undefined) throw new NotADatabase('a varint runs past its page');
    value = (value << 7n) | BigInt(byte & 0x7f);
    if (byte < 0x80) return [value, at + i + 1];
  }
  const last = data[at + 8];
  if (last === undefined) throw new NotADatabase('a varint runs past its page');
  return [(value << 8n) | BigInt(last), at + 9];
}
