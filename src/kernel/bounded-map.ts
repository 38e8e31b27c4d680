/**
 * What a harness holds between records, bounded (docs/contract.md: state is bounded): at most `max`
 * entries, by key, in insertion order; past it the oldest is given up on and handed to `evict`,
 * as every entry still held is at the end of input. One collection for all of it: tool calls
 * waiting for their result, ids already seen, ends already reported, names already located.
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly max: number,
    /** What becomes of an entry given up on (a call still waiting is emitted unresolved); by default nothing. */
    private readonly evict: (value: V) => void = () => {},
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Holds `value` under `key`; a key already held keeps its place (take it first to make it the newest). */
  set(key: string, value: V): void {
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.evictOldest();
  }

  /** Removes and returns the entry under `key`. */
  take(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) this.entries.delete(key);
    return value;
  }

  /** Gives up on the entry held longest (for a caller that bounds more than the count of entries). */
  evictOldest(): void {
    const oldest = this.entries.entries().next();
    if (oldest.done) return;
    const [key, value] = oldest.value;
    this.entries.delete(key);
    this.evict(value);
  }

  /** End of input: every entry still held, oldest first. */
  evictAll(): void {
    const held = [...this.entries.values()];
    this.entries.clear();
    for (const value of held) this.evict(value);
  }
}
