/**
 * The normalized event types, derived at the type level from the contract table in
 * lib/kernel/contract.ts, so the types and the published JSON Schemas cannot drift apart.
 */
import type { eventTypes, metrics, tokens } from './contract.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type of a JSON value described by a (small) JSON Schema. */
type JsonOf<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly type: 'string' }
    ? string
    : S extends { readonly type: 'integer' | 'number' }
      ? number
      : S extends { readonly type: 'boolean' }
        ? boolean
        : S extends { readonly type: 'object'; readonly properties: infer P; readonly required: readonly (infer R)[] }
          ? Simplify<
              { -readonly [K in keyof P & R]: JsonOf<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: JsonOf<P[K]> }
            >
          : S extends { readonly type: 'object'; readonly properties: infer P }
            ? { -readonly [K in keyof P]?: JsonOf<P[K]> }
            : S extends { readonly type: 'object'; readonly additionalProperties: infer V }
              ? Record<string, JsonOf<V>>
              : unknown;

type Fields<Row extends { required: object; optional: object }> = {
  -readonly [K in keyof Row['required']]: JsonOf<Row['required'][K]>;
} & {
  -readonly [K in keyof Row['optional']]?: JsonOf<Row['optional'][K]>;
};

type Table = typeof eventTypes;
export type EventType = keyof Table;

// `session_id?: never` on system events keeps `event.session_id` readable on the union.
type Common<K extends EventType> = Table[K] extends { session: false }
  ? { type: K; timestamp: string; session_id?: never }
  : { type: K; timestamp: string; session_id?: string };

/** One normalized event of type K, exactly as it appears on the wire. */
export type EventOf<K extends EventType> = Simplify<Common<K> & Fields<Table[K]>>;

/** Any normalized event, discriminated on `type`. */
export type HarnessEvent = { [K in EventType]: EventOf<K> }[EventType];

/** An event before the correlator stamps its common fields. */
export type EventBody = { [K in EventType]: Simplify<{ type: K } & Fields<Table[K]>> }[EventType];

export type Tokens = JsonOf<typeof tokens>;

export type RunMetrics = Simplify<Fields<typeof metrics>>;

export type AgentEvent = EventOf<'agent'>;
export type ReasoningEvent = EventOf<'reasoning'>;
export type CommandEvent = EventOf<'command'>;
export type ReadEvent = EventOf<'read'>;
export type WriteEvent = EventOf<'write'>;
export type SearchEvent = EventOf<'search'>;
export type ListEvent = EventOf<'list'>;
export type SkillEvent = EventOf<'skill'>;
export type OrchestrationEvent = EventOf<'orchestration'>;
export type UsageEvent = EventOf<'usage'>;
export type ErrorEvent = EventOf<'error'>;
export type WarningEvent = EventOf<'warning'>;
export type SystemEvent = EventOf<'system'>;
export type GgEvent = EventOf<'gg'>;
export type UnknownEvent = EventOf<'unknown'>;
