/**
 * A run's stderr: each line a `warning` event (code `stderr`, escapes stripped, whole lines only), and its last lines
 * kept for the result's `stderrTail` (at most STDERR_TAIL_BYTES).
 */
import { stripVTControlCharacters } from 'node:util';
import type { EventBody } from '../../kernel/events.js';
import { InputBytes, splitLines, type LineTooLong } from '../../transforms/split-lines.js';
import { STDERR_TAIL_BYTES } from './errors.js';

interface StderrLines {
  write(chunk: Buffer): void;
  end(): void;
  /** The last lines, joined. */
  tail(): string;
}

/** `before` runs ahead of each line's warning: text the harness printed before it must not be overtaken by it. */
export function stderrLines(options: {
  maxLineBytes?: number;
  before: () => void;
  emit: (body: EventBody) => void;
  /** After each line's warning: what else the line says (a harness's refusal printed to stderr). */
  after?: (message: string) => void;
}): StderrLines {
  const lines: string[] = [];
  let bytes = 0;
  // Plain text: whole lines only, no encoding sniffing.
  const split = splitLines.stage({
    maxLineBytes: options.maxLineBytes,
    streamLinesAbove: Number.MAX_SAFE_INTEGER,
    detectEncoding: false,
  })((line) => {
    if (line instanceof InputBytes) return;
    options.before();
    const message =
      typeof line === 'string'
        ? stripVTControlCharacters(line)
        : `(a stderr line of ${(line as LineTooLong).bytes} bytes, skipped)`;
    keep(message);
    options.emit({ type: 'warning', code: 'stderr', message });
    options.after?.(message);
  });

  /** Keeps the last lines, at most STDERR_TAIL_BYTES of them (a longer last line: its end). */
  function keep(line: string): void {
    const tail = line.length > STDERR_TAIL_BYTES ? line.slice(-STDERR_TAIL_BYTES) : line;
    lines.push(tail);
    bytes += Buffer.byteLength(tail) + 1;
    while (bytes > STDERR_TAIL_BYTES && lines.length > 1) bytes -= Buffer.byteLength(lines.shift()!) + 1;
  }

  return {
    write: (chunk) => void split.write(chunk),
    end: () => void split.end(),
    tail: () => lines.join('\n'),
  };
}
