/**
 * A run's events as a Readable, with both of its bounds: a reader that falls behind makes the child wait (past
 * `highWaterMark` events or `highWaterMarkBytes` bytes, with `'held'` once per hold), and while nothing reads, the
 * events are kept for the result up to `maxResultBytes`, past which the run fails (docs/run-contract.md).
 */
import { Readable } from 'node:stream';
import type { HarnessEvent } from '../../kernel/events.js';
import type { TraceRecord } from '../../kernel/trace.js';

/** What a run's stream gives: events, or with `trace: true` the trace's records. */
export type RunItem = HarnessEvent | TraceRecord;
import { approximateBytes, BufferedBytes } from '../../kernel/byte-size.js';

interface RunOutputOptions {
  readonly highWaterMark: number;
  /** Bytes waiting for a reader before the child waits too. */
  readonly highWaterMarkBytes: number;
  /** Bytes kept for the result while nothing reads, before the run fails. */
  readonly maxResultBytes: number;
  /** The reader wants more: the child's outputs go on. */
  readonly resume: () => void;
  /** The stream was destroyed (its reader went away). */
  readonly destroyed: () => void;
  /** Nothing read the events and they passed `maxResultBytes`. */
  readonly overflowed: () => void;
}

interface RunOutput {
  readonly stream: Readable;
  /** Sends one event; false when a reader is behind and the child's output must wait. */
  send(event: RunItem): boolean;
  /** Puts an event in the stream past every bound (the last one, the overflow's error). */
  pushLast(event: RunItem): void;
  /** Whether the reader is as far behind as the child may run ahead (its stderr waits then). */
  full(): boolean;
  /** The events kept for the result: undefined once something has read them. */
  kept(): RunItem[] | undefined;
}

export function createRunOutput(options: RunOutputOptions): RunOutput {
  const { highWaterMarkBytes, maxResultBytes } = options;
  // What the events a reader has not taken yet hold, in bytes: past highWaterMarkBytes the child waits too.
  const buffered = new BufferedBytes();
  // A read found the reader too far behind: only a read that takes enough resumes the child.
  let heldBack = false;
  // The child is waiting because the reader is highWaterMarkBytes behind ('held' was emitted).
  let held = false;
  // Whether anything has started reading the events: a listener, a pipe, an iterator, or a read() of its own.
  let reading = false;
  // The events kept for the result while nothing reads them; dropped once something does.
  let kept: RunItem[] | undefined = [];
  let keptBytes = 0;
  let overflowed = false;

  const stream = new Readable({
    objectMode: true,
    highWaterMark: options.highWaterMark,
    read() {
      // Node asks for more whenever fewer than highWaterMark events wait; past the bytes, only a read resumes it.
      if (overBytes()) heldBack = true;
      else resume();
    },
    destroy(error, callback) {
      options.destroyed();
      callback(error);
    },
  });
  // Every reader (async iteration, pipe, read()) takes events through read(): the bytes drop there.
  const read = stream.read.bind(stream);
  stream.read = (size?: number) => {
    // Node's own read(0) only fills the buffer.
    if (size !== 0) reading = true;
    const event: unknown = read(size);
    if (heldBack && !overBytes()) {
      heldBack = false;
      resume();
    }
    return event;
  };

  function overBytes(): boolean {
    buffered.heldNow(stream.readableLength);
    return buffered.bytes > highWaterMarkBytes;
  }
  function resume(): void {
    held = false;
    options.resume();
  }
  const isRead = () => (reading ||= stream.readableFlowing !== null);

  function send(event: RunItem): boolean {
    if (stream.destroyed || overflowed) return true;
    if (kept !== undefined && isRead()) kept = undefined;
    // Sized once, for both bounds: a walk of its strings, no JSON text made.
    const size = approximateBytes(event);
    if (kept !== undefined) {
      keptBytes += size;
      if (keptBytes > maxResultBytes) {
        overflowed = true;
        options.overflowed();
        return true;
      }
      kept.push(event);
    }
    const room = stream.push(event);
    buffered.pushed(size, stream.readableLength);
    if (kept !== undefined) return true;
    if (buffered.bytes <= highWaterMarkBytes) return room;
    // The reader is highWaterMarkBytes behind: the child waits, and says so once per hold ('held').
    if (!held) stream.emit('held', { events: stream.readableLength, bytes: buffered.bytes });
    held = true;
    return false;
  }

  return {
    stream,
    send,
    pushLast: (event) => void stream.push(event),
    full: () => isRead() && !stream.destroyed && (stream.readableLength >= stream.readableHighWaterMark || overBytes()),
    kept: () => (isRead() ? undefined : kept),
  };
}

/** What the result keeps of the items nothing read: the events, and with the trace, its records too. */
export function keptItems(items: RunItem[] | undefined): { events?: HarnessEvent[]; trace?: TraceRecord[] } {
  if (items === undefined || items.length === 0 || !('kind' in items[0]!)) return { events: items as HarnessEvent[] };
  const trace = items as TraceRecord[];
  return { events: trace.flatMap((record) => (record.kind === 'event' ? [record.event] : [])), trace };
}
