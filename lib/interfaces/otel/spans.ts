/**
 * Trace records to GenAI spans (docs/otel.md): `invoke_agent {harness}` for the run, `invoke_agent {name}` per
 * subagent (under the `execute_tool` span of the call that started it; a background one under its parent agent, with
 * a link to that call), `execute_tool {tool}` per call, `chat {model}` per model call. Synchronous, one record at a
 * time: each span starts when its record arrives, backdated to the record's time, and ends at its end record's.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { HarnessEvent } from '../../kernel/events.js';
import type { TraceRecord, TraceRecordOf } from '../../kernel/trace.js';
import { SpanClock, timing, type ClockMode, type Instant } from './clock.js';
import { attributes as a, contentAttributes, providerOf, usageOf } from './conventions.js';
import { RunSpan } from './run-span.js';

/** How records become spans. */
export interface SpanOptions {
  /** Where the spans go. */
  tracer: Tracer;
  /** The run span's kind: `client` when this process started the agent's CLI, `internal` (default) otherwise. */
  kind?: 'client' | 'internal';
  /**
   * `harness`: the records are read back (a capture, a saved trace, a session file), so their observed times are the
   * reading's clock, not the run's: each becomes the latest harness time before it. Default `observed` (live).
   */
  clock?: ClockMode;
  /** Export content (commands, paths, queries). Default: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true. */
  captureContent?: boolean;
  /** The run span's parent. Default: the span TRACEPARENT names in the environment, else none (a new trace). */
  parent?: Context;
  /** The harness, for the run span's name before its `run_started` arrives (`start()`). */
  harness?: string;
  /** Spans held open at once (calls and agents); past it the oldest ends `unresolved`. Default 10,000. */
  maxOpenSpans?: number;
}

interface CallSpan {
  tool: string;
  agent_id: string | undefined;
  span?: Span;
  ended: boolean;
  end?: Instant;
  types: string[];
}

interface AgentSpan {
  span: Span;
  model?: string;
}

type Status = 'completed' | 'failed' | 'unresolved';

const CONTENT = Object.entries(contentAttributes) as [keyof typeof contentAttributes, string][];

/** Ends a span as its end record says: ERROR when failed, `harness_events.outcome` when never told. */
function close(span: Span, status: Status, end: Instant): void {
  if (status === 'failed') {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute(a.errorType, '_OTHER');
  }
  if (status === 'unresolved') span.setAttribute(a.outcome, 'unresolved');
  span.end(new Date(end.ms));
}

/** The state of one trace stream's spans: `write` each record, `end` at the end of input. */
export class TraceSpans {
  private clock: SpanClock;
  private run: RunSpan | undefined;
  private harness: string | undefined;
  private readonly calls: BoundedMap<CallSpan>;
  private readonly agents: BoundedMap<AgentSpan>;
  /** The call just ended: its events follow its `call_ended`, and add to its span before it ends. */
  private closing: { id: string; call: CallSpan; status: Status } | undefined;
  private session: string | undefined;

  constructor(private readonly options: SpanOptions & { captureContent: boolean }) {
    this.clock = new SpanClock(options.clock ?? 'observed');
    const max = options.maxOpenSpans ?? 10_000;
    this.calls = new BoundedMap(max, (call) => this.endCall(call, 'unresolved', this.last()));
    this.agents = new BoundedMap(max, (agent) => this.endAgent(agent, 'unresolved', this.last()));
  }

  /** The run span, started now if no record has started it: its context is what a spawned CLI gets (TRACEPARENT). */
  start(): Span {
    return this.root({ ms: Date.now(), observed: true }).span;
  }

  write(record: TraceRecord): void {
    if (this.closing && !(record.kind === 'event' && record.call_id === this.closing.id)) this.finishCall();
    switch (record.kind) {
      case 'run_started':
        return this.runStarted(record);
      case 'call_started':
        return this.callStarted(record);
      case 'call_ended':
        return this.callEnded(record);
      case 'agent_started':
        return this.agentStarted(record);
      case 'agent_ended':
        return this.agentEnded(record);
      case 'model_call':
        return this.modelCall(record);
      case 'event':
        return this.event(record.event, record.call_id);
      case 'run_ended':
        return this.runEnded(this.clock.at(record.at, record.at_source), record.failure, false);
    }
  }

