/**
 * fromJetStream: the stored events of one run or many, read back from JetStream in the order
 * the stream holds them (a run's events in the order its sink wrote them), as a Readable and
 * async iterable. An ordered consumer that lives only as long as the reader; messages are
 * fetched `batch` at a time, and the next batch only once the reader wants more. The source
 * emits 'ready' once its consumer exists: `deliver: 'new'` gives what is stored after that.
 */
import { Readable } from 'node:stream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Consumer, JsMsg, OrderedConsumerOptions } from '@nats-io/jetstream';
import { now } from '../../kernel/clock.js';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import { metricsViolationOf, violationOf } from '../../transforms/validate.js';
import { connectWithin, isStreamNotFound, nats, serverList, type ConnectOptions } from './connection.js';
import {
  checkPrefix,
  DEFAULT_PREFIX,
  DEFAULT_STREAM,
  filterSubject,
  METRICS,
  parseSubject,
  positionOf,
  type SubjectFilter,
} from './subjects.js';

/** What {@link fromJetStream} reads: the server, the stream, which messages, and from where. */
export interface JetStreamSourceOptions {
  /** NATS server URLs: `nats://host:4222`, several as a list or comma-separated. */
  servers: string | readonly string[];
  /** Default `HARNESS_EVENTS`. It must exist. */
  stream?: string;
  /** The subjects' first token(s), as the sink was given. Default `harness`. */
  subject?: string;
  /** Which messages: `{ run }`, `{ harness }`, `{ type }` (any mix), or a subject. Default: all. */
  filter?: SubjectFilter;
  /** From the start of the stream (default), only what comes after now, or from a time on. */
  deliver?:
    | 'all'
    | 'new'
    | {
        /** The time from which on (a Date, or an ISO 8601 string). */
        since: Date | string;
      };
  /** Keep reading new messages after catching up, until destroyed. Default: only with `deliver: 'new'`. */
  follow?: boolean;
  /** `events` (default): the stored HarnessEvents. `records`: each with its run, and the runs' metrics. */
  output?: 'events' | 'records';
  /** Messages fetched at a time: at most this many wait in memory. Default 256. */
  batch?: number;
  /** How long connecting may take. Default 60,000 ms. */
  giveUpAfterMs?: number;
  /** Further options for the NATS connection (credentials, TLS, ...), passed to `connect` as given. */
  connectOptions?: ConnectOptions;
}

interface Stored {
  subject: string;
  harness: string;
  run: string;
  /** The message's 1-based position in its run. */
  position: number;
  /** The message's sequence number in the stream. */
  sequence: number;
}

/** One stored message with where it came from: an event, or a run's metrics. */
export type JetStreamRecord =
  | (Stored & {
      /** The stored event. */
      event: HarnessEvent;
    })
  | (Stored & {
      /** The run's metrics, stored after its last event. */
      metrics: RunMetrics;
    });

/** The stored events as a Readable (what {@link fromJetStream} returns). */
export interface JetStreamSource extends Readable {
  /** Iterates the stored events in the stream's order. */
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<HarnessEvent>;
  /** Stops fetching and ends the stream after what it has delivered (a clean end for a follower). */
  stop(): void;
}

/** Fetches wait this long for new messages before asking again (following only). */
const FOLLOW_EXPIRES_MS = 30_000;
/**
 * Without --follow a fetch asks only for messages the server counted as there; one may vanish before it is fetched
 * (a purge, `discard: old`), so the fetch gives up soon (the client's minimum) and the count is asked for again.
 */
const CATCH_UP_EXPIRES_MS = 1_000;

/**
 * Reads stored events back from JetStream, of one run or many, in the order the stream holds them (a run's in the
 * order its sink wrote them); `output: 'records'` gives each with its run and position, and the runs' metrics. A
 * message that is not an event is a `jetstream_message` warning.
 *
 * @example
 * ```ts
 * for await (const event of fromJetStream({ servers: 'nats://127.0.0.1:4222', filter: { run: 'ci-4711' } }))
 *   console.log(event);
 * ```
 */
export function fromJetStream(options: JetStreamSourceOptions & { output: 'records' }): Readable &
  Pick<JetStreamSource, 'stop'> & {
    /** Iterates the stored records in the stream's order. */
    [Symbol.asyncIterator](): NodeJS.AsyncIterator<JetStreamRecord>;
  };
