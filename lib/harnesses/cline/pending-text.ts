/**
 * The text and reasoning deltas of the model call in progress (docs/harnesses/cline.md
 * `content_start`): Cline restates each whole in its `content_end`, so they are only kept for a
 * stream that stops before it, when they are emitted as they stand. Bounded: past `maxSpanBytes`
 * the rest of the deltas is dropped, and the flush says so.
 */
import type { RunContext } from '../../kernel/harness.js';

type Kind = 'agent' | 'reasoning';

interface Held {
  text: string;
  bytes: number;
  dropped: number;
}

export class PendingText {
  /** In the order their first deltas came. */
  private readonly held = new Map<Kind, Held>();

  constructor(private readonly run: RunContext) {}

  add(kind: Kind, delta: string): void {
    const held = this.held.get(kind) ?? { text: '', bytes: 0, dropped: 0 };
    this.held.set(kind, held);
    const bytes = Buffer.byteLength(delta);
    if (held.bytes + bytes > this.run.limits.maxSpanBytes) {
      held.dropped += bytes;
      return;
    }
    held.text += delta;
    held.bytes += bytes;
  }

  /** Its `content_end` restated it. */
  clear(kind: Kind): void {
    this.held.delete(kind);
  }

  /** End of input: what is still held, as events. */
  flush(): void {
    const held = [...this.held];
    this.held.clear();
    for (const [kind, { text, dropped }] of held) {
      if (text.trim() !== '') this.run.emit({ type: kind, message: text });
      if (dropped > 0)
        this.run.emit({
          type: 'warning',
          code: 'span_too_long',
          message:
            `${kind} text cut off by the end of input reached maxSpanBytes (${this.run.limits.maxSpanBytes}); its ` +
            `last ${dropped} bytes were dropped`,
        });
    }
  }
}
