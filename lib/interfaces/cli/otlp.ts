/**
 * `--otlp URL` (normalize, run, otel): the run's trace records made into OpenTelemetry GenAI spans and sent as
 * OTLP/HTTP JSON, beside what the command prints. Loaded only when asked for: it carries the OTel SDK (bundled into
 * its own chunk of the CLI).
 */
import { Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { TraceRecord } from '../../kernel/trace.js';
import type { ClockMode } from '../otel/clock.js';
import { toOtel, type OtelSink } from '../otel/sink.js';
import { otlpExport } from '../otlp/exporter.js';

/** A command's export: the stage its trace records pass through, and its end. */
export interface Exporting {
  /** Trace records in; out, what `pass` makes of each (nothing when it gives undefined). */
  stage: Transform;
  sink: OtelSink;
  /** Once the stage has ended (or failed): sends what is left; the line to say when spans were lost. */
  finish(): Promise<string | undefined>;
}

export interface ExportingOptions {
  /** The collector (undefined: where the OTEL_EXPORTER_OTLP_* variables say). */
  url: string | undefined;
  /** `client`: this process spawned the agent. */
  kind: 'client' | 'internal';
  clock: ClockMode;
  harness?: string;
  /** What goes on downstream for each record (the event of an `event` record, or the record itself). */
  pass: (record: TraceRecord) => unknown;
}

export function exporting(options: ExportingOptions): Exporting {
  const otlp = otlpExport({ url: options.url });
  const sink = toOtel({
    tracerProvider: otlp.tracerProvider,
    kind: options.kind,
    clock: options.clock,
    harness: options.harness,
  });
  const stage = new Transform({
    objectMode: true,
    transform(record: TraceRecord, _encoding, done) {
      sink.write(record, (error) => (error ? done(error) : done(null, options.pass(record) ?? undefined)));
    },
    flush(done) {
      sink.end();
      finished(sink).then(() => done(), done);
    },
    destroy(error, done) {
      if (error) sink.destroy(error);
      done(error);
    },
  });
  sink.on('error', (error) => stage.destroy(error));
  return {
    stage,
    sink,
    async finish() {
      if (!sink.writableFinished && !sink.destroyed) sink.end();
      // A collector that is not there fails the export, which `failed` counts: not an error of the command's output.
      await otlp.shutdown().catch(() => {});
      const { spans, error } = otlp.failed;
      const where = options.url ?? 'the OTLP endpoint';
      return spans === 0 ? undefined : `--otlp ${where}: ${spans} spans not exported (${error?.message ?? 'refused'})`;
    },
  };
}
