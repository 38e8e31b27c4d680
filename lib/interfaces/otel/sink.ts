/**
 * The OpenTelemetry sink: a Writable of trace records (`createNormalizer({ trace: true })`'s objects) that makes
 * GenAI spans on the caller's tracer (spans.ts), and `exportTrace`, the same for records already in hand. It uses
 * only `@opentelemetry/api`, and never registers anything global: the spans go to the tracer or provider given.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Span, Tracer, TracerProvider } from '@opentelemetry/api';
import { packageVersion } from '../../kernel/version.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { contentFromEnv } from './conventions.js';
import { TraceSpans, type SpanOptions } from './spans.js';
import { contextFromEnv, traceEnv } from './traceparent.js';

/** A TracerProvider that can flush (the SDK's): the sink waits for it at its end and every `flushEvery` records. */
interface Flushing {
  forceFlush(): Promise<void>;
}

/** What `toOtel` and `exportTrace` take: a tracer or a provider, and how records become spans. */
export type OtelSinkOptions = Omit<SpanOptions, 'tracer'> & {
  /**
   * The records after which the sink waits for the provider's `forceFlush` (when it has one) before taking more:
   * backpressure, so a slow exporter holds the stream back rather than dropping spans. Default 512.
   */
  flushEvery?: number;
} & ({ tracer: Tracer; tracerProvider?: undefined } | { tracerProvider: TracerProvider; tracer?: undefined });

/**
 * A Writable (objectMode) of one run's trace records, made into spans as they arrive; it finishes once the spans are
 * ended and, given a provider that can, flushed. `toOtel(options)` makes one.
 */
export class OtelSink extends Writable {
  private readonly spans: TraceSpans;
  private readonly flushing: Flushing | undefined;
  private readonly flushEvery: number;
  private written = 0;

  constructor(options: OtelSinkOptions) {
    super({ objectMode: true, highWaterMark: 64 });
    const provider = options.tracerProvider;
    const tracer = options.tracer ?? provider!.getTracer('harness-events', packageVersion());
    this.flushing =
      typeof (provider as Partial<Flushing> | undefined)?.forceFlush === 'function'
        ? (provider as unknown as Flushing)
        : undefined;
    this.flushEvery = options.flushEvery ?? 512;
    this.spans = new TraceSpans({
      ...options,
      tracer,
      parent: options.parent ?? contextFromEnv(),
      captureContent: options.captureContent ?? contentFromEnv(),
    });
  }

  /**
   * The run span, started now unless its records have started it: what a CLI this process spawns should get as
   * TRACEPARENT (`traceEnv()`), so that its own spans join the run's trace.
   */
  runSpan(): Span {
    return this.spans.start();
  }

  /** TRACEPARENT and TRACESTATE naming the run span (started now if need be): for the spawned CLI's environment. */
  traceEnv(): { TRACEPARENT: string; TRACESTATE?: string } {
    return traceEnv(this.runSpan());
  }

  /**
   * The first failure of the provider's `forceFlush` (spans the exporter could not send). It does not fail the
   * stream: the telemetry of a run never stops the run.
   */
  exportError: Error | undefined;

  private async flush(): Promise<void> {
    try {
      await this.flushing?.forceFlush();
    } catch (error) {
      // The SDK rejects with the list of its processors' errors.
      const first: unknown = Array.isArray(error) ? error[0] : error;
      this.exportError ??= first instanceof Error ? first : new Error(String(first));
    }
  }

  /** @internal */
  override _write(record: TraceRecord, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      this.spans.write(record);
    } catch (error) {
      return callback(error as Error);
    }
    if (this.flushing && ++this.written % this.flushEvery === 0) void this.flush().then(() => callback());
    else callback();
  }

  /** @internal */
  override _final(callback: (error?: Error | null) => void): void {
    try {
      this.spans.end();
    } catch (error) {
      return callback(error as Error);
    }
    void this.flush().then(() => callback());
  }
}

/** A sink of one run's trace records into spans: see OtelSinkOptions. */
export function toOtel(options: OtelSinkOptions): OtelSink {
  return new OtelSink(options);
}

/** Makes the spans of trace records already in hand (a saved trace, an array); resolves once they are flushed. */
export async function exportTrace(
  records: Iterable<TraceRecord> | AsyncIterable<TraceRecord>,
  options: OtelSinkOptions,
): Promise<void> {
  await pipeline(Readable.from(records), toOtel(options));
}
