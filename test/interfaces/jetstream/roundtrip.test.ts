/**
 * toJetStream and fromJetStream against a real nats-server: every real capture of every
 * harness, replayed live by a child through spawnHarness, published, and read back identical
 * and in order; filters, delivery from a time or only new messages, streams that exist
 * already, de-duplication, messages that are not events.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Readable, Writable, isReadable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { harnesses } from '../../../lib/index.js';
import type { HarnessEvent, RunMetrics } from '../../../lib/kernel/events.js';
import { toJetStream } from '../../../lib/interfaces/jetstream/sink.js';
import { fromJetStream, type JetStreamRecord } from '../../../lib/interfaces/jetstream/source.js';
import { allCaptures, fixturePath } from '../../helpers.js';
import { startNatsServer, type NatsServer } from '../../nats-server.js';
import { asStored, publishRun, readAll, replaying, type Publishing } from './publish.js';

let server: NatsServer;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.close();
});

const agent = (message: string): HarnessEvent => ({
  type: 'agent',
  timestamp: '2026-11-30T12:00:00.000Z',
  session_id: 's',
  message,
});

describe('every real capture through spawnHarness into JetStream and back', () => {
  const captures = allCaptures();

  test('every harness has captures, but gg (its correlator is one rule)', () => {
    expect(new Set(captures.map((capture) => capture.harness))).toEqual(
      new Set([...harnesses.keys()].filter((harness) => harness !== 'gg')),
    );
  });

  test(
    `${captures.length} captures: the events read back are the events published, in order, then the run's metrics`,
    { timeout: 300_000 },
    async () => {
      const published = new Map<string, Publishing & { harness: string; metrics: RunMetrics }>();
      // Four runs at a time: each is a child process and a connection of its own.
      const queue = [...captures];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            const run = randomUUID();
            published.set(run, {
              harness: next.harness,
              ...(await publishRun(replaying(next.harness, fixturePath(next.file)), { servers: server.url, run })),
            });
          }
        }),
      );
      expect(published.size).toBe(captures.length);
      const eventsOf = new Map<string, number>();
      for (const [run, { harness, events: sent, metrics }] of published) {
        const records = await readAll({ servers: server.url, filter: { run }, output: 'records' });
        const expected: JetStreamRecord[] = sent.map((event, index) => ({
          subject: `harness.${harness}.${run}.${event.type}`,
          harness,
          run,
          position: index + 1,
          sequence: records[index]!.sequence,
          event,
        }));
        expected.push({
          subject: `harness.${harness}.${run}.metrics`,
          harness,
          run,
          position: sent.length + 1,
          sequence: records.at(-1)!.sequence,
          metrics: asStored(metrics),
        });
        expect(records).toEqual(expected);
        // Stream order is the run's order.
        expect(records.map((record) => record.sequence)).toEqual(
          [...records.map((record) => record.sequence)].sort((a, b) => a - b),
        );
        eventsOf.set(harness, (eventsOf.get(harness) ?? 0) + sent.length);
      }
      // Not vacuous: every harness's captures gave events.
      for (const { harness } of captures) expect(eventsOf.get(harness)).toBeGreaterThan(10);
    },
  );
});

describe('fromJetStream', () => {
  async function publish(run: string, events: HarnessEvent[], harness = 'claude-code'): Promise<void> {
    await pipeline(Readable.from(events), toJetStream({ servers: server.url, harness, run }));
  }

  test(
    'events by default: the stored HarnessEvents only; ' + 'a filter by type reads across runs, in stream order',
    async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const command: HarnessEvent = {
        type: 'command',
        timestamp: '2026-11-30T12:00:01.000Z',
        command: 'npm test',
        exit_code: 0,
        is_success: true,
      };
      await publish(a, [agent('a1'), command, agent('a2')]);
      await publish(b, [{ ...command, command: 'make' }, agent('b1')], 'codex');
      expect(await readAll({ servers: server.url, filter: { run: a } })).toEqual([agent('a1'), command, agent('a2')]);
      const commands = await readAll({ servers: server.url, filter: { type: 'command' } });
      expect(commands.slice(-2)).toEqual([command, { ...command, command: 'make' }]);
      expect(await readAll({ servers: server.url, filter: { harness: 'codex', run: b } })).toEqual([
        { ...command, command: 'make' },
        agent('b1'),
      ]);
    },
  );

  test("deliver: { since } starts at a time; 'new' follows what comes after it is started", async () => {
    const [before, after, live] = [randomUUID(), randomUUID(), randomUUID()];
    await publish(before, [agent('before')]);
    // The server stores times in nanoseconds, a Date has milliseconds: start at the next one.
    const stored = Date.now();
    while (Date.now() === stored);
    const since = new Date();
    await publish(after, [agent('after')]);
    expect(await readAll({ servers: server.url, deliver: { since } })).toEqual([agent('after')]);

    const following = fromJetStream({ servers: server.url, deliver: 'new', output: 'records' });
    expect(following).toBeInstanceOf(Readable);
    expect(isReadable(following)).toBe(true);
    const ready = new Promise((resolve) => following.once('ready', resolve));
    const received: JetStreamRecord[] = [];
    const done = (async () => {
      for await (const record of following) {
        received.push(record);
        if ('metrics' in record) break;
      }
    })();
    // 'new' means after the consumer exists: publish only then.
    await ready;
    await pipeline(
      Readable.from([agent('live 1'), agent('live 2')]),
      toJetStream({
        servers: server.url,
        harness: 'goose',
        run: live,
        metrics: () => ({
          harness: 'goose',
          tokens: {},
          input: { bytes: 0, lines: 0, rules: {} },
          events: { agent: 2 },
        }),
      }),
    );
    await done;
    expect(received.map((record) => ('event' in record ? record.event : record.metrics))).toEqual([
      agent('live 1'),
      agent('live 2'),
      { harness: 'goose', tokens: {}, input: { bytes: 0, lines: 0, rules: {} }, events: { agent: 2 } },
    ]);
    expect(following.destroyed).toBe(true);
  });

  test(
    'a run published twice is refused the second time (issue 30): ' + 'stored once, nothing dropped silently',
    async () => {
      const run = randomUUID();
      const events = [agent('one'), agent('two'), agent('three')];
      await publish(run, events);
      const again = toJetStream({ servers: server.url, harness: 'claude-code', run });
      expect(again).toBeInstanceOf(Writable);
      await expect(pipeline(Readable.from(events), again)).rejects.toThrow(
        `run ${run} is already in JetStream stream HARNESS_EVENTS (3 messages on harness.*.${run}.>)`,
      );
      expect(again.acknowledged).toBe(0);
      expect(await readAll({ servers: server.url, filter: { run } })).toEqual(events);
    },
  );

  test('a message in the stream that is not a stored event is a warning, not lost and not a crash', async () => {
    const connection = await connect({ servers: server.url });
    try {
      const js = jetstream(connection);
      await js.publish('harness.claude-code.odd.agent', 'not json');
      await js.publish('harness.claude-code.odd.agent', JSON.stringify(agent('fine')));
    } finally {
      await connection.close();
    }
    const events = await readAll({ servers: server.url, filter: { run: 'odd' } });
    expect(events.map(({ timestamp: _t, ...rest }) => rest)).toEqual([
      {
        type: 'warning',
        code: 'jetstream_message',
        message: expect.stringMatching(
          /^stream HARNESS_EVENTS message \d+ on harness\.claude-code\.odd\.agent: not JSON$/,
        ),
      },
      { type: 'agent', session_id: 's', message: 'fine' },
    ]);
  });

  test('a stream that does not exist is an error naming it', async () => {
    await expect(readAll({ servers: server.url, stream: 'NOPE' })).rejects.toThrow(
      `no JetStream stream NOPE on ${server.url}`,
    );
  });
});

describe('the stream', () => {
  test('created when missing, with the documented defaults', async () => {
    const stream = `FRESH_${Date.now()}`;
    await pipeline(
      Readable.from([agent('x')]),
      toJetStream({ servers: server.url, stream, subject: 'fresh', harness: 'codex', run: 'r' }),
    );
    const connection = await connect({ servers: server.url });
    try {
      const { config } = await (await jetstreamManager(connection)).streams.info(stream);
      expect(config).toMatchObject({
        name: stream,
        subjects: ['fresh.>'],
        storage: 'file',
        retention: 'limits',
        discard: 'old',
        max_age: 30 * 24 * 3600 * 1e9,
        duplicate_window: 120 * 1e9,
      });
    } finally {
      await connection.close();
    }
  });

  test('used as configured when it exists (here: in memory, other subjects)', async () => {
    const connection = await connect({ servers: server.url });
    try {
      const manager = await jetstreamManager(connection);
      await manager.streams.add({
        name: 'CUSTOM',
        subjects: ['ci.agents.>'],
        storage: 'memory',
        duplicate_window: 30e9,
      });
      await pipeline(
        Readable.from([agent('custom')]),
        toJetStream({ servers: server.url, stream: 'CUSTOM', subject: 'ci.agents', harness: 'goose', run: 'r' }),
      );
      expect(await readAll({ servers: server.url, stream: 'CUSTOM', subject: 'ci.agents' })).toEqual([agent('custom')]);
      expect((await manager.streams.info('CUSTOM')).config).toMatchObject({
        subjects: ['ci.agents.>'],
        storage: 'memory',
        duplicate_window: 30e9,
      });

      // A stream that does not take the run's subjects: said before anything is lost.
      await manager.streams.add({ name: 'ELSEWHERE', subjects: ['elsewhere.>'] });
      const sink = toJetStream({ servers: server.url, stream: 'ELSEWHERE', harness: 'goose', run: 'r' });
      await expect(pipeline(Readable.from([agent('lost?')]), sink)).rejects.toThrow(
        'stream ELSEWHERE does not take subject harness.goose.r.agent (stream HARNESS_EVENTS does): add ' +
          '"harness.>" to its subjects or choose another stream',
      );
    } finally {
      await connection.close();
    }
  });
});

test('importing the library does not load the NATS client', () => {
  const script = `await import(${JSON.stringify(new URL('../../../dist/lib/index.js', import.meta.url).pathname)});
const { createRequire } = await import('node:module');
const cache = createRequire(import.meta.url).cache;
console.log(Object.keys(cache).filter((path) => path.includes('@nats-io')).length);`;
  expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()).toBe('0');
});
