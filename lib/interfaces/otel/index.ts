/**
 * OpenTelemetry export of the trace stream: GenAI spans (`invoke_agent`, `execute_tool`, `chat`) on the caller's
 * tracer or provider, from `createNormalizer({ trace: true })`'s records (docs/otel.md). Its one package,
 * `@opentelemetry/api`, is an optional peer dependency: importing this without it fails at once, naming it. For an
 * OTLP exporter to give it, see harness-events/otlp.
 *
 * @module harness-events/otel
 */
// First: without its package, the import fails here with one line, before anything loads it.
import './check-peers.js';
export { toOtel, exportTrace, OtelSink, type OtelSinkOptions } from './sink.js';
export type { SpanOptions } from './spans.js';
export type { ClockMode } from './clock.js';
export { attributes, contentAttributes, usageAttributes, harnessProviders, modelProviders } from './conventions.js';
export { parseTraceparent, contextFromEnv, traceEnv } from './traceparent.js';
