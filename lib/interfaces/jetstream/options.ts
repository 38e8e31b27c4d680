/** The options of toJetStream, and how they are checked and defaulted. */
import type { RunMetrics } from '../../kernel/events.js';
import { serverList, type ConnectOptions } from './connection.js';
import { checkPrefix, checkToken, DEFAULT_PREFIX, DEFAULT_STREAM } from './subjects.js';

/** What {@link toJetStream} takes: the server, the run's subjects, and how publishing is bounded. */
export interface JetStreamSinkOptions {
  /** NATS server URLs: `nats://host:4222`, several as a list or comma-separated. */
  servers: string | readonly string[];
  /**
   * The harness that produced the events: a token of every subject. A function is read at the
   * first event (for `harness: 'auto'`, which knows its harness only then).
   */
  harness: string | (() => string);
  /** The run's id, a token of every subject. Default: a new UUID (see `sink.run`). */
  run?: string;
  /** The JetStream stream; created with `streamDefaults` when missing. Default `HARNESS_EVENTS`. */
  stream?: string;
  /** The subjects' first token(s). Default `harness`. */
  subject?: string;
  /** Unacknowledged publishes allowed at once. Default 256. */
  maxInFlight?: number;
  /** How long one publish waits for its acknowledgement before it is tried again. Default 5,000 ms. */
  ackTimeoutMs?: number;
  /**
   * How long an event may stay unacknowledged, reconnects included, before the sink fails
   * (and how long connecting may take). Default 60,000 ms; never more than the stream's
   * de-duplication window, so that a late retry cannot be stored twice.
   */
  giveUpAfterMs?: number;
  /** Read when the stream ends: published as the run's final message (subject `...metrics`). */
  metrics?: () => RunMetrics;
  /** Further client options (credentials, TLS, name, reconnect pacing). */
  connectOptions?: ConnectOptions;
}

/** The options, checked, with their defaults. */
export function settingsOf(options: JetStreamSinkOptions) {
  return {
    servers: serverList(options.servers),
    harness: typeof options.harness === 'string' ? checkToken('harness', options.harness) : options.harness,
    // The global Web Crypto, not node:crypto: importing that would slow every program's start.
    run: checkToken('run', options.run ?? crypto.randomUUID()),
    stream: options.stream ?? DEFAULT_STREAM,
    prefix: checkPrefix(options.subject ?? DEFAULT_PREFIX),
    maxInFlight: positive('maxInFlight', options.maxInFlight ?? 256),
    ackTimeoutMs: positive('ackTimeoutMs', options.ackTimeoutMs ?? 5000),
    giveUpAfterMs: positive('giveUpAfterMs', options.giveUpAfterMs ?? 60_000),
    metrics: options.metrics,
    connectOptions: options.connectOptions ?? {},
  };
}

export type SinkSettings = ReturnType<typeof settingsOf>;

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
