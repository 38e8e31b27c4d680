/**
 * The sink when the server goes away, against a real nats-server: stopped in the middle of a
 * run and started again on the same store (nothing lost, nothing stored twice, the agent held
 * back meanwhile), stopped for good (a clear error after a bounded time), never there, and a
 * message the server can never take.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { JetStreamPublishError, toJetStream } from '../../../lib/interfaces/jetstream/sink.js';
import { JetStreamConnectError } from '../../../lib/interfaces/jetstream/connection.js';
import { floodProgress } from '../../helpers.js';
import { startNatsServer, unusedPort, type NatsServer } from '../../nats-server.js';
import { asStored, children, expectSame, readAll, startPublishing, until, type Spawned } from './publish.js';

let server: NatsServer | undefined;
let progressDir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (progressDir) rmSync(progressDir, { recursive: true, force: true });
  progressDir = undefined;
});

/** A child writing `bytes` of 16 KB Claude Code lines as fast as the pipe takes them, reporting its progress. */
function flood(bytes: number): { spawn: Spawned; written: () => number } {
  progressDir = mkdtempSync(join(tmpdir(), 'harness-events-nats-flood-'));
  const progress = join(progressDir, 'progress');
  const written = () => floodProgress(progress).bytes;
  return {
    spawn: {
      harness: 'claude-code',
      command: process.execPath,
      args: [join(children, 'flood.mjs'), String(bytes), progress],
    },
    written,
  };
}

const lineBytes = 16 * 1024 + 90;

describe('the server restarts in the middle of a run', () => {
  test(
    'no event lost, none stored twice, in order; the agent was held back while the server was away',
    { timeout: 180_000 },
    async () => {
      server = await startNatsServer();
      const total = 32 * 1024 * 1024;
      const child = flood(total);
      const run = 'restart';
      const publishing = startPublishing(child.spawn, {
        servers: server.url,
        run,
        maxInFlight: 16,
        ackTimeoutMs: 1000,
        connectOptions: { reconnectTimeWait: 100 },
      });

      await until(() => publishing.sink.acknowledged >= 100);
      await server.stop();
      // Stalled: every publish the sink may have waits, and spawnHarness has stopped reading the
      // child's stdout. Nothing can move on until the server is back, so this state lasts. A
      // sink without backpressure would never get here: the child would write all it has.
      await until(
        () =>
          (publishing.sink.inFlight === 16 && publishing.run.child!.stdout!.isPaused()) ||
          publishing.run.metrics.input.bytes >= total,
      );
      expect(publishing.run.metrics.input.bytes).toBeLessThan(total);
      const acknowledged = publishing.sink.acknowledged;
      // What the child handed to its stdout and is not stored yet: pipes, stream buffers, the 256 events spawnHarness
      // holds.
      const inFlightBytes = child.written() - acknowledged * lineBytes;
      expect(inFlightBytes).toBeLessThan(16 * 1024 * 1024);

      await server.restart();
      await publishing.done;
      expect(publishing.run.metrics.input.bytes).toBe(child.written());
      expect(publishing.maxInFlight).toBeLessThanOrEqual(16);

      const records = await readAll({ servers: server.url, filter: { run }, output: 'records' });
      const events = publishing.events;
      expect(events.filter((event) => event.type === 'agent').length).toBeGreaterThan(1900);
      expectSame(
        records.map((record) => ('event' in record ? record.event : record.metrics)),
        [...events, asStored(publishing.run.metrics)],
      );
      expect(records.map((record) => record.position)).toEqual(records.map((_, index) => index + 1));
    },
  );
});

describe('a server that does not come back', () => {
  test(
    'the sink fails after giveUpAfterMs with an error naming the event it lost; the agent is stopped',
    { timeout: 60_000 },
    async () => {
      server = await startNatsServer();
      const child = flood(64 * 1024 * 1024);
      const publishing = startPublishing(child.spawn, {
        servers: server.url,
        run: 'gone',
        maxInFlight: 8,
        ackTimeoutMs: 500,
        giveUpAfterMs: 2000,
      });
      await until(() => publishing.sink.acknowledged >= 10);
      await server.stop();
      const error = await publishing.done.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(JetStreamPublishError);
      const lost = error as JetStreamPublishError;
      // Acknowledgements come in order: the first event without one is the one lost.
      const acknowledged = publishing.sink.acknowledged;
      expect(lost.message).toBe(
        `could not publish event #${acknowledged + 1} (agent) of run gone to JetStream stream HARNESS_EVENTS: no ` +
          `acknowledgement within 2 s; ${server.url} unreachable`,
      );
      expect(lost.position).toBe(acknowledged + 1);
      expect(lost.event).toEqual(publishing.events[acknowledged]);
      // The pipeline's failure stopped the child.
      await expect(publishing.run.done).rejects.toMatchObject({ isCanceled: true });
    },
  );

  test(
    'no server at all: connecting gives up after giveUpAfterMs, and says where it tried',
    { timeout: 60_000 },
    async () => {
      const url = `nats://127.0.0.1:${await unusedPort()}`;
      const sink = toJetStream({ servers: url, harness: 'codex', run: 'nowhere', giveUpAfterMs: 1000 });
      const failed = await pipeline(
        Readable.from([{ type: 'agent', timestamp: '2026-11-30T12:00:00.000Z', message: 'x' }]),
        sink,
      ).catch((error: unknown) => error);
      // A type to catch, with the servers it tried and the client's last error.
      expect(failed).toBeInstanceOf(JetStreamConnectError);
      expect(failed).toMatchObject({ name: 'JetStreamConnectError', servers: [url], cause: expect.any(Error) });
      expect((failed as Error).message).toMatch(new RegExp(`^could not connect to ${url} within 1 s: `));
    },
  );

  test(
    'a spawned agent waits for a server that is not there yet, and is stopped when the sink gives up',
    { timeout: 60_000 },
    async () => {
      const url = `nats://127.0.0.1:${await unusedPort()}`;
      const total = 64 * 1024 * 1024;
      const publishing = startPublishing(flood(total).spawn, { servers: url, run: 'early', giveUpAfterMs: 1000 });
      await expect(publishing.done).rejects.toThrow(`could not connect to ${url} within 1 s`);
      await expect(publishing.run.done).rejects.toMatchObject({ isCanceled: true });
      // Only what the stream buffers hold before the sink (16 events each) ever left the child.
      expect(publishing.events.length).toBeLessThan(64);
      expect(publishing.run.metrics.input.bytes).toBeLessThan(total);
    },
  );
});

test('an event the server can never take (over its max_payload) fails the sink at once, naming it', async () => {
  server = await startNatsServer();
  const big: HarnessEvent = {
    type: 'unknown',
    timestamp: '2026-11-30T12:00:00.000Z',
    raw: { text: 'x'.repeat(2 * 1024 * 1024) },
  };
  const small: HarnessEvent = { type: 'agent', timestamp: '2026-11-30T12:00:00.000Z', message: 'fits' };
  const sink = toJetStream({ servers: server.url, harness: 'claude-code', run: 'big' });
  const error = await pipeline(Readable.from([small, big, small]), sink).then(
    () => undefined,
    (failure: unknown) => failure as JetStreamPublishError,
  );
  expect(error?.message).toBe(
    'could not publish event #2 (unknown) of run big to JetStream stream HARNESS_EVENTS: the server refused it: ' +
      "'payload' max_payload size exceeded",
  );
  expect(error?.event).toBe(big);
});
