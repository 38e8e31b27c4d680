/**
 * toJetStream: a Writable of HarnessEvents that publishes each one to NATS JetStream and counts
 * it written only once the server has acknowledged storing it.
 *
 * - At most `maxInFlight` events are unacknowledged; past that, write() waits, so a slow or
 *   absent server holds the pipeline (and the agent's stdout) back instead of filling memory.
 * - Every message carries a Nats-Msg-Id made of the run and the event's position in it: a
 *   publish sent again after a lost acknowledgement is dropped by the server as a duplicate.
 *   A run id names one publication: a sink refuses a run the stream already holds messages of,
 *   and a duplicate acknowledged for a message it never sent before (another sink racing it
 *   with the same run) destroys it, so no event is dropped silently.
 * - Order: a run's publishes travel in order on one connection; when some fail (a timeout, the
 *   server gone), the sink waits until every publish ahead has settled and the connection is
 *   back, then sends the failed ones again, in order, before anything newer.
 * - An event not acknowledged within `giveUpAfterMs` (reconnects included), or refused for good
 *   (too large for the server), destroys the stream with an error naming it.
 */
import { Transform, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { TraceRecord } from '../../kernel/trace.js';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import { connectWithin, seconds } from './connection.js';
import { settingsOf, type JetStreamSinkOptions, type SinkSettings } from './options.js';
import { prepareStream } from './prepare.js';
import { checkToken, messageIdOf, METRICS, subjectOf, type MessageKind } from './subjects.js';

/** A publish that failed for good: the event it lost, and its position in the run. */
export class JetStreamPublishError extends Error {
  constructor(
    message: string,
    /** The lost message's position in the run (1-based, the metrics last). */
    readonly position: number,
    /** The event (or the run's metrics) that was not stored. */
    readonly event: HarnessEvent | RunMetrics,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'JetStreamPublishError';
  }
}

interface Entry {
  position: number;
  kind: MessageKind;
  subject: string;
  payload: string;
  item: HarnessEvent | RunMetrics;
  /** When it was written: the give-up clock starts here. */
  since: number;
  /** Publishes of it so far: a duplicate acknowledged for the first one is not a retry. */
  sends: number;
  lastError?: Error;
}

/** Errors after which sending the same message again can succeed. */
const RETRYABLE = new Set(['TimeoutError', 'RequestError', 'NoResponders', 'JetStreamNotEnabled']);
const BACKOFF_MS = [100, 200, 400, 800, 1600];

/**
 * A Writable of one run's events into a JetStream stream, each published once (message ids de-duplicate retries) and
 * acknowledged before the sink finishes; `toJetStream(options)` makes one. It emits `'ready'` once connected.
 */
export class JetStreamSink extends Writable {
  /** Messages the server has acknowledged so far. */
  acknowledged = 0;
  /** Of those, acknowledged as duplicates: a retry whose first publish was stored after all. */
  duplicates = 0;

  private readonly settings: SinkSettings;
  /** The settings' giveUpAfterMs, or the stream's de-duplication window if shorter. */
  private giveUpAfterMs: number;
  private readonly closing = new AbortController();
  private connection?: NatsConnection;
  private client?: JetStreamClient;
  private connected = true;
  private position = 0;
  private fixedHarness?: string;
  /** Every message not yet acknowledged, by position, in order. */
  private readonly unacked = new Map<number, Entry>();
  /** Publishes awaiting their outcome. */
  private sending = 0;
  /** Failed messages (and any written after them), to send again, in order. */
  private retry: Entry[] = [];
  private retryRound = 0;
  private retryTimer?: NodeJS.Timeout;
  private giveUpTimer?: NodeJS.Timeout;
  private wakeOnReconnect?: () => void;
  private roomCallback?: (error?: Error | null) => void;
  private finalCallback?: (error?: Error | null) => void;

  constructor(options: JetStreamSinkOptions) {
    // Checked before the stream exists: a refused option must not leave it connecting.
    const settings = settingsOf(options);
    super({ objectMode: true, highWaterMark: 16 });
    this.settings = settings;
    this.giveUpAfterMs = settings.giveUpAfterMs;
  }

  /** The run's id: the third token of its subjects. */
  get run(): string {
    return this.settings.run;
  }

  /** The harness token of the subjects: fixed at the first event when given as a function. */
  get harness(): string {
    const harness = this.settings.harness;
    if (typeof harness === 'string') return harness;
    this.fixedHarness ??= checkToken('harness', harness());
    return this.fixedHarness;
  }

  /** The JetStream stream written to. */
  get stream(): string {
    return this.settings.stream;
  }

  /** The subjects' first token(s). */
  get prefix(): string {
    return this.settings.prefix;
  }

  /** Messages written and not yet acknowledged. */
  get inFlight(): number {
    return this.unacked.size;
  }

  /** @internal */
  override _construct(callback: (error?: Error | null) => void): void {
    // 'ready': connected, the stream checked (and the run found unused); nothing is published before.
    this.open().then(() => {
      this.emit('ready');
      callback();
    }, callback);
  }

  private async open(): Promise<void> {
    this.connection = await connectWithin(
      this.settings.servers,
      this.settings.connectOptions,
      this.giveUpAfterMs,
      this.closing.signal,
    );
    const stream = await prepareStream(this.connection, this.settings);
    // A retry later than the de-duplication window could be stored twice.
    this.giveUpAfterMs = Math.min(this.giveUpAfterMs, stream.duplicateWindowMs || this.giveUpAfterMs);
    this.client = stream.client;
    this.watchConnection(this.connection).catch((error) => this.destroy(error));
  }

  private async watchConnection(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') this.connected = false;
      if (status.type === 'reconnect') {
        this.connected = true;
        this.wakeOnReconnect?.();
      }
    }
  }

  // A destroy while still connecting must not wait for the connection's deadline.
  override destroy(error?: Error): this {
    this.closing.abort();
    return super.destroy(error);
  }

  /** @internal */
  override _write(event: HarnessEvent, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.enqueue(event.type, event);
    if (this.unacked.size < this.settings.maxInFlight) callback();
    else this.roomCallback = callback;
  }

  /** @internal */
  override _final(callback: (error?: Error | null) => void): void {
    if (this.settings.metrics) this.enqueue(METRICS, this.settings.metrics());
    this.finalCallback = callback;
    this.maybeFinish();
  }

  /** @internal */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.giveUpTimer);
    const connection = this.connection;
    if (!connection) return callback(error);
    connection.close().then(
      () => callback(error),
      () => callback(error),
    );
  }

  private enqueue(kind: MessageKind, item: HarnessEvent | RunMetrics): void {
    const position = ++this.position;
    const entry: Entry = {
      position,
      kind,
      subject: subjectOf(this.prefix, this.harness, this.run, kind),
      payload: JSON.stringify(item),
      item,
      since: Date.now(),
      sends: 0,
    };
    this.unacked.set(position, entry);
    // Nothing may overtake a message waiting to be sent again.
    if (this.retry.length > 0) this.retry.push(entry);
    else this.send(entry);
  }

  private send(entry: Entry): void {
    this.sending++;
    entry.sends++;
    this.client!.publish(entry.subject, entry.payload, {
      msgID: messageIdOf(this.harness, this.run, entry.position),
      timeout: this.settings.ackTimeoutMs,
    }).then(
      (ack) => this.acknowledge(entry, ack.duplicate),
      (error: Error) => this.failed(entry, error),
    );
  }

  private acknowledge(entry: Entry, duplicate: boolean): void {
    this.sending--;
    if (this.destroyed) return;
    if (duplicate && entry.sends === 1) {
      return this.giveUp(entry, 'the server already held its message id: another publication uses the same run id');
    }
    if (duplicate) this.duplicates++;
    this.retryRound = 0;
    this.unacked.delete(entry.position);
    this.acknowledged++;
    if (this.roomCallback && this.unacked.size < this.settings.maxInFlight) {
      const callback = this.roomCallback;
      this.roomCallback = undefined;
      callback();
    }
    this.scheduleRetry();
    this.maybeFinish();
  }

  private failed(entry: Entry, error: Error): void {
    this.sending--;
    if (this.destroyed) return;
    entry.lastError = error;
    if (!RETRYABLE.has(error.name)) return this.giveUp(entry, `the server refused it: ${error.message}`);
    this.retry.push(entry);
    this.scheduleRetry();
  }

  /** Once nothing is in flight: wait for the connection (and a growing pause), then resend in order. */
  private scheduleRetry(): void {
    if (this.sending > 0 || this.retry.length === 0 || this.retryTimer || this.wakeOnReconnect || this.destroyed)
      return;
    const oldest = this.unacked.values().next().value!;
    const left = oldest.since + this.giveUpAfterMs - Date.now();
    if (left <= 0) return this.giveUp(oldest, `no acknowledgement within ${seconds(this.giveUpAfterMs)}`);
    this.giveUpTimer = setTimeout(
      () => this.giveUp(oldest, `no acknowledgement within ${seconds(this.giveUpAfterMs)}`),
      left,
    );
    const resend = () => {
      clearTimeout(this.giveUpTimer);
      this.retryTimer = undefined;
      this.wakeOnReconnect = undefined;
      const entries = this.retry.sort((a, b) => a.position - b.position);
      this.retry = [];
      for (const entry of entries) this.send(entry);
    };
    if (this.connected) {
      this.retryTimer = setTimeout(resend, BACKOFF_MS[Math.min(this.retryRound++, BACKOFF_MS.length - 1)]);
    } else {
      this.wakeOnReconnect = resend;
    }
  }

  private giveUp(entry: Entry, reason: string): void {
    const what = entry.kind === METRICS ? 'the run metrics' : `event #${entry.position} (${entry.kind})`;
    const last =
      entry.lastError && entry.lastError.name !== 'TimeoutError' && !reason.includes(entry.lastError.message)
        ? ` (last error: ${entry.lastError.message})`
        : '';
    const server = this.connected ? '' : `; ${this.settings.servers.join(', ')} unreachable`;
    this.destroy(
      new JetStreamPublishError(
        `could not publish ${what} of run ${this.run} to JetStream stream ${this.stream}: ${reason}${last}${server}`,
        entry.position,
        entry.item,
        {
          cause: entry.lastError,
        },
      ),
    );
  }

  private maybeFinish(): void {
    if (!this.finalCallback || this.unacked.size > 0) return;
    const callback = this.finalCallback;
    this.finalCallback = undefined;
    this.connection!.drain().then(() => callback(), callback);
  }
}

/** A JetStream sink for one run: see JetStreamSinkOptions. */
export function toJetStream(options: JetStreamSinkOptions): JetStreamSink {
  return new JetStreamSink(options);
}

/**
 * A pass-through stage that also writes every event to `sink`, at the sink's pace: for
 * publishing a run while printing it. It ends when the sink has every event acknowledged. Given the trace stream
 * (docs/contract.md "Trace stream"), it publishes the events its `event` records carry and passes every record on.
 */
export function publishTo(sink: Writable): Transform {
  const tee = new Transform({
    objectMode: true,
    transform(item: HarnessEvent | TraceRecord, _encoding, done) {
      const event = 'kind' in item ? (item.kind === 'event' ? item.event : undefined) : item;
      if (event === undefined) return done(null, item);
      sink.write(event, (error) => (error ? done(error) : done(null, item)));
    },
    flush(done) {
      sink.end();
      finished(sink).then(() => done(), done);
    },
    destroy(error, done) {
      sink.destroy(error ?? undefined);
      done(error);
    },
  });
  sink.on('error', (error) => tee.destroy(error));
  return tee;
}
