/**
 * The times spans get from trace records. A harness's time is the run's own. The library's (`observed`) is the run's
 * only when the records are read as the run happens; read back from a capture it is the reading's clock, so with
 * `clock: 'harness'` an observed time becomes the latest harness time before it (the record came after it), or stays
 * as it is where the run has none. Never a start made up from a neighbour: a span with no start is zero-length.
 */
import type { TimeSource } from '../../kernel/trace.js';

/** Which clock the records' observed times are on: the run's (`observed`, live) or a replay's (`harness`). */
export type ClockMode = 'observed' | 'harness';

/** A span time: epoch milliseconds, and whether it is the library's clock rather than the harness's. */
export interface Instant {
  ms: number;
  observed: boolean;
}

export class SpanClock {
  /** The latest harness time read. */
  private harness: number | undefined;
  /** The latest time given out that is the run's: a harness time, or an observed one on the run's clock. */
  private runs = -Infinity;
  /** The latest observed time given out as it is, read back before any harness time (the reading's clock). */
  private reading = -Infinity;

  constructor(private readonly mode: ClockMode) {}

  /** The latest time given out, on the run's clock where there is one: the run span ends no earlier. */
  get latest(): number {
    return this.mode === 'harness' && this.harness !== undefined ? this.runs : Math.max(this.runs, this.reading);
  }

  /** The span time for a record's `at` and `at_source`. */
  at(at: string, source: TimeSource | undefined): Instant {
    let ms = Date.parse(at);
    const observed = source !== 'harness';
    if (!observed) this.harness = Math.max(this.harness ?? -Infinity, ms);
    else if (this.mode === 'harness' && this.harness !== undefined) ms = this.harness;
    if (observed && this.mode === 'harness' && this.harness === undefined) this.reading = Math.max(this.reading, ms);
    else this.runs = Math.max(this.runs, ms);
    return { ms, observed };
  }
}

/** `harness_events.timing`: `end_only` when the start is unknown, `observed` when a time is the library's. */
export function timing(start: Instant | undefined, end: Instant): 'end_only' | 'observed' | undefined {
  if (start === undefined) return 'end_only';
  return start.observed || end.observed ? 'observed' : undefined;
}
