/**
 * A file's bytes as they are appended: read to its end, then wait for it to change (fs.watch,
 * with a slow poll behind it for the file systems and replacements a watch misses), until a
 * deadline passes with nothing new. A file that is replaced, cut or rewritten in place (its inode, or the bytes at
 * its start and just before the offset read to, not what they were) is read again from its start, and one that is
 * deleted ends the reading; both are reported as notices in the stream. The file's size is not trusted: some files
 * (`/proc`, `/sys`, some FUSE mounts) say less than they hold, and are read once, then followed as any other.
 */
import { watch, type FSWatcher } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';

const CHUNK_BYTES = 1 << 16;

/** Something about the file itself, not its content: the follower turns it into a warning. */
export class TailNotice {
  constructor(
    readonly code: 'session_truncated' | 'session_deleted',
    readonly message: string,
  ) {}
}

export interface TailOptions {
  /** Read from the start (default) or only what is appended from now on. */
  from?: 'start' | 'end';
  signal?: AbortSignal;
  /** How long to wait for the next bytes before the reading ends; `endGraceMs` once `ended()` says so. */
  quietMs: number;
  endGraceMs: number;
  /** Whether the last record read ends the session (its format's end marker). */
  ended(): boolean;
  /** The poll behind the watch, in ms. */
  pollMs: number;
  /** Once aborted, the reading goes on to the file's current end and stops there (a subagent's, after its parent's). */
  finish?: AbortSignal;
  /** The last time (epoch ms) any file of the session brought bytes: the quiet period counts from it. */
  lastActivity?: () => number;
  /** Called once the file is open and the reading's starting point taken (with `from: 'end'`, its size then). */
  onStart?: () => void;
}

/** Wakes a waiting reader when the file changes, on a poll tick, on abort, or at a deadline. */
export class Waker {
  private watcher: FSWatcher | undefined;
  private wake: (() => void) | undefined;
  /** A change came while the reader was reading, not waiting: its next wait returns at once. */
  private changed = false;

  constructor(path: string) {
    try {
      this.watcher = watch(path, { persistent: false }, () => {
        this.changed = true;
        this.wake?.();
      });
      this.watcher.on('error', () => this.unwatch());
    } catch {
      // No watch here (or the file is gone): the poll alone wakes the reader.
    }
  }

  /** Called before each read: changes from now on wake the next wait. */
  arm(): void {
    this.changed = false;
  }

  /** Waits until the next change (or one since `arm`), tick, abort or `deadline` (epoch ms). */
  async wait(deadline: number, pollMs: number, signals: readonly (AbortSignal | undefined)[]): Promise<void> {
    if (this.changed || signals.some((signal) => signal?.aborted === true)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const signal of signals) signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, Math.min(pollMs, deadline - Date.now())));
      for (const signal of signals) signal?.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/**
 * When a following ends with nothing new to read: `quietMs` after the last bytes (of any file of the session), or
 * `endGraceMs` after the format's end marker is first seen; new bytes start it again.
 */
export class Deadline {
  private at: number;
  private endSeen = false;

  constructor(private readonly options: TailOptions) {
    this.at = Date.now() + options.quietMs;
  }

  /** Something new was read. */
  renew(): void {
    this.at = Date.now() + this.options.quietMs;
    this.endSeen = false;
  }

  /** The time (epoch ms) the following ends at unless something new comes; past, it ends now. */
  until(): number {
    if (this.options.ended() && !this.endSeen) {
      this.endSeen = true;
      this.at = Math.min(this.at, Date.now() + this.options.endGraceMs);
    }
    // Another file of the session being written keeps this one followed (not once its end marker is seen).
    return this.endSeen ? this.at : Math.max(this.at, (this.options.lastActivity?.() ?? 0) + this.options.quietMs);
  }
}

const deleted = (path: string) => new TailNotice('session_deleted', `${path} was deleted; following it ends`);

/** The bytes kept of the file's start and of what precedes the offset read to: what a rewrite changes. */
const MARK_BYTES = 64;

/** What the file held where it was read: its first bytes, and the last ones before the offset. */
class Marks {
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  /** `chunk` was read at `offset`. */
  saw(chunk: Buffer, offset: number): void {
    if (offset < MARK_BYTES && this.head.length < MARK_BYTES)
      this.head = Buffer.concat([this.head, chunk.subarray(0, MARK_BYTES - offset)]);
    this.tail = Buffer.concat([this.tail, chunk.subarray(-MARK_BYTES)]).subarray(-MARK_BYTES);
  }

  /** The marks of a file read from `offset` on (with `from: 'end'`): what is there now. */
  async take(handle: FileHandle, offset: number): Promise<void> {
    this.head = await bytesAt(handle, 0, Math.min(offset, MARK_BYTES));
    this.tail = await bytesAt(handle, Math.max(0, offset - MARK_BYTES), Math.min(offset, MARK_BYTES));
  }

  /** Whether the file still holds, at its start and before `offset`, what was read there. */
  async hold(handle: FileHandle, offset: number): Promise<boolean> {
    const [head, tail] = await Promise.all([
      bytesAt(handle, 0, this.head.length),
      bytesAt(handle, offset - this.tail.length, this.tail.length),
    ]);
    return head.equals(this.head) && tail.equals(this.tail);
  }
}

async function bytesAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

export async function* tailFile(path: string, options: TailOptions): AsyncGenerator<Buffer | TailNotice> {
  let handle: FileHandle = await open(path, 'r');
  let identity = await handle.stat();
  let offset = options.from === 'end' ? identity.size : 0;
  let marks = new Marks();
  if (offset > 0) await marks.take(handle, offset);
  options.onStart?.();
  let waker = new Waker(path);
  const deadline = new Deadline(options);
  // At its end, and after a wait before it is read on, the file is checked: a rewrite in place (O_TRUNC, then a longer
  // write) would otherwise be read on from the old offset.
  let check = false;
  let atEnd = false;
  try {
    while (options.signal?.aborted !== true) {
      waker.arm();
      if (check) {
        check = false;
        const now = await stat(path).catch(() => undefined);
        if (now === undefined) return yield deleted(path);
        if (now.ino !== identity.ino || !(await marks.hold(handle, offset))) {
          yield new TailNotice(
            'session_truncated',
            `${path} was truncated or replaced; reading it again from its start`,
          );
          const reopened = await open(path, 'r').catch(() => undefined);
          if (reopened === undefined) return yield deleted(path);
          await handle.close();
          handle = reopened;
          identity = await handle.stat();
          waker.unwatch();
          waker = new Waker(path);
          offset = 0;
          marks = new Marks();
          continue;
        }
      }
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, offset);
      if (bytesRead > 0) {
        marks.saw(buffer.subarray(0, bytesRead), offset);
        offset += bytesRead;
        deadline.renew();
        yield buffer.subarray(0, bytesRead);
        continue;
      }
      if (!atEnd) {
        // Just reached the end: a file cut shorter shows it now, not at the next change.
        atEnd = true;
        check = true;
        continue;
      }
      if (options.finish?.aborted === true) return;
      const until = deadline.until();
      if (Date.now() >= until) return;
      await waker.wait(until, options.pollMs, [options.signal, options.finish]);
      atEnd = false;
      check = true;
    }
  } finally {
    waker.unwatch();
    await handle.close();
  }
}
