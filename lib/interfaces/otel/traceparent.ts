/**
 * W3C Trace Context in environment variables (TRACEPARENT, TRACESTATE), the carrier agent CLIs read: inbound, the run
 * span's parent; outbound, what a spawned CLI gets so that its own spans join the run's trace. Written against
 * `@opentelemetry/api` alone (its propagator lives in the SDK, which the library does not need).
 */
import {
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';

const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;

/** The span context a `traceparent` value names, or undefined when it is not a valid one. */
export function parseTraceparent(value: string | undefined, tracestate?: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(value?.trim().toLowerCase() ?? '');
  // Version ff is forbidden; version 00 has exactly four fields (later versions may add more).
  if (!match || match[1] === 'ff' || (match[1] === '00' && match[5] !== undefined)) return undefined;
  const context: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: parseInt(match[4]!, 16) & 1,
    isRemote: true,
  };
  if (tracestate) context.traceState = createTraceState(tracestate);
  return isSpanContextValid(context) ? context : undefined;
}

/** The context whose span is the one TRACEPARENT (and TRACESTATE) in `env` name; undefined without a valid one. */
export function contextFromEnv(env: NodeJS.ProcessEnv = process.env): Context | undefined {
  const parent = parseTraceparent(env.TRACEPARENT, env.TRACESTATE);
  return parent && trace.setSpanContext(ROOT_CONTEXT, parent);
}

/** TRACEPARENT (and TRACESTATE, when the span has one) naming `span`: for a child process's environment. */
export function traceEnv(span: Span): { TRACEPARENT: string; TRACESTATE?: string } {
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const env: { TRACEPARENT: string; TRACESTATE?: string } = {
    TRACEPARENT: `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`,
  };
  const state = traceState?.serialize();
  if (state) env.TRACESTATE = state;
  return env;
}
