/** 50 runs at once into one stream, against a real nats-server: each run's events in order under its own subjects. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { allCaptures, fixturePath } from '../../helpers.js';
import { startNatsServer, type NatsServer } from '../../nats-server.js';
import { asStored, publishRun, readAll, replaying } from './publish.js';

let server: NatsServer;
beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server?.close();
});

test(
  '50 concurrent runs, one stream: every run complete and in order, read from the whole stream and from its own ' +
    'subjects',
  { timeout: 300_000 },
  async () => {
    const captures = allCaptures();
    const runs = Array.from({ length: 50 }, (_, index) => ({
      id: `run-${index}`,
      ...captures[index % captures.length]!,
    }));
    const published = await Promise.all(
      runs.map((run) =>
        publishRun(replaying(run.harness, fixturePath(run.file)), { servers: server.url, run: run.id }),
      ),
    );

    const stored = await readAll({ servers: server.url, output: 'records' });
    const byRun = new Map<string, unknown[]>();
    for (const record of stored) {
      const items = byRun.get(record.run) ?? [];
      items.push('event' in record ? record.event : record.metrics);
      byRun.set(record.run, items);
      expect(record.subject).toBe(
        `harness.${record.harness}.${record.run}.${'event' in record ? record.event.type : 'metrics'}`,
      );
      expect(record.position).toBe(items.length);
    }
    expect([...byRun.keys()].sort()).toEqual(runs.map((run) => run.id).sort());
    for (const [index, run] of runs.entries()) {
      const expected = [...published[index]!.events, asStored(published[index]!.metrics)];
      expect(byRun.get(run.id)).toEqual(expected);
      expect(await readAll({ servers: server.url, filter: { harness: run.harness, run: run.id } })).toEqual(
        expected.slice(0, -1) as HarnessEvent[],
      );
    }
    expect(stored.length).toBe(published.reduce((sum, run) => sum + run.events.length + 1, 0));
  },
);
