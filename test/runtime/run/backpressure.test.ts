/**
 * A spawnHarness run whose reader is slow or stalled: the child held back through the pipe (backpressure), the
 * parent's memory and the events it buffers bounded in bytes.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { floodProgress } from '../../helpers.js';
import { children, node } from './scripted-child.js';

describe('spawnHarness', () => {
  test(
    'backpressure: a slow consumer pauses a child writing 300 MB; parent memory stays bounded',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'harness-events-flood-'));
      try {
        const progress = join(dir, 'progress');
        const total = 300 * 1024 * 1024;
        const run = spawnHarness({
          harness: 'claude-code',
          command: node,
          args: [join(children, 'flood.mjs'), String(total), progress],
        });
        const baseline = process.memoryUsage().rss;
        let peak = 0;
        const iterator = run[Symbol.asyncIterator]();
        // Read one event, then none until the child is held back: the parent has stopped reading its
        // pipe and the child waits for the pipe to drain. Without backpressure that never happens.
        await iterator.next();
        while (!(run.child!.stdout!.isPaused() && floodProgress(progress).state === 'waiting')) await sleep(20);
        expect(floodProgress(progress).bytes).toBeLessThan(32 * 1024 * 1024);
        // Now read everything, slowly, and watch the parent's memory.
        let events = 1;
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          if (step.value.type === 'agent') events++;
          if (events % 500 === 0) {
            peak = Math.max(peak, process.memoryUsage().rss - baseline);
            await new Promise(setImmediate);
          }
        }
        expect(floodProgress(progress)).toEqual({ bytes: expect.any(Number), state: 'done' });
        expect(floodProgress(progress).bytes).toBeGreaterThanOrEqual(total);
        expect(events).toBe(run.metrics.events.agent);
        expect(run.metrics.input.bytes).toBe(floodProgress(progress).bytes);
        expect(peak).toBeLessThan(200 * 1024 * 1024);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('issue 30 item 10: what a stalled consumer makes the run buffer is bounded in bytes', () => {
  test(
    '1 MiB events, nobody reading: at most maxBufferedBytes plus one event, then all of them',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'harness-events-big-'));
      try {
        const progress = join(dir, 'progress');
        const total = 48 * 1024 * 1024;
        const event = 1024 * 1024;
        const run = spawnHarness({
          harness: 'claude-code',
          command: node,
          args: [join(children, 'flood.mjs'), String(total), progress, String(event)],
          maxBufferedBytes: 8 * event,
        });
        // The handshake: the run says when it makes the child wait for its reader (only the byte bound can: 48
        // events are well under the count's 256).
        const held = once(run, 'held');
        const iterator = run[Symbol.asyncIterator]();
        await iterator.next();
        const [{ events: heldEvents, bytes }] = (await held) as [{ events: number; bytes: number }];
        expect(heldEvents).toBeLessThanOrEqual(9);
        expect(bytes).toBeGreaterThan(8 * event);
        // Nothing more is buffered while nobody reads, and the child cannot have finished: what it wrote fits in the
        // pipes and the normalizer's own buffers, far less than 48 MiB.
        expect(run.readableLength).toBe(heldEvents);
        expect(floodProgress(progress).state).not.toBe('done');
        let events = 1;
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
          if (step.value.type === 'agent') events++;
        }
        expect(events).toBe(48);
        expect(floodProgress(progress).state).toBe('done');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
