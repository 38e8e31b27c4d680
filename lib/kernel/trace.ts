/**
 * The trace stream's types, derived from its table (lib/kernel/trace-contract.ts), and what a correlator tells the
 * trace through `run.trace` (docs/contract.md "Trace stream"). The trace is off unless asked for: `run.trace` is
 * then undefined and a correlator does nothing for it.
 */
import type { HarnessEvent, Tokens } from './events.js';
import type { Fields, Simplify } from './schema-types.js';
import type { TraceKind, traceKinds } from './trace-contract.js';

/** One record of the trace stream, of kind K. */
export type TraceRecordOf<K extends TraceKind> = Simplify<
  {
    /** The record's kind, its discriminant. */
    kind: K;
  } & Omit<Fields<(typeof traceKinds)[K]>, 'event'> &
    (K extends 'event'
      ? {
          /** The contract event, unchanged. */
          event: HarnessEvent;
        }
      : unknown)
>;

/** Any record of the trace stream, discriminated on `kind`. */
export type TraceRecord = { [K in TraceKind]: TraceRecordOf<K> }[TraceKind];

/** Where a trace time came from. */
export type TimeSource = 'harness' | 'observed';

/**
 * A time as a harness record gives it: an ISO 8601 string, or epoch milliseconds (seconds for a number below 1e11,
 * Goose's `created`). Anything else is no time: the record's observation time is used instead.
 */
export type HarnessTime = unknown;

/** The ids an event record carries beside its event: the call, agent and model call it came from. */
export interface EventIds {
  /** The tool call it came from. */
  call_id?: string;
  /** Its agent; undefined: the root agent. */
  agent_id?: string;
  /** The model call it came from. */
  model_call_id?: string;
}

/** What a correlator says when the harness announces a tool call (before its result). */
export interface CallStart {
  /** The harness's id for the call: the one its `run.tool` will carry. */
  call_id: string;
  /** The tool's name, as the harness gives it. */
  tool: string;
  /** The agent making the call; unset: the agent of the records being read (`run.trace.agent`). */
  agent_id?: string;
  /** The record's own time for the call's start, if it has one. */
  at?: HarnessTime;
}

/** What a correlator says when a subagent starts (beyond what its orchestration event says). */
export interface AgentStart {
  /** The subagent's id: its orchestration events' `subagent_id`. */
  agent_id: string;
  /** The agent that started it; unset: the agent of the records being read. */
  parent_id?: string;
  /** The tool call that started it. */
  call_id?: string;
  /** The harness's other id for it. */
  native_id?: string;
  /** Its name or type. */
  name?: string;
  /** It runs in the background (the call that started it ended at its launch). */
  background?: boolean;
  /** The record's own time, if it has one. */
  at?: HarnessTime;
}

/** One model request, as far as the harness reports it. */
export interface ModelCall {
  /** The harness's id for the request or response. */
  model_call_id?: string;
  /** The agent that made it; unset: the agent of the records being read. */
  agent_id?: string;
  /** The model, as the harness names it. */
  model?: string;
  /** Its tokens, in the `usage` events' classes. */
  tokens?: Tokens;
  /** Its cost in USD, where the harness reports one. */
  cost?: number;
  /** When the request started, where the harness's marker has its own time. */
  started_at?: HarnessTime;
  /**
   * When the library read a request marker that has no time of its own (`now()` then, kept until the call ended):
   * `started_at` with `started_at_source: 'observed'`.
   */
  started_observed?: string;
  /** When its answer ended, if the record has a time; unset: now. */
  at?: HarnessTime;
}

/**
 * A total of the run's tokens the harness reports (docs/usage.md "From stdout"). `scope: 'run'`: the run's own;
 * `'session'`: the session's running total, the run's own only when the run started the session (spawnHarness knows
 * its command line: `run_ended` carries it then, and never otherwise).
 */
export interface RunTotal {
  /** Every class the harness reports. */
  tokens: Tokens;
  /** The same by model, where the harness breaks it down. */
  models?: Record<string, Tokens>;
  /** `run`: the run's own; `session`: the session's running total (the run's own only in a session it started). */
  scope: 'run' | 'session';
}

/** A permission request or its resolution, as a client or correlator says it (the writer adds `at`). */
export type PermissionRecord =
  | Omit<TraceRecordOf<'permission_requested'>, 'at' | 'at_source'>
  | Omit<TraceRecordOf<'permission_resolved'>, 'at' | 'at_source'>;

/** What a correlator tells the trace, through `run.trace` (undefined when the trace is off). */
export interface RunTrace {
  /**
   * The run's own start time, from its first record (a session file's first timestamp): `run_started` carries it when
   * said before anything else was sent.
   */
  began(at: HarnessTime): void;
  /**
   * The records read next belong to this agent (undefined: the root agent): the events they give carry its id, and
   * text held for another agent goes out first.
   */
  agent(agent_id: string | undefined): void;
  /** The harness announced a tool call: `call_started`, once per call id. */
  callStarted(call: CallStart): void;
  /**
   * A call ended that gives no events of its own (its result consumed, as Claude Code's Agent call is): `call_ended`
   * (`run.tool` says it for every other call). `is_success` unset: `unresolved`. Returns the ids it had.
   */
  callEnded(
    call_id: string,
    tool: string,
    is_success: boolean | undefined,
    started?: HarnessTime,
    ended?: HarnessTime,
  ): EventIds;
  /**
   * A subagent started: `agent_started` (an orchestration `subagent_started` event makes one by itself; say it here
   * first to add what the event has no field for).
   */
  agentStarted(agent: AgentStart): void;
  /** A subagent ended: `agent_ended` (an orchestration `subagent_completed`/`subagent_failed` makes one by itself). */
  agentEnded(agent_id: string, status: 'completed' | 'failed', at?: HarnessTime): void;
  /** A model request ended: `model_call`. Its `usage` event, if any, is emitted after it with the same id. */
  modelCall(call: ModelCall): void;
  /**
   * A permission request or its resolution (`permission_requested`, `permission_resolved`); a call's resolution is
   * said once, the first time (the client's answer, then the harness's own report of it, is one resolution).
   */
  permission(record: PermissionRecord): void;
  /** The harness reported a total of the run's tokens (the last one said is the run's): `run_ended` carries it. */
  runTotal(total: RunTotal): void;
}

/** The time a harness record gives, as `Date#toISOString()`; undefined when the value is no time. */
export function harnessTime(value: HarnessTime): string | undefined {
  let ms: number;
  if (typeof value === 'number') ms = value < 1e11 ? value * 1000 : value;
  else if (typeof value === 'string' && value !== '') ms = Date.parse(value);
  else return undefined;
  // Date#toISOString throws past year 275760; a year below 1000 or past 9999 is no harness's clock either.
  if (!Number.isFinite(ms) || ms < -30610224000000 || ms > 253402300799999) return undefined;
  return new Date(ms).toISOString();
}
