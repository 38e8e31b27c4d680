/**
 * The trace stream (docs/contract.md "Trace stream") folded into what the views show: each tool call with its tool,
 * agent, start and end and where each time came from, and its status; each agent with its parent, name, calls and
 * subagents. A duration is given only where both ends are known on one clock (docs/cli.md "Watching a run"): never
 * from a start the library saw only when the call had ended (`late`, observed), nor across the harness's clock and
 * the library's. Pure and incremental: the live view adds records as they arrive, the report adds them all.
 */
import { BoundedMap } from '../kernel/bounded-map.js';
import type { TimeSource, TraceRecord } from '../kernel/trace.js';

/** A time of the trace and where it came from. */
export interface TraceTime {
  /** ISO 8601, UTC. */
  at: string;
  /** `harness`: the harness's record said it; `observed`: when the library saw the record. */
  source: TimeSource;
}

/** How long something took, on one clock. */
export interface Duration {
  ms: number;
  /** Both ends were the harness's times (`harness`) or both the library's (`observed`). */
  source: TimeSource;
}

/** How a call or an agent ended. */
export type EndStatus = 'completed' | 'failed' | 'unresolved';

/** One tool call of the trace. */
export interface TraceCall {
  call_id: string;
  /** The tool's name, as the harness gave it (`?` when the trace never said). */
  tool: string;
  /** Its agent; undefined: the root agent. */
  agent_id: string | undefined;
  /** Its start; undefined when the trace has no `call_started` for it. */
  started: TraceTime | undefined;
  /** The harness announced it only once it had ended: an observed start is then its end, not its start. */
  late: boolean;
  /** Its end, once `call_ended` came. */
  ended: TraceTime | undefined;
  status: EndStatus | undefined;
  /** Start to end, where both are known on one clock. */
  duration: Duration | undefined;
  /** The index (among the trace's events, from 0) of the first event it gave. */
  first_event: number | undefined;
}

/** One agent of the trace: the run's own (root) agent or a subagent. */
export interface TraceAgent {
  /** The subagent's id (its orchestration events' `subagent_id`); undefined: the root agent. */
  agent_id: string | undefined;
  /** The agent that started it; undefined: the root agent (or, for the root, none). */
  parent_id: string | undefined;
  /** Its name or type, where the trace says. */
  name: string | undefined;
  /** The tool call that started it, where the harness names one. */
  call_id: string | undefined;
  /** It ran in the background. */
  background: boolean;
  /** How many agents above it: the root 0, its subagents 1. */
  depth: number;
  started: TraceTime | undefined;
  ended: TraceTime | undefined;
  status: EndStatus | undefined;
  duration: Duration | undefined;
  /** Its calls' ids, in the order they started. */
  calls: string[];
  /** Its subagents' ids, in the order they started. */
  children: string[];
}

/** How much the tree holds: the live view bounds it, the report holds the whole run. */
export interface TraceTreeOptions {
  /**
   * The most calls and agents held (each); past it the oldest is forgotten, and no agent keeps the lists of its
   * calls and subagents (what the live view needs: depths and durations). Default: the whole run.
   */
  max?: number;
}

/** Both ends on one clock, the start a real one: how long it took; otherwise nothing (never an invented duration). */
export function durationOf(
  started: TraceTime | undefined,
  late: boolean,
  ended: TraceTime | undefined,
): Duration | undefined {
  if (started === undefined || ended === undefined || started.source !== ended.source) return undefined;
  // A late call's observed start is when its end was seen.
  if (late && started.source === 'observed') return undefined;
  const ms = Date.parse(ended.at) - Date.parse(started.at);
  return ms >= 0 ? { ms, source: started.source } : undefined;
}

function timeOf(record: { at: string; at_source: TimeSource }): TraceTime {
  return { at: record.at, source: record.at_source };
}

/** The trace's calls and agents, record by record (`add`). */
export class TraceTree {
  /** The run's own agent: its calls and subagents. */
  readonly root: TraceAgent = newAgent(undefined, undefined, 0);
  /** The calls, by id, in the order they started. */
  readonly calls: BoundedMap<TraceCall>;
  /** The subagents, by id, in the order they started. */
  readonly agents: BoundedMap<TraceAgent>;
  /** The harness, from `run_started`. */
  harness: string | undefined;
  /** Event records added. */
  events = 0;
  private readonly lists: boolean;

