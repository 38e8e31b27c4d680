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
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

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

/** Snapshots taken again in a row, each changed while it was being taken, before `open` gives up. */
const OPEN_ATTEMPTS = 200;
/** Page reads between two turns of the event loop: a long scan of a local file must not hold off signals and timers. */
const READS_PER_TURN = 256;

/** The `-wal` as the snapshot saw it, and the frames written after the snapshot's last commit, page numbers only. */
interface WalWatch {
  readonly fd: number;
  readonly ino: number;
  /** Its 32-byte header then (empty when it had none): another one means the WAL restarted. */
  readonly header: Buffer;
  frameBytes: number;
  /** The end of the frames looked at so far, and the offsets of each page's frames among them. */
  scanned: number;
  readonly later: Map<number, number[]>;
}

export class PageSource {
  private readonly cache = new Map<number, Buffer>();
  private reads = 0;

  private constructor(
    private readonly path: string,
    private readonly main: number,
    /** The main file's size, modification time and 100-byte header as the snapshot saw them. */
    private readonly mainStamp: { size: number; mtimeMs: number; head: Buffer },
    private wal: WalWatch | undefined,
    /** Page number to the byte offset of its newest committed frame in the WAL. */
    private readonly frames: ReadonlyMap<number, number>,
    private readonly salts: readonly [number, number],
    readonly pageSize: number,
    /** Bytes at the end of each page that are not b-tree content (the header's "reserved space"). */
    readonly usableSize: number,
    readonly pageCount: number,
    /**
     * The most distinct pages the snapshot can give (the main file's, and the WAL's frames): no walk visits more, no
     * overflow chain is longer, no payload larger than this many pages. What a damaged page says is bounded by it.
     */
    readonly existingPages: number,
  ) {}

  /**
   * A snapshot of the database at `path` as of its last commit (its `-wal` read when there is one). A checkpoint or a
   * WAL restart while it is taken is seen by looking again once the WAL is indexed (the WAL's inode, size and header,
   * the main file's size, time and header, its change counter among them): such a snapshot is taken again.
   */
  static async open(path: string): Promise<PageSource> {
    for (let attempt = 1; ; attempt++) {
      const source = PageSource.take(path);
      if (source !== undefined) return source;
      if (attempt >= OPEN_ATTEMPTS) throw new SnapshotLost();
      await backOff(attempt);
    }
  }

  /** One attempt at a snapshot: undefined when the files changed while it was taken. */
  private static take(path: string): PageSource | undefined {
    const main = openSync(path, 'r');
    // The WAL's header first, the main file then: the same header once the frames are read means no checkpoint emptied
    // or restarted it after the main file was looked at.
    const wal = openIfThere(`${path}-wal`);
    try {
      const watch = wal === undefined ? undefined : walWatch(wal);
      const stamp = fstatSync(main);
      const head = Buffer.alloc(100);
      const bytesRead = readSync(main, head, 0, 100, 0);
      if (bytesRead > 0 && (bytesRead < 100 || head.toString('latin1', 0, 16) !== HEADER))
        throw new NotADatabase(`${path} is not a SQLite database`);
      // Text is read as UTF-8 (OpenCode's databases are); the header's encoding 2 and 3 are UTF-16.
      if (bytesRead === 100 && head.readUInt32BE(56) > 1)
        throw new NotADatabase(`${path} stores its text as UTF-16, which is not read`);
      const walLog = wal === undefined ? undefined : readWal(wal);
      // A WAL of another page size than the main file's is not this database's (SQLite ignores it too).
      const log = bytesRead === 100 && walLog?.pageSize !== headerPageSize(head) ? undefined : walLog;
      // A database never checkpointed yet has an empty main file: page 1 is in the WAL.
      const pageSize = bytesRead === 100 ? headerPageSize(head) : (log?.pageSize ?? 0);
      if (!validPageSize(pageSize))
        throw new NotADatabase(bytesRead === 0 ? `${path} is empty` : `${path} has no valid page size`);
      const end = log?.end ?? 0;
      if (watch !== undefined) {
        watch.frameBytes = FRAME_HEADER_BYTES + pageSize;
        watch.scanned = Math.max(end, WAL_HEADER_BYTES);
      }
      // Looked at again now the WAL is read: a checkpoint during the read leaves a snapshot older than the main file.
      const walNow = statIfThere(`${path}-wal`);
      const consistent =
        walNow?.ino === watch?.ino &&
        unchanged(main, { size: stamp.size, mtimeMs: stamp.mtimeMs, head: head.subarray(0, bytesRead) }) &&
        (watch === undefined || (walNow!.size >= end && sameHead(wal!, watch.header, WAL_HEADER_BYTES)));
      if (!consistent) {
        closeSync(main);
        if (wal !== undefined) closeSync(wal);
        return undefined;
      }
      const reserved = bytesRead === 100 ? head[20]! : 0;
      return new PageSource(
        path,
        main,
        { size: stamp.size, mtimeMs: stamp.mtimeMs, head: head.subarray(0, bytesRead) },
        watch,
        log?.frames ?? new Map(),
        log?.salts ?? [0, 0],
        pageSize,
        pageSize - reserved,
        log?.pageCount ?? Math.floor(stamp.size / pageSize),
        Math.floor(stamp.size / pageSize) + (log?.frames.size ?? 0),
      );
    } catch (error) {
      closeSync(main);
      if (wal !== undefined) closeSync(wal);
      throw error;
    }
  }

