/**
 * The pages of a SQLite database as of its last committed transaction, WAL included, read without
 * SQLite: the main file's pages with the committed frames of its `-wal` laid over them
 * (sqlite.org/fileformat2.html, "The Database Header" and "WAL File Format"). Nothing is written
 * and no lock is taken, so the agent writing the database is never blocked; the `-shm` index is
 * never opened (the frames are found by reading the WAL itself). Without a reader lock a writer may
 * checkpoint or restart the WAL under us: each page read checks that its frame still has the
 * snapshot's salts and that the main file was not rewritten, and throws `SnapshotLost` when not,
 * so the caller takes a new snapshot and goes on from the last row it gave.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const HEADER = 'SQLite format 3\0';
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
/** Pages kept decoded between reads: a b-tree walk needs one per level plus the overflow chain it is on. */
const CACHED_PAGES = 32;

/** The database changed under the snapshot (a checkpoint or a WAL restart): take a new one. */
export class SnapshotLost extends Error {
  constructor() {
    super('the database changed under the read (a checkpoint or a WAL restart)');
  }
}

/** A file that is not a SQLite database (or a damaged one): the message says what is wrong. */
export class NotADatabase extends Error {}

interface FileStamp {
  size: number;
  mtimeMs: number;
}

export class PageSource {
  private readonly cache = new Map<number, Buffer>();

  private constructor(
    private readonly main: number,
    private readonly mainStamp: FileStamp,
    private readonly wal: number | undefined,
    /** Page number to the byte offset of its newest committed frame in the WAL. */
    private readonly frames: ReadonlyMap<number, number>,
    private readonly salts: readonly [number, number],
    readonly pageSize: number,
    /** Bytes at the end of each page that are not b-tree content (the header's "reserved space"). */
    readonly usableSize: number,
    readonly pageCount: number,
  ) {}

  /** A snapshot of the database at `path` as of its last commit (its `-wal` read when there is one). */
  static async open(path: string): Promise<PageSource> {
    const main = openSync(path, 'r');
    let wal: number | undefined;
    try {
      const stamp = fstatSync(main);
      const head = Buffer.alloc(100);
      const bytesRead = readSync(main, head, 0, 100, 0);
      if (bytesRead > 0 && (bytesRead < 100 || head.toString('latin1', 0, 16) !== HEADER))
        throw new NotADatabase(`${path} is not a SQLite database`);
      // Text is read as UTF-8 (OpenCode's databases are); the header's encoding 2 and 3 are UTF-16.
      if (bytesRead === 100 && head.readUInt32BE(56) > 1)
        throw new NotADatabase(`${path} stores its text as UTF-16, which is not read`);
      wal = openIfThere(`${path}-wal`);
      const walLog = wal === undefined ? undefined : readWal(wal);
      // A WAL of another page size than the main file's is not this database's (SQLite ignores it too).
      const log = bytesRead === 100 && walLog?.pageSize !== headerPageSize(head) ? undefined : walLog;
      if (log === undefined && wal !== undefined) {
        closeSync(wal);
        wal = undefined;
      }
      // A database never checkpointed yet has an empty main file: page 1 is in the WAL.
      const pageSize = bytesRead === 100 ? headerPageSize(head) : (log?.pageSize ?? 0);
      if (!validPageSize(pageSize))
        throw new NotADatabase(bytesRead === 0 ? `${path} is empty` : `${path} has no valid page size`);
      const reserved = bytesRead === 100 ? head[20]! : 0;
      return new PageSource(
        main,
        { size: stamp.size, mtimeMs: stamp.mtimeMs },
        wal,
        log?.frames ?? new Map(),
        log?.salts ?? [0, 0],
        pageSize,
        pageSize - reserved,
        log?.pageCount ?? Math.floor(stamp.size / pageSize),
      );
    } catch (error) {
      closeSync(main);
      if (wal !== undefined) closeSync(wal);
      throw error;
    }
  }

  /** Page `number` (1-based) as of the snapshot. */
  async page(number: number): Promise<Buffer> {
    const cached = this.cache.get(number);
    if (cached !== undefined) {
      this.cache.delete(number);
      this.cache.set(number, cached);
      return cached;
    }
    if (number < 1 || number > this.pageCount) throw new NotADatabase(`page ${number} is out of range`);
    const page = this.read(number);
    this.cache.set(number, page);
    if (this.cache.size > CACHED_PAGES) this.cache.delete(this.cache.keys().next().value!);
    return page;
  }

