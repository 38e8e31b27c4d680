/** The run's span, `invoke_agent {harness}`: what it learns while open (session, model, usage) and how it ends. */
import { SpanKind, SpanStatusCode, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { EventOf, Tokens } from '../../kernel/events.js';
import type { Instant } from './clock.js';
import { attributes as a, providerOf, usageOf } from './conventions.js';

export class RunSpan {
  readonly span: Span;
  private firstModel: string | undefined;
  private readonly tokens: Tokens = {};
  private cost: number | undefined;
  private usage = false;

  constructor(
    tracer: Tracer,
    public harness: string,
    options: { kind?: 'client' | 'internal'; parent?: Context },
    at: Instant,
  ) {
    const kind = options.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL;
    const attributes = { [a.operation]: 'invoke_agent', [a.agentName]: harness };
    this.span = tracer.startSpan(
      `invoke_agent ${harness}`,
      { kind, startTime: new Date(at.ms), attributes },
      options.parent,
    );
  }

  /** The harness is known only now (a span started before its first record, for a child's TRACEPARENT). */
  named(harness: string): void {
    if (harness === this.harness) return;
    this.harness = harness;
    this.span.updateName(`invoke_agent ${harness}`);
    this.span.setAttribute(a.agentName, harness);
  }

  conversation(session_id: string): void {
    this.span.setAttribute(a.conversation, session_id);
  }

  /** A model the run used: the first is its `gen_ai.request.model`. */
  model(model: string): void {
    this.firstModel ??= model;
  }

  /** A `usage` event: the run's totals are their sum (as its metrics' tokens). */
  add(event: EventOf<'usage'>): void {
    this.usage = true;
    for (const [name, count] of Object.entries(event.tokens) as [keyof Tokens, number][])
      this.tokens[name] = (this.tokens[name] ?? 0) + count;
    if (event.cost !== undefined) this.cost = (this.cost ?? 0) + event.cost;
  }

  /**
   * Ends the span at `at`, or later if a span under it ended later (another clock). `failure`: the run's failure
   * class; `unresolved`: its end record never came.
   */
  end(at: Instant, latest: number, failure: string | undefined, unresolved: boolean): void {
    const span = this.span;
    span.setAttribute(a.provider, providerOf(this.harness, this.firstModel));
    if (this.firstModel !== undefined) span.setAttribute(a.model, this.firstModel);
    if (this.usage) span.setAttributes(usageOf(this.tokens));
    if (this.cost !== undefined) span.setAttribute(a.cost, this.cost);
    if (failure !== undefined) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      span.setAttribute(a.errorType, failure);
    }
    if (unresolved) span.setAttribute(a.outcome, 'unresolved');
    if (at.observed) span.setAttribute(a.timing, 'observed');
    span.end(new Date(Math.max(at.ms, latest)));
  }
}