  /** End of input: whatever is still open ends, the run `unresolved` (its `run_ended` never came). */
  end(): void {
    if (this.run !== undefined || this.harness !== undefined) this.runEnded(this.last(), undefined, true);
  }

  /** The latest time read: where what was never told its end ends. */
  private last(): Instant {
    return { ms: Number.isFinite(this.clock.latest) ? this.clock.latest : Date.now(), observed: true };
  }

  private runStarted(record: TraceRecordOf<'run_started'>): void {
    // A second run in the same input: the first ends where its records did.
    if (this.harness !== undefined) this.end();
    this.harness = record.harness;
    const at = this.clock.at(record.at, record.at_source);
    if (this.run) this.run.named(record.harness);
    // Read back, the run starts with its first span: the reading's clock is not the run's.
    else if (this.options.clock !== 'harness') this.root(at);
  }

  private root(at: Instant): RunSpan {
    if (this.run) return this.run;
    this.run = new RunSpan(this.options.tracer, this.harness ?? this.options.harness ?? 'agent', this.options, at);
    if (this.session) this.run.conversation(this.session);
    return this.run;
  }

  /** The context whose span is `agent_id`'s (the run's when it is absent or unknown). */
  private agentContext(agent_id: string | undefined, at: Instant): Context {
    const agent = agent_id === undefined ? undefined : this.agents.get(agent_id);
    return trace.setSpan(ROOT_CONTEXT, agent?.span ?? this.root(at).span);
  }

  private startSpan(
    name: string,
    kind: SpanKind,
    at: Instant,
    parent: Context,
    attributes: Attributes,
    links?: Link[],
  ) {
    if (this.session) attributes[a.conversation] = this.session;
    return this.options.tracer.startSpan(name, { kind, startTime: new Date(at.ms), attributes, links }, parent);
  }

  private callStarted(record: TraceRecordOf<'call_started'>): void {
    if (this.calls.has(record.call_id)) return;
    const at = this.clock.at(record.at, record.at_source);
    const call: CallSpan = { tool: record.tool, agent_id: record.agent_id, ended: false, types: [] };
    // Announced only at its end with no time of its own: its start is unknown, its span starts at its end.
    if (!(record.late && at.observed)) this.callSpan(record.call_id, call, at, at.observed ? 'observed' : undefined);
    this.calls.set(record.call_id, call);
  }

  private callSpan(call_id: string, call: CallSpan, at: Instant, how: string | undefined): Span {
    const attributes: Attributes = { [a.operation]: 'execute_tool', [a.toolName]: call.tool, [a.toolCallId]: call_id };
    if (how) attributes[a.timing] = how;
    const parent = this.agentContext(call.agent_id, at);
    return (call.span = this.startSpan(`execute_tool ${call.tool}`, SpanKind.INTERNAL, at, parent, attributes));
  }

  private callEnded(record: TraceRecordOf<'call_ended'>): void {
    const end = this.clock.at(record.at, record.at_source);
    let call = this.calls.get(record.call_id);
    if (call?.ended) return;
    if (call === undefined) {
      call = { tool: 'unknown', agent_id: record.agent_id, ended: false, types: [] };
      this.calls.set(record.call_id, call);
    }
    if (call.span === undefined) this.callSpan(record.call_id, call, end, 'end_only');
    else if (end.observed) call.span.setAttribute(a.timing, 'observed');
    call.end = end;
    this.closing = { id: record.call_id, call, status: record.status };
  }

  private finishCall(): void {
    const { call, status } = this.closing!;
    this.closing = undefined;
    this.endCall(call, status, call.end!);
  }

  private endCall(call: CallSpan, status: Status, end: Instant): void {
    if (call.ended || call.span === undefined) return;
    call.ended = true;
    if (call.types.length > 0) call.span.setAttribute(a.eventTypes, call.types);
    close(call.span, status, end);
  }