  /** Page `number` (1-based) as of the snapshot. */
  async page(number: number): Promise<Buffer> {
    if (++this.reads % READS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
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
      if (readSync(this.wal.fd, frame, 0, frame.length, offset) < frame.length) throw new SnapshotLost();
      if (frame.readUInt32BE(8) !== this.salts[0] || frame.readUInt32BE(12) !== this.salts[1]) throw new SnapshotLost();
      return frame.subarray(FRAME_HEADER_BYTES);
    }
    const page = Buffer.allocUnsafe(this.pageSize);
    const read = readSync(this.main, page, 0, this.pageSize, (number - 1) * this.pageSize);
    // A checkpoint writes WAL frames into the main file, newer ones than this snapshot's among them. Without a WAL (or
    // with an empty one, which may have filled, been checkpointed and emptied again since), the main file must be as
    // it was: a writer in rollback mode writes it itself.
    const walless = this.wal === undefined || this.wal.header.length < WAL_HEADER_BYTES;
    if ((walless && !unchanged(this.main, this.mainStamp)) || !this.snapshots(number, page)) throw new SnapshotLost();
    if (read < this.pageSize) throw new NotADatabase(`page ${number} is past the end of the file and not in its WAL`);
    return page;
  }

  /**
   * Whether a page read from the main file is the snapshot's. Only a checkpoint changes the main file under a WAL, and
   * only to a frame's copy: the page is the snapshot's unless it equals one of the frames of it written after the
   * snapshot's last commit (one not yet checkpointed is not in the main file), the WAL being the same file with the
   * same header (a restart follows a checkpoint of it all). A page read twice the same rules out a copy under way.
   */
  private snapshots(number: number, page: Buffer): boolean {
    const later = this.laterFrames(number);
    if (later === undefined) return false;
    if (later.length === 0) return true;
    const frame = Buffer.allocUnsafe(this.pageSize);
    for (const offset of later) {
      if (readSync(this.wal!.fd, frame, 0, this.pageSize, offset + FRAME_HEADER_BYTES) < this.pageSize) return false;
      if (frame.equals(page)) return false;
    }
    const again = Buffer.allocUnsafe(this.pageSize);
    readSync(this.main, again, 0, this.pageSize, (number - 1) * this.pageSize);
    return again.equals(page) && this.laterFrames(number) !== undefined;
  }

