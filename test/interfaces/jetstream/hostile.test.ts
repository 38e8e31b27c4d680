/**
 * Issue 30 against a real nats-server: a reused run id (never a silent loss), `--harness auto`'s subjects, a replay
 * whose stored messages vanish under it, and stored messages that are not events.
 */
import { once } from 'node:events';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { harnessEvents as cli } from '../../cli.js';
import { fixturePath } from '../../helpers.js';
import { startNatsServer, type NatsServer } from '../../nats-server.js';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { toJetStream } from '../../../lib/interfaces/jetstream/sink.js';
import { fromJetStream } from '../../../lib/interfaces/jetstream/source.js';
import { readAll } from './publish.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';

const types = (jsonl: string) =>
  jsonl
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as HarnessEvent).type);

let server: NatsServer;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.close();
});

describe('issue 30 item 1: a run id names one publication', { timeout: 60_000 }, () => {
  test(
    'a second publication under a used --run is refused (exit 1, ' + 'one line); the first reads back whole',
    async () => {
      const first = fixturePath('claude-code/lab/parallel.jsonl');
      const second = fixturePath('codex/lab/shell.jsonl');
      const plain = await cli(['normalize', '--harness', 'claude-code', first]);
      const published = ['--publish', server.url, '--run', 'dup1', '--quiet'];
      expect((await cli(['normalize', '--harness', 'claude-code', ...published, first])).code).toBe(0);
      const again = await cli(['normalize', '--harness', 'codex', ...published, second]);
      expect(again.code).toBe(1);
      expect(again.stderr.split('\n').slice(1)).toEqual([
        'harness-events: run dup1 is already in JetStream stream HARNESS_EVENTS (9 messages on harness.*.dup1.>): ' +
          'a run id names one publication; give another --run (or none, for a new UUID)',
        '',
      ]);
      const replayed = await cli(['replay', '--from', server.url, '--run', 'dup1']);
      expect(replayed.code).toBe(0);
      // 8 events and the metrics message: nothing of the first run lost, nothing of the second mixed in.
      expect(types(replayed.stdout)).toEqual(types(plain.stdout));
      expect(types(plain.stdout)).toHaveLength(8);
      // Issue 30 item 14: metrics that cannot be written are one line and exit 1, after the events.
      const full = await cli(['replay', '--from', server.url, '--run', 'dup1', '--metrics', '/dev/full']);
      expect([full.code, full.stderr]).toEqual([1, 'harness-events: cannot write the metrics to /dev/full: ENOSPC\n']);
      expect(types(full.stdout)).toEqual(types(plain.stdout));
    },
  );

  test(
    'two sinks racing with one run id: the second fails on the first ' + 'duplicate, none is dropped silently',
    async () => {
      const event = (n: number): HarnessEvent => ({
        type: 'agent',
        timestamp: '2026-12-01T00:00:00.000Z',
        message: `e${n}`,
      });
      const a = toJetStream({ servers: server.url, harness: 'codex', run: 'race1' });
      const b = toJetStream({ servers: server.url, harness: 'codex', run: 'race1' });
      // Both have checked the stream (empty for race1) before either publishes.
      await Promise.all([once(a, 'ready'), once(b, 'ready')]);
      a.end(event(1));
      await once(a, 'finish');
      expect([a.acknowledged, a.duplicates]).toEqual([1, 0]);
      const failed = once(b, 'error');
      b.end(event(2));
      const [error] = (await failed) as [Error];
      expect(error.message).toBe(
        'could not publish event #1 (agent) of run race1 to JetStream stream HARNESS_EVENTS: the server already ' +
          'held its message id: another publication uses the same run id',
      );
      expect([b.acknowledged, b.duplicates]).toEqual([0, 0]);
    },
  );
});

describe('issue 30 item 2: --harness auto publishes under the detected harness', { timeout: 60_000 }, () => {
  test(
    'normalize --harness auto --publish: subjects ' + 'harness.claude-code.<run>.*, replay --harness finds them',
    async () => {
      const capture = fixturePath('claude-code/lab/read.jsonl');
      const plain = await cli(['normalize', '--harness', 'claude-code', capture]);
      const published = await cli([
        'normalize',
        '--harness',
        'auto',
        '--publish',
        server.url,
        '--run',
        'auto1',
        capture,
      ]);
      expect(published).toMatchObject({
        code: 0,
        stderr:
          `harness-events: publishing run auto1 to ${server.url}, stream HARNESS_EVENTS, subjects ` +
          `harness.<harness>.auto1.<type>\n`,
      });
      const connection = await connect({ servers: server.url });
      const manager = await jetstreamManager(connection);
      const info = await manager.streams.info('HARNESS_EVENTS', { subjects_filter: 'harness.*.auto1.>' });
      await connection.close();
      expect(Object.keys(info.state.subjects ?? {}).sort()).toEqual([
        'harness.claude-code.auto1.agent',
        'harness.claude-code.auto1.metrics',
        'harness.claude-code.auto1.read',
      ]);
      const replayed = await cli(['replay', '--from', server.url, '--run', 'auto1', '--harness', 'claude-code']);
      expect(types(replayed.stdout)).toEqual(types(plain.stdout));
    },
  );
});