  private agentStarted(record: TraceRecordOf<'agent_started'>): void {
    if (this.agents.has(record.agent_id)) return;
    const at = this.clock.at(record.at, record.at_source);
    const call = record.call_id === undefined ? undefined : this.calls.get(record.call_id)?.span;
    const attributes: Attributes = { [a.operation]: 'invoke_agent', [a.agentId]: record.native_id ?? record.agent_id };
    if (record.name !== undefined) attributes[a.agentName] = record.name;
    if (record.background) attributes[a.background] = true;
    if (at.observed) attributes[a.timing] = 'observed';
    // A background agent outlives the call that launched it: under its parent agent, linked to the call.
    const foreground = call !== undefined && record.background !== true;
    const parent = foreground ? trace.setSpan(ROOT_CONTEXT, call) : this.agentContext(record.parent_id, at);
    const links = call && !foreground ? [{ context: call.spanContext() }] : undefined;
    const name = record.name === undefined ? 'invoke_agent' : `invoke_agent ${record.name}`;
    this.agents.set(record.agent_id, { span: this.startSpan(name, SpanKind.INTERNAL, at, parent, attributes, links) });
  }

  private agentEnded(record: TraceRecordOf<'agent_ended'>): void {
    const agent = this.agents.take(record.agent_id);
    if (agent) this.endAgent(agent, record.status, this.clock.at(record.at, record.at_source));
  }

  private endAgent(agent: AgentSpan, status: Status, end: Instant): void {
    agent.span.setAttribute(a.provider, providerOf(this.run?.harness ?? 'agent', agent.model));
    if (end.observed) agent.span.setAttribute(a.timing, 'observed');
    close(agent.span, status, end);
  }

  private modelCall(record: TraceRecordOf<'model_call'>): void {
    const end = this.clock.at(record.at, record.at_source);
    const start =
      record.started_at === undefined ? undefined : this.clock.at(record.started_at, record.started_at_source);
    const parent = this.agentContext(record.agent_id, start ?? end);
    const agent = record.agent_id === undefined ? undefined : this.agents.get(record.agent_id);
    const run = this.root(end);
    const attributes: Attributes = {
      [a.operation]: 'chat',
      [a.provider]: providerOf(run.harness, record.model),
      ...(record.tokens && usageOf(record.tokens)),
    };
    if (record.model !== undefined) {
      attributes[a.model] = record.model;
      run.model(record.model);
      if (agent) agent.model ??= record.model;
    }
    if (record.model_call_id !== undefined) attributes[a.responseId] = record.model_call_id;
    if (record.cost !== undefined) attributes[a.cost] = record.cost;
    const how = timing(start, end);
    if (how) attributes[a.timing] = how;
    const name = record.model === undefined ? 'chat' : `chat ${record.model}`;
    this.startSpan(name, SpanKind.CLIENT, start ?? end, parent, attributes).end(new Date(end.ms));
  }

  private event(event: HarnessEvent, call_id: string | undefined): void {
    if ('session_id' in event && event.session_id !== undefined && this.session === undefined) {
      this.session = event.session_id;
      this.run?.conversation(this.session);
    }
    if (event.type === 'usage') this.root(this.clock.at(event.timestamp, 'observed')).add(event);
    const span = this.closing?.id === call_id ? this.closing?.call.span : undefined;
    if (span === undefined) return;
    const types = this.closing!.call.types;
    if (!types.includes(event.type)) types.push(event.type);
    if ('exit_code' in event && event.exit_code !== undefined) span.setAttribute(a.exitCode, event.exit_code);
    if ('skill_name' in event && event.skill_name !== undefined) span.setAttribute(a.skillName, event.skill_name);
    if (!this.options.captureContent) return;
    for (const [field, attribute] of CONTENT) {
      const value = (event as Partial<Record<string, unknown>>)[field];
      if (typeof value === 'string') span.setAttribute(attribute, value);
    }
  }

  private runEnded(at: Instant, failure: string | undefined, unresolved: boolean): void {
    if (this.closing) this.finishCall();
    this.calls.evictAll();
    this.agents.evictAll();
    this.root(at).end(at, this.clock.latest, failure, unresolved);
    this.run = undefined;
    this.harness = undefined;
    this.session = undefined;
    this.clock = new SpanClock(this.options.clock ?? 'observed');
  }
}
