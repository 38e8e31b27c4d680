/**
 * The trace stream's writer (docs/contract.md "Trace stream"): what the correlator and its harness say about calls,
 * agents and model calls becomes lifecycle records, and each event leaving the last stage is wrapped in an `event`
 * record with the ids it belongs to. The stages are called synchronously (lib/runtime/normalizer.ts), so a record
 * sent here lands between the events exactly where the correlator said it.
 */
import { BoundedMap } from '../kernel/bounded-map.js';
import { now } from '../kernel/clock.js';
import type { HarnessEvent } from '../kernel/events.js';
import type { Limits } from '../kernel/harness.js';
import {
  harnessTime,
  type AgentStart,
  type CallStart,
  type EventIds,
  type HarnessTime,
  type ModelCall,
  type PermissionRecord,
  type RunTotal,
  type RunTrace,
  type TimeSource,
  type TraceRecord,
  type TraceRecordOf,
} from '../kernel/trace.js';
import { TRACE_VERSION } from '../kernel/trace-contract.js';

/** A call announced and not yet ended: its agent. */
interface OpenCall {
  agent_id: string | undefined;
}

function unresolvedAgent(agent_id: string): TraceRecord {
  return { kind: 'agent_ended', agent_id, status: 'unresolved', ...when(undefined) };
}

/** A request marker's own time, if it has one that parses. */
function startOf(value: HarnessTime): { at: string; at_source: TimeSource } | undefined {
  const at = harnessTime(value);
  return at === undefined ? undefined : { at, at_source: 'harness' };
}

/** A time the library's clock gave earlier (a request marker read then). */
function observedAt(at: string): { at: string; at_source: TimeSource } {
  return { at, at_source: 'observed' };
}

function when(value: HarnessTime): { at: string; at_source: TimeSource } {
  const at = harnessTime(value);
  return at === undefined ? { at: now(), at_source: 'observed' } : { at, at_source: 'harness' };
}

/** Copies the defined fields only: a record never carries an undefined field. */
function defined<T extends object>(record: T): T {
  for (const key in record) if (record[key] === undefined) delete record[key];
  return record;
}

export class TraceWriter implements RunTrace {
  private seq = 0;
  private started = false;
  private current: string | undefined;
  /** The ids of the event being sent now (set by the correlator around its sink call). */
  private ids: EventIds | undefined;
  private readonly calls: BoundedMap<OpenCall>;
  /** The subagents started and not yet ended, by id (the value is the id: what an eviction ends). */
  private readonly agents: BoundedMap<string>;
  /** The calls whose permission was resolved (their resolution is said once). */
  private readonly resolved: BoundedMap<true>;
  private lastId = 0;
  private endsLater = false;
  private begun: { at: string; at_source: TimeSource } | undefined;
  private total: RunTotal | undefined;
  /** The run started its session (its owner knows its command line): a session's total is then the run's own. */
  private freshSession = false;

  constructor(
    private readonly out: (record: TraceRecord) => void,
    /** The harness's name, read when the first record goes out (`auto` knows it only then). */
    private readonly harness: () => string,
    limits: Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>,
    /** Sends the text held for the agent whose records were being read. */
    private readonly flushText: () => void,
  ) {
    this.calls = new BoundedMap(limits);
    this.agents = new BoundedMap(limits, (agent_id) => this.send(unresolvedAgent(agent_id)));
    this.resolved = new BoundedMap(limits);
  }

  private send(record: TraceRecord, out = this.out): void {
    this.start();
    out(record);
  }

  agent(agent_id: string | undefined): void {
    if (agent_id === this.current) return;
    this.flushText();
    this.current = agent_id;
  }

  callStarted(call: CallStart): void {
    if (this.calls.has(call.call_id)) return;
    const agent_id = call.agent_id ?? this.current;
    this.calls.set(call.call_id, { agent_id });
    this.send(defined({ kind: 'call_started', call_id: call.call_id, tool: call.tool, agent_id, ...when(call.at) }));
  }

  /**
   * A tool call's result (or its end of waiting): `call_ended`, after a late `call_started` when the harness never
   * announced it. Returns the ids its events carry.
   */
  callEnded(
    id: string | undefined,
    tool: string,
    is_success: boolean | undefined,
    started?: HarnessTime,
    ended?: HarnessTime,
  ): EventIds {
    const call_id = id ?? `he:${++this.lastId}`;
    let open = this.calls.take(call_id);
    if (open === undefined) {
      open = { agent_id: this.current };
      const record = { kind: 'call_started', call_id, tool, agent_id: open.agent_id, ...when(started), late: true };
      this.send(defined(record as TraceRecordOf<'call_started'>));
    }
    const status = is_success === undefined ? 'unresolved' : is_success ? 'completed' : 'failed';
    this.send(defined({ kind: 'call_ended', call_id, status, agent_id: open.agent_id, ...when(ended) }));
    return { call_id, agent_id: open.agent_id };
  }

