/**
 * Which subagents are open, and how deep each event is drawn: a subagent's events (and those of anything running beside
 * it: the stream does not say who did what) are drawn inside its bracket, from its start to its end. Subagents may end
 * in any order; an end is drawn at its start's depth, the number of subagents still open that started before it.
 *
 * O(log n) an event, whatever is left open: each start gets the next sequence number, and a Fenwick tree over them
 * counts the open ones before a given start (an array copied at each start made 80,000 unfinished subagents take 82 s).
 */
import type { HarnessEvent } from '../../kernel/events.js';

/** Which subagents are open, and how deep each event is drawn (inside the brackets of the subagents open around it). */
export class Nesting {
  /** Fenwick tree (1-based) over start sequence numbers: 1 where that start is still open. */
  private tree = new Int32Array(1024);
  private open = new Uint8Array(1024);
  private started = 0;
  /** The open starts of each id, latest last. */
  private readonly byId = new Map<string, number[]>();
  /** Subagents open now. */
  size = 0;

  /** The depth `event` is drawn at; a start or an end changes what is open after it. */
  next(event: HarnessEvent): number {
    if (event.type !== 'orchestration') return this.size;
    const id = event.subagent_id ?? event.subagent_name ?? '';
    if (event.action === 'subagent_started') {
      const depth = this.size;
      const sequence = this.started++;
      this.grow();
      this.mark(sequence, 1);
      const starts = this.byId.get(id);
      if (starts) starts.push(sequence);
      else this.byId.set(id, [sequence]);
      return depth;
    }
    const starts = this.byId.get(id);
    if (!starts) return this.size;
    const sequence = starts.pop()!;
    if (starts.length === 0) this.byId.delete(id);
    this.mark(sequence, -1);
    return this.before(sequence);
  }

  private mark(sequence: number, change: 1 | -1): void {
    this.open[sequence] = change === 1 ? 1 : 0;
    this.size += change;
    for (let i = sequence + 1; i <= this.tree.length; i += i & -i) this.tree[i - 1]! += change;
  }

  /** Open starts with a sequence number below `sequence`. */
  private before(sequence: number): number {
    let count = 0;
    for (let i = sequence; i > 0; i -= i & -i) count += this.tree[i - 1]!;
    return count;
  }

  /** Doubles the tree when the next start would not fit, rebuilt from what is open (amortized O(1) a start). */
  private grow(): void {
    if (this.started <= this.tree.length) return;
    const open = new Uint8Array(this.tree.length * 2);
    open.set(this.open);
    this.open = open;
    this.tree = new Int32Array(open.length);
    for (let i = 1; i <= open.length; i++) {
      this.tree[i - 1]! += open[i - 1]!;
      const parent = i + (i & -i);
      if (parent <= open.length) this.tree[parent - 1]! += this.tree[i - 1]!;
    }
  }
}
