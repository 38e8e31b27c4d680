/**
 * Tool calls waiting for their result, keyed by the harness's call id, in arrival order.
 * Bounded (CONTRACT.md): past `max` waiting calls the oldest is given up on and handed to
 * `settle`, as every call still waiting is at the end of input.
 */
export class PendingCalls<T> {
  private readonly calls = new Map<string, T>();

  constructor(
    private readonly max: number,
    private readonly settle: (call: T) => void,
  ) {}

  get(id: string): T | undefined {
    return this.calls.get(id);
  }

  add(id: string, call: T): void {
    this.calls.set(id, call);
    if (this.calls.size > this.max) this.settleOldest();
  }

  /** Gives up on the call that has waited longest (a caller that bounds more than the count of calls). */
  settleOldest(): void {
    const oldest = this.calls.entries().next();
    if (oldest.done) return;
    const [id, call] = oldest.value;
    this.calls.delete(id);
    this.settle(call);
  }

  /** Removes and returns the call waiting under `id`. */
  take(id: string): T | undefined {
    const call = this.calls.get(id);
    if (call !== undefined) this.calls.delete(id);
    return call;
  }

  /** End of input: every call still waiting, oldest first. */
  settleAll(): void {
    const waiting = [...this.calls.values()];
    this.calls.clear();
    for (const call of waiting) this.settle(call);
  }
}