  constructor(options: TraceTreeOptions = {}) {
    const max = options.max ?? Infinity;
    this.lists = max === Infinity;
    this.calls = new BoundedMap(max);
    this.agents = new BoundedMap(max);
  }

  /** The agent with this id (undefined: the root); undefined when the trace never started it. */
  agent(agent_id: string | undefined): TraceAgent | undefined {
    return agent_id === undefined ? this.root : this.agents.get(agent_id);
  }

  /** How deep a record of this agent is drawn: its depth, or 1 for a subagent the trace never started. */
  depth(agent_id: string | undefined): number {
    return this.agent(agent_id)?.depth ?? 1;
  }

  /** Adds one record; returns the call an event record came from, if any. */
  add(record: TraceRecord): TraceCall | undefined {
    switch (record.kind) {
      case 'run_started':
        this.harness = record.harness;
        this.root.started = timeOf(record);
        return undefined;
      case 'run_ended':
        this.end(this.root, timeOf(record), record.failure === undefined ? 'completed' : 'failed');
        return undefined;
      case 'call_started':
        this.callOf(record.call_id, record.tool, record.agent_id, timeOf(record), record.late === true);
        return undefined;
      case 'call_ended': {
        const call = this.calls.get(record.call_id) ?? this.callOf(record.call_id, '?', record.agent_id);
        call.ended = timeOf(record);
        call.status = record.status;
        call.duration = durationOf(call.started, call.late, call.ended);
        return undefined;
      }
      case 'agent_started':
        this.agentStarted(record);
        return undefined;
      case 'agent_ended': {
        const agent = this.agents.get(record.agent_id);
        if (agent !== undefined) this.end(agent, timeOf(record), record.status);
        return undefined;
      }
      case 'event': {
        const index = this.events++;
        const call = record.call_id === undefined ? undefined : this.calls.get(record.call_id);
        if (call !== undefined) call.first_event ??= index;
        return call;
      }
      default:
        return undefined;
    }
  }

  private callOf(
    call_id: string,
    tool: string,
    agent_id: string | undefined,
    started?: TraceTime,
    late = false,
  ): TraceCall {
    const known = this.calls.get(call_id);
    if (known !== undefined) return known;
    const call: TraceCall = {
      call_id,
      tool,
      agent_id,
      started,
      late,
      ended: undefined,
      status: undefined,
      duration: undefined,
      first_event: undefined,
    };
    this.calls.set(call_id, call, call_id);
    if (this.lists) (this.agent(agent_id) ?? this.root).calls.push(call_id);
    return call;
  }

  private agentStarted(record: Extract<TraceRecord, { kind: 'agent_started' }>): void {
    if (this.agents.has(record.agent_id)) return;
    const parent = this.agent(record.parent_id);
    const agent = newAgent(record.agent_id, record.parent_id, (parent?.depth ?? 0) + 1);
    agent.name = record.name;
    agent.call_id = record.call_id;
    agent.background = record.background === true;
    agent.started = timeOf(record);
    this.agents.set(record.agent_id, agent, record.agent_id);
    if (this.lists) (parent ?? this.root).children.push(record.agent_id);
  }

  private end(agent: TraceAgent, ended: TraceTime, status: EndStatus): void {
    agent.ended = ended;
    agent.status = status;
    agent.duration = durationOf(agent.started, false, ended);
  }
}

function newAgent(agent_id: string | undefined, parent_id: string | undefined, depth: number): TraceAgent {
  return {
    agent_id,
    parent_id,
    name: undefined,
    call_id: undefined,
    background: false,
    depth,
    started: undefined,
    ended: undefined,
    status: undefined,
    duration: undefined,
    calls: [],
    children: [],
  };
}

/** Whether a value read from a file is a trace record rather than an event: the trace's records have a `kind`. */
export function isTraceRecord(value: unknown): value is TraceRecord {
  return typeof value === 'object' && value !== null && 'kind' in value;
}
