/**
 * The OTel tests' helpers: spans made by the sink into the SDK's InMemorySpanExporter, and any span (in memory or
 * decoded from OTLP JSON) in one plain form the tests compare whole: its parent by name, times in ms since the epoch.
 */
import { SpanKind, SpanStatusCode, type TracerProvider } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { exportTrace, type OtelSinkOptions } from '../../../lib/interfaces/otel/index.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';

/** A span as the tests compare it. */
export interface PlainSpan {
  name: string;
  kind: string;
  /** The parent span's name; absent for the root. */
  parent?: string;
  /** Names of the spans linked to. */
  links?: string[];
  start: number;
  end: number;
  status?: 'ERROR';
  attributes: Record<string, unknown>;
}

/** What a span has, from the SDK or from OTLP JSON. */
export interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: string;
  links: string[];
  start: number;
  end: number;
  error: boolean;
  attributes: Record<string, unknown>;
}

export function fromReadable(span: ReadableSpan): RawSpan {
  const ms = ([s, ns]: [number, number]) => s * 1000 + Math.round(ns / 1e6);
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    name: span.name,
    kind: SpanKind[span.kind],
    links: span.links.map((link) => link.context.spanId),
    start: ms(span.startTime),
    end: ms(span.endTime),
    error: span.status.code === SpanStatusCode.ERROR,
    attributes: { ...span.attributes },
  };
}

/** The spans, in the order they started, each naming its parent (one trace, one root, checked). */
export function plain(spans: RawSpan[]): PlainSpan[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const traces = new Set(spans.map((span) => span.traceId));
  if (traces.size > 1) throw new Error(`${traces.size} traces`);
  return [...spans]
    .sort((a, b) => a.start - b.start || order(a, byId) - order(b, byId) || a.name.localeCompare(b.name))
    .map((span) => {
      const out: PlainSpan = {
        name: span.name,
        kind: span.kind,
        start: span.start,
        end: span.end,
        attributes: span.attributes,
      };
      const parent = span.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId);
      if (parent) out.parent = parent.name;
      if (span.links.length > 0) out.links = span.links.map((id) => byId.get(id)?.name ?? id);
      if (span.error) out.status = 'ERROR';
      return out;
    });
}

/**
 * Spans in the order of their names (then parents): for spans whose times the library observed, which may fall in
 * the same millisecond or not from one run to the next.
 */
export function byName<S extends { name: string; parent?: string }>(spans: S[]): S[] {
  return [...spans].sort((a, b) => a.name.localeCompare(b.name) || (a.parent ?? '').localeCompare(b.parent ?? ''));
}

/** Depth in the tree: a parent before its children when they start at the same time. */
function order(span: RawSpan, byId: Map<string, RawSpan>): number {
  let depth = 0;
  for (let at = span; at.parentSpanId !== undefined && byId.has(at.parentSpanId); at = byId.get(at.parentSpanId)!)
    depth++;
  return depth;
}

/** The records' spans, through the sink into an in-memory exporter. */
export async function spansOf(
  records: TraceRecord[],
  options: Omit<OtelSinkOptions, 'tracer' | 'tracerProvider'> = {},
): Promise<{ spans: PlainSpan[]; raw: RawSpan[] }> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  await exportTrace(records, { ...options, tracerProvider: provider as TracerProvider });
  // Read before shutdown, which empties the exporter.
  const raw = exporter.getFinishedSpans().map(fromReadable);
  await provider.shutdown();
  return { spans: plain(raw), raw };
}
