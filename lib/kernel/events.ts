/**
 * The normalized event types, derived at the type level from the contract table in
 * lib/kernel/contract.ts, so the types and the published JSON Schemas cannot drift apart.
 */
import type { eventTypes, metrics, tokens } from './contract.js';
import type { Fields, JsonOf, Simplify } from './schema-types.js';

type Table = typeof eventTypes;
/** The name of an event type: `agent`, `command`, `read`, ..., `unknown` (docs/events.md). */
export type EventType = keyof Table;

// `session_id?: never` on system events keeps `event.session_id` readable on the union.
type Common<K extends EventType> = Table[K] extends { session: false }
  ? {
      /** The event's type, its discriminant. */
      type: K;
      /** When harness-events observed the event (`Date#toISOString()`, UTC), not a time the harness reported. */
      timestamp: string;
      /** Never set: system events belong to no session. */
      session_id?: never;
    }
  : {
      /** The event's type, its discriminant. */
      type: K;
      /** When harness-events observed the event (`Date#toISOString()`, UTC), not a time the harness reported. */
      timestamp: string;
      /** The harness's own session id, on every event once a record named it; absent before. */
      session_id?: string;
    };

/** One normalized event of type K, exactly as it appears on the wire. */
export type EventOf<K extends EventType> = Simplify<Common<K> & Fields<Table[K]>>;

/** Any normalized event, discriminated on `type`. */
export type HarnessEvent = { [K in EventType]: EventOf<K> }[EventType];

/** An event before the correlator stamps its common fields. */
export type EventBody = {
  [K in EventType]: Simplify<
    {
      /** The event's type, its discriminant. */
      type: K;
    } & Fields<Table[K]>
  >;
}[EventType];

/**
 * Token counts by class (`input`, `output`, `cache_read`, `cache_write`, `reasoning`); a class is present only
 * when the harness reports it.
 *
 * @interface
 */
export type Tokens = JsonOf<typeof tokens>;

/**
 * What a run reports as a whole (`normalizer.metrics`, `run.done`'s `metrics`, the CLI's `--metrics FILE`;
 * docs/contract.md "Run metrics"), plus the library's own account of the input it read.
 *
 * @interface
 */
export type RunMetrics = Simplify<Fields<typeof metrics>>;

/**
 * The agent's natural-language message.
 *
 * @interface
 */
export type AgentEvent = EventOf<'agent'>;
/**
 * The model's reasoning text.
 *
 * @interface
 */
export type ReasoningEvent = EventOf<'reasoning'>;
/**
 * A shell command the agent ran (one that only reads, writes, searches or lists is that event instead).
 *
 * @interface
 */
export type CommandEvent = EventOf<'command'>;
/**
 * A file read (never its content).
 *
 * @interface
 */
export type ReadEvent = EventOf<'read'>;
/**
 * A file written or edited (never the text).
 *
 * @interface
 */
export type WriteEvent = EventOf<'write'>;
/**
 * A search: by content, by file name, or on the web (never its results).
 *
 * @interface
 */
export type SearchEvent = EventOf<'search'>;
/**
 * A directory listing.
 *
 * @interface
 */
export type ListEvent = EventOf<'list'>;
/**
 * A skill the agent used.
 *
 * @interface
 */
export type SkillEvent = EventOf<'skill'>;
/**
 * A subagent started, completed or failed.
 *
 * @interface
 */
export type OrchestrationEvent = EventOf<'orchestration'>;
/**
 * One turn's (or model call's) tokens; the run's `usage` events add up to `metrics.tokens`.
 *
 * @interface
 */
export type UsageEvent = EventOf<'usage'>;
/**
 * An error the harness reported, or one the library creates (`exit_code`, `timeout`, ...: docs/events.md).
 *
 * @interface
 */
export type ErrorEvent = EventOf<'error'>;
/**
 * A potential issue: a line on stderr, a line that is not JSON, a rate limit, a refused tool call.
 *
 * @interface
 */
export type WarningEvent = EventOf<'warning'>;
/**
 * The orchestrator's own lifecycle stages (it has no `session_id`).
 *
 * @interface
 */
export type SystemEvent = EventOf<'system'>;
/**
 * A gg telemetry event, verbatim.
 *
 * @interface
 */
export type GgEvent = EventOf<'gg'>;
/**
 * Harness output nothing else describes, verbatim: nothing is lost.
 *
 * @interface
 */
export type UnknownEvent = EventOf<'unknown'>;
