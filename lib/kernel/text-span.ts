/**
 * A run of agent text or reasoning arriving in fragments, accumulated into one event.
 *
 * Fragments of the same kind and message id join the pending span; anything else flushes it
 * first. With `cumulative` (Goose), a fragment that restates the whole pending text replaces
 * it rather than being appended, and one that restates the span just emitted is dropped (newer
 * Goose repeats a response's whole reasoning in front of its tool requests, after the text
 * deltas that flushed it). A span that grows past `maxBytes` is emitted as it stands
 * and accumulation starts again, with a warning, so one span never holds unbounded memory.
 *
 * A harness makes its span with `run.textSpan()`: the run then emits the held text before any
 * other event or tool call it is given, so events always keep the order of the input.
 */
import type { RunContext } from './harness.js';

/** The event a span becomes: agent text or reasoning. */
export type SpanKind = 'agent' | 'reasoning';

/** How a {@link TextSpan} joins its fragments. */
export interface TextSpanOptions {
  /** A fragment that starts with the whole pending text replaces it (cumulative updates). */
  cumulative?: boolean;
  /** Called with each span as it is emitted (a harness whose final output is its last message). */
  onEmit?: (kind: SpanKind, text: string) => void;
  /** A span of only whitespace is not emitted (ACP agents send an empty chunk before each message). */
  dropBlank?: boolean;
}

/**
 * Agent text or reasoning arriving in fragments, held and emitted as one event when its message ends (or another
 * event comes, or it passes `maxSpanBytes`). Made with `run.textSpan()`.
 */
export class TextSpan {
  private kind: SpanKind | undefined;
  private id: string | null = null;
  private text = '';
  private bytes = 0;
  /** The span last emitted, per kind (cumulative only). */
  private readonly last = new Map<SpanKind, { id: string | null; text: string }>();

  constructor(
    private readonly run: RunContext,
    private readonly options: TextSpanOptions = {},
  ) {}

  /** Adds a fragment of message `id` (null: none); a different kind or id emits the held text first. */
  add(kind: SpanKind, id: string | null, fragment: string): void {
    if (kind !== this.kind || id !== this.id) {
      this.flush();
      this.kind = kind;
      this.id = id;
    }
    const last = this.last.get(kind);
    if (this.text === '' && last !== undefined && last.id === id && last.text === fragment) return;
    const restates =
      this.options.cumulative &&
      fragment.length >= this.text.length &&
      this.text !== '' &&
      fragment.startsWith(this.text);
    if (restates) {
      this.text = fragment;
      this.bytes = Buffer.byteLength(fragment);
    } else {
      this.text += fragment;
      this.bytes += Buffer.byteLength(fragment);
    }
    if (this.bytes > this.run.limits.maxSpanBytes) {
      const { bytes } = this;
      this.flush();
      this.run.emit({
        type: 'warning',
        code: 'span_too_long',
        message:
          `${kind} text reached ${bytes} bytes (maxSpanBytes is ${this.run.limits.maxSpanBytes}); emitted ` +
          `in parts`,
      });
      this.kind = kind;
      this.id = id;
    }
  }

  /**
   * A block's text field (`text`, `thinking`) joined to the span; empty text has nothing to
   * report. False when the field is not a string: the block is then the caller's to report.
   */
  addBlock(kind: SpanKind, id: string | null, block: Record<string, unknown>, field: string): boolean {
    const text = block[field];
    if (typeof text !== 'string') return false;
    if (text !== '') this.add(kind, id, text);
    return true;
  }

  /** Emits the pending span, if any. */
  flush(): void {
    const { kind, id, text } = this;
    // Emptied first: emitting flushes the run's spans, this one included.
    this.kind = undefined;
    this.id = null;
    this.text = '';
    this.bytes = 0;
    if (kind === undefined || text === '' || (this.options.dropBlank && text.trim() === '')) return;
    this.run.emit({ type: kind, message: text });
    this.options.onEmit?.(kind, text);
    if (this.options.cumulative) this.last.set(kind, { id, text });
  }
}