  /**
   * The offsets of the frames of page `number` written after the snapshot's last commit (a frame being written counts
   * too: it may be committed and checkpointed by now); undefined when the WAL was replaced or restarted since.
   */
  private laterFrames(number: number): number[] | undefined {
    const now = statIfThere(`${this.path}-wal`);
    if (this.wal === undefined) {
      if (now === undefined || now.size <= WAL_HEADER_BYTES) return [];
      // A WAL begun after the snapshot: its frames are all later than it.
      const fd = openIfThere(`${this.path}-wal`);
      if (fd === undefined) return [];
      this.wal = { ...walWatch(fd), frameBytes: FRAME_HEADER_BYTES + this.pageSize };
    }
    const wal = this.wal;
    if (now?.ino !== wal.ino || !sameHead(wal.fd, wal.header, WAL_HEADER_BYTES)) return undefined;
    const header = scratch.subarray(0, FRAME_HEADER_BYTES);
    const salts =
      wal.header.length === WAL_HEADER_BYTES ? [wal.header.readUInt32BE(16), wal.header.readUInt32BE(20)] : [];
    while (readSync(wal.fd, header, 0, FRAME_HEADER_BYTES, wal.scanned) === FRAME_HEADER_BYTES) {
      if (header.readUInt32BE(8) !== salts[0] || header.readUInt32BE(12) !== salts[1]) break;
      const page = header.readUInt32BE(0);
      wal.later.set(page, [...(wal.later.get(page) ?? []), wal.scanned]);
      wal.scanned += wal.frameBytes;
    }
    return wal.later.get(number) ?? [];
  }

  /**
   * Whether the files are still as the snapshot saw them (the main file, the WAL's inode and header): an error read
   * from a snapshot that is not is the race's, not the file's, and the snapshot is taken again.
   */
  stillCurrent(): boolean {
    const wal = statIfThere(`${this.path}-wal`);
    if (this.wal === undefined || this.wal.header.length < WAL_HEADER_BYTES)
      return unchanged(this.main, this.mainStamp) && (wal === undefined || wal.size <= WAL_HEADER_BYTES);
    return wal?.ino === this.wal.ino && sameHead(this.wal.fd, this.wal.header, WAL_HEADER_BYTES);
  }

  close(): void {
    this.cache.clear();
    closeSync(this.main);
    if (this.wal !== undefined) closeSync(this.wal.fd);
  }
}

/** The WAL behind `fd` as of now, its frames not yet looked at (`frameBytes` set once the page size is known). */
function walWatch(fd: number): WalWatch {
  return {
    fd,
    ino: fstatSync(fd).ino,
    header: readHead(fd, WAL_HEADER_BYTES),
    frameBytes: 0,
    scanned: WAL_HEADER_BYTES,
    later: new Map(),
  };
}

/**
 * Whether the main file still has the size, time and header it had: what a writer without a WAL changes (a WAL's
 * checkpoint may change none of them, and is seen by its frames instead).
 */
function unchanged(fd: number, stamp: { size: number; mtimeMs: number; head: Buffer }): boolean {
  const now = fstatSync(fd);
  return now.size === stamp.size && now.mtimeMs === stamp.mtimeMs && sameHead(fd, stamp.head);
}

/** A file's first bytes (fewer when it is shorter). */
function readHead(fd: number, bytes = 100): Buffer {
  const head = Buffer.alloc(bytes);
  return head.subarray(0, readSync(fd, head, 0, bytes, 0));
}

/**
 * Whether a file's first `bytes` are still `head` (as many, the same), read into a buffer kept for it: the checks
 * run for every page read from the main file, so they allocate nothing and throw nothing.
 */
function sameHead(fd: number, head: Buffer, bytes = head.length): boolean {
  const now = scratch.subarray(0, bytes);
  const read = readSync(fd, now, 0, bytes, 0);
  return read === head.length && now.subarray(0, read).equals(head);
}
const scratch = Buffer.alloc(128);

/** A file's inode and size, or undefined when it is not there (no exception: this runs for every page). */
function statIfThere(path: string): { ino: number; size: number } | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

/**
 * The wait before a snapshot is taken again: a turn of the event loop at first, then up to 20 ms, so that a writer
 * checkpointing without pause gets ahead of a reader, which then catches up, rather than one spinning on the other.
 */
export function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) =>
    attempt < 10 ? setImmediate(resolve) : setTimeout(resolve, Math.min(attempt - 9, 20)).unref(),
  );
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
  /** The byte offset after the last commit frame: frames from there on are not the snapshot's. */
  end: number;
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
  let end = WAL_HEADER_BYTES;
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
      end = offset + frame.length;
    }
  }
  return pageCount === undefined ? undefined : { frames, salts, pageSize, pageCount, end };
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