/** Reads stored events back from JetStream (see the first signature). */
export function fromJetStream(options: JetStreamSourceOptions): JetStreamSource;
export function fromJetStream(options: JetStreamSourceOptions): Readable & Pick<JetStreamSource, 'stop'> {
  const servers = serverList(options.servers);
  const stream = options.stream ?? DEFAULT_STREAM;
  const prefix = checkPrefix(options.subject ?? DEFAULT_PREFIX);
  const filter = filterSubject(prefix, options.filter);
  const deliver = options.deliver ?? 'all';
  const follow = options.follow ?? deliver === 'new';
  const records = options.output === 'records';
  const batch = options.batch ?? 256;
  const closing = new AbortController();
  let connection: NatsConnection | undefined;
  let consumer: Consumer;
  /** Messages the consumer has yet to deliver: the server's count, asked for before each fetch when not following. */
  let pending = 0;
  let reading = false;
  let stopping = false;
  let stopFetch: (() => void) | undefined;

  const source = new Readable({
    objectMode: true,
    highWaterMark: batch,
    construct(callback) {
      open().then(() => {
        source.emit('ready');
        callback();
      }, callback);
    },
    read() {
      if (!reading) pump().catch((error) => source.destroy(error));
    },
    destroy(error, callback) {
      stopFetch?.();
      const closed = connection?.close() ?? Promise.resolve();
      closed.then(
        () => callback(error),
        () => callback(error),
      );
    },
  }) as JetStreamSource;
  source.stop = () => {
    stopping = true;
    stopFetch?.();
  };
  // A destroy while still connecting must not wait for the connection's deadline.
  const destroy = source.destroy.bind(source);
  source.destroy = (error?: Error) => {
    closing.abort();
    return destroy(error);
  };

  async function open(): Promise<void> {
    connection = await connectWithin(
      servers,
      options.connectOptions ?? {},
      options.giveUpAfterMs ?? 60_000,
      closing.signal,
    );
    const [, { jetstream }] = await nats();
    const config: Partial<OrderedConsumerOptions> = { filter_subjects: filter };
    if (deliver === 'all' || deliver === 'new') config.deliver_policy = deliver;
    else config.opt_start_time = new Date(deliver.since).toISOString();
    try {
      consumer = await jetstream(connection).consumers.get(stream, config);
    } catch (error) {
      if (isStreamNotFound(error))
        throw new Error(`no JetStream stream ${stream} on ${servers.join(', ')}`, { cause: error });
      throw error;
    }
  }

  /** Pushes fetched messages until the reader has enough; ends after catching up unless following. */
  async function pump(): Promise<void> {
    reading = true;
    for (;;) {
      // The stream's state, not a count carried over from the last message, which goes stale when messages vanish.
      if (!follow && !stopping) pending = (await consumer.info()).num_pending;
      if (source.destroyed) return;
      if (stopping || (!follow && pending === 0)) {
        source.push(null);
        return;
      }
      const messages = await consumer.fetch({
        max_messages: follow ? batch : Math.min(batch, pending),
        expires: follow ? FOLLOW_EXPIRES_MS : CATCH_UP_EXPIRES_MS,
      });
      stopFetch = () => messages.stop();
      if (stopping) messages.stop();
      let wantsMore = true;
      for await (const message of messages) {
        if (source.destroyed) return;
        if (stopping) break;
        pending = message.info.pending;
        const item = itemOf(message);
        if (item !== undefined) wantsMore = source.push(item);
        if (!follow && pending === 0) break;
      }
      stopFetch = undefined;
      if (source.destroyed) return;
      if (!wantsMore) {
        reading = false;
        return;
      }
    }
  }

  function itemOf(message: JsMsg): unknown {
    const tokens = parseSubject(prefix, message.subject);
    let body: unknown;
    try {
      body = message.json();
    } catch {
      return foreign(message, 'not JSON');
    }
    if (tokens === undefined) return foreign(message, `not a subject of the ${prefix}.<harness>.<run>.<type> scheme`);
    const isMetrics = tokens.kind === METRICS;
    if (!records && isMetrics) return undefined;
    // Anyone may publish on the subjects: what leaves as an event is one, checked against the event schema.
    const violation = isMetrics ? metricsViolationOf(body) : violationOf(body);
    if (violation !== undefined) return foreign(message, isMetrics ? `not run metrics: ${violation}` : violation);
    if (!records) return body;
    const stored: Stored = {
      subject: message.subject,
      harness: tokens.harness,
      run: tokens.run,
      position: positionOf(message.headers?.get('Nats-Msg-Id')) ?? 0,
      sequence: message.seq,
    };
    return isMetrics ? { ...stored, metrics: body } : { ...stored, event: body };
  }

  /** A message that is not a stored event: a warning, so nothing vanishes unexplained. */
  function foreign(message: JsMsg, why: string): unknown {
    const event: HarnessEvent = {
      type: 'warning',
      timestamp: now(),
      code: 'jetstream_message',
      message: `stream ${stream} message ${message.seq} on ${message.subject}: ${why}`,
    };
    const tokens = parseSubject(prefix, message.subject);
    return records
      ? {
          subject: message.subject,
          harness: tokens?.harness ?? '',
          run: tokens?.run ?? '',
          position: 0,
          sequence: message.seq,
          event,
        }
      : event;
  }

  return source;
}
