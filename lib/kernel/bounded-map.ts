/**
 * What a harness holds between records, bounded (docs/contract.md: state is bounded): at most `maxPendingTools`
 * entries and `maxPendingBytes` of them (by `approximateBytes`: a pending `Write` call holds its whole content), by
 * key, in insertion order; past either the oldest is given up on and handed to `evict`, as every entry still held is at
 * the end of input. One collection for all of it: tool calls waiting for their result, ids already seen, ends already
 * reported, names already located.
 */
import { approximateBytes } from './byte-size.js';
import type { Limits } from './harness.js';

/**
 * A Map by string key, bounded in count and bytes (the run's `maxPendingTools` and `maxPendingBytes`): past either, the
 * oldest entry is given up on and handed to `evict`. What a correlator holds between records.
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private readonly max: number;
  private readonly maxBytes: number;
  /** The bytes of the entries held. */
  bytes = 0;

  constructor(
    /** A count, or the run's limits (count and bytes). */
    limits: number | Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>,
    /** What becomes of an entry given up on (a call still waiting is emitted unresolved); by default nothing. */
    private readonly evict: (value: V) => void = () => {},
  ) {
    this.max = typeof limits === 'number' ? limits : limits.maxPendingTools;
    this.maxBytes = typeof limits === 'number' ? Infinity : limits.maxPendingBytes;
  }

  /** How many entries are held. */
  get size(): number {
    return this.entries.size;
  }

  /** Whether an entry is held under `key`. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The entry under `key`, left in place. */
  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Holds `value` under `key`; a key already held keeps its place (take it first to make it the newest). `of`: what to
   * size it by, when parts of the value share their strings (a call's input inside the line it came in).
   */
  set(key: string, value: V, of: unknown = value): void {
    const bytes = this.maxBytes === Infinity ? 0 : approximateBytes(of) + key.length;
    this.bytes += bytes - (this.entries.get(key)?.bytes ?? 0);
    this.entries.set(key, { value, bytes });
    if (this.entries.size > this.max) this.evictOldest();
    // The newest entry stays even when it alone is over: its result may still come.
    while (this.bytes > this.maxBytes && this.entries.size > 1) this.evictOldest();
  }

  /** Removes and returns the entry under `key`. */
  take(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    return entry.value;
  }

  /** The key of the oldest entry `test` accepts. */
  findKey(test: (value: V) => boolean): string | undefined {
    for (const [key, { value }] of this.entries) if (test(value)) return key;
    return undefined;
  }

  /** Gives up on the entry held longest (for a caller that bounds more than the count of entries). */
  evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done) return;
    this.evict(this.take(oldest.value)!);
  }

  /** End of input: every entry still held, oldest first. */
  evictAll(): void {
    const held = [...this.entries.values()];
    this.entries.clear();
    this.bytes = 0;
    for (const { value } of held) this.evict(value);
  }
}