  // Synchronous reads: a page is a few KiB of a local file, and a promise per page costs more than the read.
  private read(number: number): Buffer {
    const offset = this.frames.get(number);
    if (offset !== undefined && this.wal !== undefined) {
      const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + this.pageSize);
      // A WAL cut short or restarted since the snapshot: the frame is no longer this snapshot's.
      if (readSync(this.wal, frame, 0, frame.length, offset) < frame.length) throw new SnapshotLost();
      if (frame.readUInt32BE(8) !== this.salts[0] || frame.readUInt32BE(12) !== this.salts[1]) throw new SnapshotLost();
      return frame.subarray(FRAME_HEADER_BYTES);
    }
    const page = Buffer.allocUnsafe(this.pageSize);
    const read = readSync(this.main, page, 0, this.pageSize, (number - 1) * this.pageSize);
    // A checkpoint writes WAL frames into the main file, newer ones than this snapshot's among them.
    const now = fstatSync(this.main);
    if (now.size !== this.mainStamp.size || now.mtimeMs !== this.mainStamp.mtimeMs) throw new SnapshotLost();
    if (read < this.pageSize) throw new NotADatabase(`page ${number} is past the end of the file and not in its WAL`);
    return page;
  }

  close(): void {
    this.cache.clear();
    closeSync(this.main);
    if (this.wal !== undefined) closeSync(this.wal);
  }
}

/** A file descriptor for reading, or undefined when the file is not there. */
function openIfThere(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch {
    return undefined;
  }
}

/** A power of two from 512 to 65536. */
const validPageSize = (size: number) => size >= 512 && size <= 65536 && (size & (size - 1)) === 0;

function headerPageSize(head: Buffer): number {
  const raw = head.readUInt16BE(16);
  return raw === 1 ? 65536 : raw;
}

interface WalIndex {
  frames: Map<number, number>;
  salts: [number, number];
  pageSize: number;
  /** The database size in pages after the last commit. */
  pageCount: number;
}

/**
 * The committed frames of a WAL: read from its header while each frame has the header's salts and
 * a valid running checksum; frames after the last commit frame belong to a transaction still open
 * (or torn) and are left out. Memory is one map entry per page the WAL holds, not its bytes.
 */
function readWal(wal: number): WalIndex | undefined {
  const header = Buffer.alloc(WAL_HEADER_BYTES);
  const bytesRead = readSync(wal, header, 0, WAL_HEADER_BYTES, 0);
  if (bytesRead < WAL_HEADER_BYTES) return undefined;
  const magic = header.readUInt32BE(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return undefined;
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = header.readUInt32BE(8);
  // SQLite ignores a WAL whose page size is not one a database can have (nor allocates what it says).
  if (!validPageSize(pageSize)) return undefined;
  let sum = checksum(header.subarray(0, 24), [0, 0], bigEndian);
  if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return undefined;
  const salts: [number, number] = [header.readUInt32BE(16), header.readUInt32BE(20)];
  const frames = new Map<number, number>();
  const pending = new Map<number, number>();
  let pageCount: number | undefined;
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + pageSize);
  for (let offset = WAL_HEADER_BYTES; ; offset += frame.length) {
    if (readSync(wal, frame, 0, frame.length, offset) < frame.length) break;
    if (frame.readUInt32BE(8) !== salts[0] || frame.readUInt32BE(12) !== salts[1]) break;
    sum = checksum(frame.subarray(0, 8), sum, bigEndian);
    sum = checksum(frame.subarray(FRAME_HEADER_BYTES), sum, bigEndian);
    if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20)) break;
    pending.set(frame.readUInt32BE(0), offset);
    const commitSize = frame.readUInt32BE(4);
    if (commitSize !== 0) {
      for (const [page, at] of pending) frames.set(page, at);
      pending.clear();
      pageCount = commitSize;
    }
  }
  return pageCount === undefined ? undefined : { frames, salts, pageSize, pageCount };
}

/** The WAL checksum: 32-bit words in the byte order the magic names, summed in pairs. */
function checksum(data: Buffer, [start0, start1]: readonly [number, number], bigEndian: boolean): [number, number] {
  let s0 = start0;
  let s1 = start1;
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}