  agentStarted(agent: AgentStart): void {
    if (this.agents.has(agent.agent_id)) return;
    this.agents.set(agent.agent_id, agent.agent_id);
    const { at, ...fields } = agent;
    const parent_id = fields.parent_id ?? this.current;
    const call_id = fields.call_id ?? (this.calls.has(agent.agent_id) ? agent.agent_id : undefined);
    this.send(defined({ kind: 'agent_started', ...fields, parent_id, call_id, ...when(at) }));
  }

  agentEnded(agent_id: string, status: 'completed' | 'failed' | 'unresolved', at?: HarnessTime): void {
    if (this.agents.take(agent_id) === undefined) return;
    this.send({ kind: 'agent_ended', agent_id, status, ...when(at) });
  }

  modelCall(call: ModelCall): void {
    const { at, started_at, started_observed, agent_id, ...fields } = call;
    const start = started_observed !== undefined ? observedAt(started_observed) : startOf(started_at);
    const record = {
      kind: 'model_call' as const,
      ...fields,
      agent_id: agent_id ?? this.current,
      ...when(at),
      started_at: start?.at,
      started_at_source: start?.at_source,
    };
    this.send(defined(record));
  }

  /** `out`: where a spawned run's own records go (its stream: a client's answers come between its stdout's records). */
  permission(record: PermissionRecord, out = this.out): void {
    if (record.kind === 'permission_resolved') {
      if (this.resolved.has(record.call_id)) return;
      this.resolved.set(record.call_id, true);
    }
    // The agent of the call asked about, as its call_started said it.
    const agent_id =
      record.agent_id ?? (this.calls.has(record.call_id) ? this.calls.get(record.call_id)!.agent_id : this.current);
    this.send(defined({ ...record, agent_id, ...when(undefined) }) as TraceRecord, out);
  }

  /** The events sent next are these ids' (undefined again once they are sent). */
  withIds(ids: EventIds | undefined): void {
    this.ids = ids;
  }

  /**
   * An event leaving the last stage: its orchestration's agent records, then the event itself, with its ids. `out`:
   * where a spawned run's own events go (its stream, not the normalizer's).
   */
  event(event: HarnessEvent, out = this.out): void {
    // A run's first record is its first event: it started no later than that event was stamped.
    this.begun ??= { at: event.timestamp, at_source: 'observed' };
    const ids = this.ids;
    if (event.type === 'orchestration' && event.subagent_id !== undefined) {
      if (event.action === 'subagent_started') {
        this.agentStarted({ agent_id: event.subagent_id, name: event.subagent_name, call_id: ids?.call_id });
      } else this.agentEnded(event.subagent_id, event.action === 'subagent_completed' ? 'completed' : 'failed');
    }
    const agent_id = ids === undefined || !('agent_id' in ids) ? this.current : ids.agent_id;
    this.send(defined({ kind: 'event', seq: ++this.seq, event, ...ids, agent_id }), out);
  }

  /**
   * End of input: agents still open end `unresolved`, then `run_ended`, unless the run's owner said it ends the run
   * itself (`endLater`: a spawned run's exit comes after its output).
   */
  end(failure: string | undefined): void {
    this.agents.evictAll();
    if (!this.endsLater) this.finish(failure);
  }

  /** The run's owner writes `run_ended` (`finish`) once the run is over, after events of its own. */
  endLater(): void {
    this.endsLater = true;
  }

  runTotal(total: RunTotal): void {
    this.total = total;
  }

  /** `run_ended`, with the child's exit code when there was one, and the run's own total where it is known. */
  finish(failure: string | undefined, exit_code?: number, out = this.out): void {
    const own = this.total?.scope === 'run' || this.freshSession ? this.total : undefined;
    const record = { kind: 'run_ended' as const, ...when(undefined), failure, exit_code };
    this.send(defined({ ...record, tokens: own?.tokens, models: own?.models }), out);
  }

  /**
   * `run_started` now, rather than with the first record (a spawned run starts when its child does). `startsSession`:
   * its owner built its command line, which starts a new session: a session's running total is the run's own.
   */
  start(startsSession = false): void {
    if (startsSession) this.freshSession = true;
    if (this.started) return;
    this.started = true;
    const at = this.begun ?? when(undefined);
    this.out({ kind: 'run_started', v: TRACE_VERSION, harness: this.harness(), ...at });
  }

  began(at: HarnessTime): void {
    if (!this.started) this.begun = when(at);
  }
}
