/**
 * Where a run's events live in JetStream: the subject scheme, the message ids that let the
 * server drop a retried publish, and the stream a sink creates when there is none. Pure.
 *
 *   <prefix>.<harness>.<run>.<type>     one subject per run and event type
 *   <prefix>.<harness>.<run>.metrics    the run's metrics, its final message
 *   Nats-Msg-Id: <harness>.<run>.<n>    n: the message's 1-based position in its run
 */
import type { EventType } from '../../kernel/events.js';

/** The JetStream stream a sink writes to and a source reads from by default. */
export const DEFAULT_STREAM = 'HARNESS_EVENTS';
/** The subjects' first token by default: `harness.<harness>.<run>.<type>`. */
export const DEFAULT_PREFIX = 'harness';
/** The last token of a run's metrics message; no event type is called that. */
export const METRICS = 'metrics';

/** A subject's last token: an event type, or `metrics` for the run's metrics message. */
export type MessageKind = EventType | typeof METRICS;

/** Which stored messages a source reads: a subject (wildcards allowed), or the tokens of the scheme. */
export type SubjectFilter =
  | string
  | {
      /** Only this harness's runs. */
      harness?: string;
      /** Only this run. */
      run?: string;
      /** Only this event type (or `metrics`). */
      type?: MessageKind;
    };

/** A subject token: no dots, wildcards or whitespace, as NATS requires. */
const TOKEN = /^[^.*>\s]+$/;

export function checkToken(what: string, value: string): string {
  if (!TOKEN.test(value))
    throw new TypeError(`${what} "${value}" cannot be a NATS subject token (no ".", "*", ">" or whitespace)`);
  return value;
}

export function checkPrefix(prefix: string): string {
  for (const token of prefix.split('.')) checkToken('the subject prefix', token);
  return prefix;
}

/** The subject of a run's messages of one kind: `<prefix>.<harness>.<run>.<kind>`. */
export function subjectOf(prefix: string, harness: string, run: string, kind: MessageKind): string {
  return `${prefix}.${harness}.${run}.${kind}`;
}

export function messageIdOf(harness: string, run: string, position: number): string {
  return `${harness}.${run}.${position}`;
}

/** The run's position of a message, from its Nats-Msg-Id. */
export function positionOf(messageId: string | undefined): number | undefined {
  const position = Number(messageId?.slice(messageId.lastIndexOf('.') + 1));
  return Number.isInteger(position) && position > 0 ? position : undefined;
}

/** The scheme's tokens of a subject under `prefix`, or undefined for a subject outside the scheme. */
export function parseSubject(
  prefix: string,
  subject: string,
): { harness: string; run: string; kind: string } | undefined {
  if (!subject.startsWith(prefix + '.')) return undefined;
  const tokens = subject.slice(prefix.length + 1).split('.');
  if (tokens.length !== 3) return undefined;
  const [harness, run, kind] = tokens as [string, string, string];
  return { harness, run, kind };
}

/** The subject a filter reads: its tokens, `*` for those it leaves open; a string filter as given. */
export function filterSubject(prefix: string, filter: SubjectFilter = {}): string {
  if (typeof filter === 'string') return filter;
  const token = (what: string, value: string | undefined) => (value === undefined ? '*' : checkToken(what, value));
  return subjectOf(
    prefix,
    token('harness', filter.harness),
    token('run', filter.run),
    token('type', filter.type) as MessageKind,
  );
}

/** Nanoseconds, as JetStream's configuration counts durations. */
const NANOS_PER_MS = 1_000_000;

/**
 * The stream a sink creates when none exists: every subject under the prefix, on disk, kept 30
 * days (the oldest dropped first past that or a size limit an operator sets), and a 2-minute
 * de-duplication window (NATS's default), which outlasts a sink's default 60 s of retries.
 */
export function streamDefaults(name: string, prefix: string) {
  return {
    /** The stream's name. */
    name,
    /** Every subject under the prefix. */
    subjects: [`${prefix}.>`],
    /** Kept on disk. */
    storage: 'file' as const,
    /** Messages stay until a limit removes them, whoever has read them. */
    retention: 'limits' as const,
    /** Past a limit, the oldest messages go. */
    discard: 'old' as const,
    /** 30 days, in nanoseconds. */
    max_age: 30 * 24 * 60 * 60 * 1000 * NANOS_PER_MS,
    /** 2 minutes, in nanoseconds: a retried publish within it is stored once. */
    duplicate_window: 2 * 60 * 1000 * NANOS_PER_MS,
  };
}

export function nanosToMs(nanos: number): number {
  return nanos / NANOS_PER_MS;
}
