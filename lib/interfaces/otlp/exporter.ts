/**
 * A TracerProvider that sends spans as OTLP/HTTP JSON: `@opentelemetry/sdk-trace-base`'s BasicTracerProvider with a
 * BatchSpanProcessor and `@opentelemetry/exporter-trace-otlp-http`. Nothing is registered globally. The exporter
 * reads the standard OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout, compression) for what is not given
 * here, and the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
 */
import type { TracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { packageVersion } from '../../kernel/version.js';

export interface OtlpExportOptions {
  /**
   * Where to send: the collector's base URL (`http://localhost:4318`, to which `/v1/traces` is added) or the traces
   * URL itself (ending `/v1/traces`). Default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT, else
   * http://localhost:4318/v1/traces.
   */
  url?: string;
  /** HTTP headers for every request (default: OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_EXPORTER_OTLP_HEADERS). */
  headers?: Record<string, string>;
}

/** The provider to give harness-events/otel's sink, and what became of the spans it exported. */
export interface OtlpExport {
  /** Spans go out in batches; `forceFlush` sends what is queued (the sink calls it). */
  tracerProvider: TracerProvider & { forceFlush(): Promise<void> };
  /** Spans the collector did not take so far, and the first error. */
  readonly failed: { spans: number; error?: Error };
  /** Sends what is left and closes the exporter. */
  shutdown(): Promise<void>;
}

/** `url` as a traces URL: `/v1/traces` added to a base URL, the way OTEL_EXPORTER_OTLP_ENDPOINT is read. */
export function tracesUrl(url: string): string {
  const parsed = new URL(url);
  if (!/\/v1\/traces\/?$/.test(parsed.pathname)) parsed.pathname = parsed.pathname.replace(/\/?$/, '/v1/traces');
  return parsed.href;
}

/** A provider exporting OTLP/HTTP JSON to `options.url` (or where the OTEL_EXPORTER_OTLP_* variables say). */
export function otlpExport(options: OtlpExportOptions = {}): OtlpExport {
  const exporter = new OTLPTraceExporter({
    ...(options.url !== undefined && { url: tracesUrl(options.url) }),
    ...(options.headers !== undefined && { headers: options.headers }),
  });
  const failed: { spans: number; error?: Error } = { spans: 0 };
  // The processor reports a failed export only to the global error handler: counted here instead, to be said.
  const counting: SpanExporter = {
    export(spans, done) {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0.
        if (result.code !== 0) {
          failed.spans += spans.length;
          failed.error ??= result.error ?? new Error('the collector refused the spans');
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'harness-events', 'service.version': packageVersion() }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(counting)] });
  return { tracerProvider: provider, failed, shutdown: () => provider.shutdown() };
}