const agent = (message: string): HarnessEvent => ({ type: 'agent', timestamp: '2026-12-01T00:00:00.000Z', message });

describe('issue 30 item 4: a replay ends when its stored messages vanish under it', { timeout: 30_000 }, () => {
  test('purged after the first batch: the source ends after what it holds (main: a re-fetch every 30 s)', async () => {
    const events = Array.from({ length: 10 }, (_, n) => agent(`e${n}`));
    await pipeline(Readable.from(events), toJetStream({ servers: server.url, harness: 'codex', run: 'vanish1' }));
    const source = fromJetStream({ servers: server.url, filter: { run: 'vanish1' }, batch: 2 });
    // Paused: the first batch fetched and held, the next not asked for until it is read.
    await once(source, 'readable');
    const connection = await connect({ servers: server.url });
    const manager = await jetstreamManager(connection);
    expect(await manager.streams.purge('HARNESS_EVENTS', { filter: 'harness.codex.vanish1.>' })).toMatchObject({
      purged: 10,
    });
    await connection.close();
    const received: HarnessEvent[] = [];
    for await (const event of source) received.push(event);
    expect(received.length).toBeGreaterThanOrEqual(1);
    expect(received.length).toBeLessThanOrEqual(2);
    expect(received).toEqual(events.slice(0, received.length));
  });
});

describe('issue 30 item 8: stored messages that are not events are warnings', { timeout: 60_000 }, () => {
  const at = '"timestamp":"2026-12-01T00:00:00.000Z"';
  const bodies = ['null', '42', `{"type":"agent",${at}}`, '{"type":"bogus"}', `{"type":"read",${at},"path":{"a":1}}`];
  beforeAll(async () => {
    const connection = await connect({ servers: server.url });
    const js = jetstream(connection);
    for (const body of bodies) await js.publish('harness.codex.bad1.agent', body);
    await js.publish('harness.codex.bad1.agent', JSON.stringify(agent('fine')));
    await js.publish('harness.codex.bad1.metrics', '{"harness":1}');
    await connection.close();
  });
  const why = [
    'event has no known type (undefined)',
    'event has no known type (undefined)',
    "agent event breaks its schema: agent must have required property 'message'",
    'event has no known type ("bogus")',
    'read event breaks its schema: read/path must be string',
  ];

  test('fromJetStream: one warning each, with subject and sequence, then the event', async () => {
    const events = await readAll({ servers: server.url, filter: { run: 'bad1' } });
    expect(events.map((event) => (event.type === 'warning' ? [event.code, event.message] : event))).toEqual([
      ...why.map((reason) => [
        'jetstream_message',
        expect.stringMatching(
          new RegExp(`^stream HARNESS_EVENTS message \\d+ on harness\\.codex\\.bad1\\.agent: ${escape(reason)}$`),
        ),
      ]),
      agent('fine'),
    ]);
  });

  test('replay prints warnings for them, goes on, and the metrics message that is not metrics is one too', async () => {
    const replayed = await cli(['replay', '--from', server.url, '--run', 'bad1']);
    expect(replayed).toMatchObject({ code: 0, stderr: '' });
    const lines = replayed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as HarnessEvent);
    expect(lines.map((event) => event.type)).toEqual([...why.map(() => 'warning'), 'agent', 'warning']);
    expect(lines.at(-1)).toMatchObject({
      code: 'jetstream_message',
      message: expect.stringMatching(/on harness\.codex\.bad1\.metrics: not run metrics: metrics/),
    });
  });

  test('view --from shows them all and ends 0 (main: stream.push() after EOF, or a TypeError)', async () => {
    const viewed = await cli(['view', '--from', server.url, '--run', 'bad1']);
    expect(viewed).toMatchObject({ code: 0, stderr: '' });
    expect(viewed.stdout).toContain('fine');
    // The five bad events; view shows no metrics message, valid or not.
    expect(viewed.stdout.split('jetstream_message').length - 1).toBe(5);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
