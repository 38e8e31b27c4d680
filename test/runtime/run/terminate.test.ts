/**
 * Stopping a spawnHarness run and everything its child started: an abort, SIGKILL after the grace period for what
 * ignores SIGTERM, a stream destroyed, a stage that throws, one abort signal shared by many runs, and a host that
 * dies without handling it.
 */
import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { SchemaViolationError } from '../../../lib/transforms/validate.js';
import { HarnessRunError } from '../../../lib/runtime/run/errors.js';
import { bodies, brokenHarness } from '../../helpers.js';
import { gone, groupGone, groupOf } from '../../processes.js';
import { children, collect, goAhead, node, script, stubborn, text } from './scripted-child.js';

describe('spawnHarness', () => {
  test('aborting ends the child and its children: SIGTERM; the stream ends, done rejects isCanceled', async () => {
    const controller = new AbortController();
    const run = spawnHarness({
      harness: 'claude-code',
      signal: controller.signal,
      ...script([{ spawn: ['sleep', '1000'] }, { out: text('m1', 'started') }, { hang: true }]),
    });
    const seen: HarnessEvent[] = [];
    let grandchild = 0;
    for await (const event of run) {
      seen.push(event);
      if (event.type === 'unknown') grandchild = (event.raw as { pid: number }).pid;
      if (event.type === 'agent') controller.abort();
    }
    await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, signal: 'SIGTERM' });
    expect(await gone(run.child!.pid!)).toBe(true);
    expect(grandchild).toBeGreaterThan(0);
    expect(await gone(grandchild)).toBe(true);
  });

  test('a child that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const controller = new AbortController();
    // It prints only once its handler is in place.
    const run = spawnHarness({
      harness: 'gg',
      signal: controller.signal,
      killGraceMs: 200,
      ...script([{ ignore: 'SIGTERM' }, { out: '{"ready":true}\n' }, { hang: true }]),
    });
    for await (const _event of run) controller.abort();
    await expect(run.done).rejects.toMatchObject({ isCanceled: true, signal: 'SIGKILL' });
    expect(await gone(run.child!.pid!)).toBe(true);
  });

  test(
    'something the child started that ignores SIGTERM gets SIGKILL after the grace period, before the run is ' + 'done',
    async () => {
      const run = spawnHarness({
        harness: 'gg',
        killGraceMs: 200,
        ...script([{ spawn: stubborn, inherit: true }, { hang: true }]),
      });
      const seen: unknown[] = [];
      for await (const event of run) {
        seen.push((event as { event: unknown }).event);
        if (seen.length === 1) run.stop();
      }
      const pid = (seen[0] as { pid: number }).pid;
      // It outlived the SIGTERM (and kept the run's stdout open) until the SIGKILL.
      expect(seen).toEqual([
        { stubborn: 'ready', pid },
        { stubborn: 'SIGTERM', pid },
      ]);
      await expect(run.done).rejects.toMatchObject({ isCanceled: true, signal: 'SIGTERM' });
      expect(await groupGone(run.child!.pid!)).toEqual([]);
    },
  );

  test(
    'what a child that exits on its own leaves running is ended too (SIGTERM, then SIGKILL): the run is done ' +
      'when nothing is left',
    async () => {
      const run = spawnHarness({
        harness: 'gg',
        killGraceMs: 200,
        stdin: 'pipe',
        ...script([{ spawn: stubborn, inherit: true }, { wait: true }, { exit: 0 }]),
      });
      const seen: unknown[] = [];
      for await (const event of run) {
        seen.push((event as { event: unknown }).event);
        if (seen.length === 1) goAhead(run);
      }
      const pid = (seen[0] as { pid: number }).pid;
      expect(seen).toEqual([
        { stubborn: 'ready', pid },
        { stubborn: 'SIGTERM', pid },
      ]);
      expect(await run.done).toMatchObject({ failed: false, exitCode: 0, isCanceled: false });
      expect(await groupGone(run.child!.pid!)).toEqual([]);
    },
  );

  test('destroying the stream (breaking out of the loop) ends the child', async () => {
    const run = spawnHarness({
      harness: 'claude-code',
      ...script([{ out: text('m1', 'one') + text('m2', 'two') }, { hang: true }]),
    });
    for await (const event of run) {
      expect(event.type).toBe('agent');
      break;
    }
    await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true });
    expect(await gone(run.child!.pid!)).toBe(true);
  });

  describe('a stage that throws ends the run, which still settles', () => {
    test(
      'a throwing onLine: a stage_failed error event ends the stream, the child is stopped, done rejects with the ' +
        'error as its cause',
      async () => {
        const failure = new Error('audit log full');
        const run = spawnHarness({
          harness: 'gg',
          onLine: (n) => {
            if (n === 2) throw failure;
          },
          ...script([{ out: '{"n":1}\n{"n":2}\n{"n":3}\n' }, { hang: true }]),
        });
        // onLine hears of a line after its events: line 2's is out when it throws.
        expect(bodies(await collect(run))).toEqual([
          { type: 'gg', event: { n: 1 } },
          { type: 'gg', event: { n: 2 } },
          { type: 'error', code: 'stage_failed', message: 'audit log full' },
        ]);
        await expect(run.done).rejects.toMatchObject({
          reason: 'stage_failed',
          message: 'audit log full',
          cause: failure,
          isCanceled: false,
          signal: 'SIGTERM',
        });
        expect(await gone(run.child!.pid!)).toBe(true);
      },
    );

    test("a strict schema violation (a harness of the caller's own that emits a broken event)", async () => {
      // The child goes on writing after the bad line: its stdout is drained unread, so it is never stuck on a full
      // pipe.
      const run = spawnHarness({
        harness: brokenHarness,
        strict: true,
        ...script([{ out: '{}\n' }, { out: 'x'.repeat(100_000) + '\n' }, { hang: true }]),
      });
      const events = await collect(run);
      expect(events.at(-1)).toMatchObject({ type: 'error', code: 'stage_failed' });
      const error = await run.done.catch((error: HarnessRunError) => error);
      expect(error).toBeInstanceOf(HarnessRunError);
      expect((error as HarnessRunError).cause).toBeInstanceOf(SchemaViolationError);
      expect(error).toMatchObject({ reason: 'stage_failed', isCanceled: false, signal: 'SIGTERM' });
    });
  });

  describe('abort listeners', () => {
    test('200 runs that fail to start, on one signal: no listener left behind', async () => {
      const controller = new AbortController();
      for (let i = 0; i < 200; i++) {
        const run = spawnHarness({
          harness: 'gg',
          command: 'harness-events-no-such-command',
          signal: controller.signal,
        });
        await collect(run);
        await run.done.catch(() => {});
      }
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    });

    test(
      '20 runs at once on one signal: one listener, no MaxListenersExceededWarning, none left after; the abort ' +
        'reaches every run',
      async () => {
        const warnings: Error[] = [];
        const onWarning = (warning: Error) => warnings.push(warning);
        process.on('warning', onWarning);
        try {
          const controller = new AbortController();
          const runs = Array.from({ length: 20 }, () =>
            spawnHarness({
              harness: 'gg',
              signal: controller.signal,
              ...script([{ out: '{"ready":true}\n' }, { hang: true }]),
            }),
          );
          const iterators = runs.map((run) => run[Symbol.asyncIterator]());
          // Every child is running.
          await Promise.all(iterators.map((iterator) => iterator.next()));
          expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
          controller.abort();
          // Each stream goes on to its end.
          await Promise.all(iterators.map(async (iterator) => (await iterator.next()).done || iterator.next()));
          for (const run of runs) await expect(run.done).rejects.toMatchObject({ isCanceled: true });
          expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
          // Warnings are emitted on a later tick.
          await new Promise(setImmediate);
          expect(warnings.map((w) => w.name)).toEqual([]);
        } finally {
          process.removeListener('warning', onWarning);
        }
      },
    );
  });

  describe('nothing outlives a host that ends without handling it', () => {
    // host.mjs runs a child that ignores SIGTERM, whose own child ignores it too.
    async function host(
      mode: string,
      signal?: NodeJS.Signals,
    ): Promise<{ code: number | null; signal: NodeJS.Signals | null; left: number[] }> {
      const child = spawn(node, [join(children, 'host.mjs'), mode], { stdio: ['ignore', 'pipe', 'ignore'] });
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.on('close', (code, sig) => resolve([code, sig])),
      );
      const [first] = (await child.stdout.iterator().next()).value.toString().split('\n');
      const pgid = groupOf(JSON.parse(first).child);
      if (signal) child.kill(signal);
      const [code, sig] = await closed;
      return { code, signal: sig, left: await groupGone(pgid) };
    }

    test.each(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)(
      'the host dies of %s: the whole group gets SIGKILL, the host still dies of the signal',
      async (signal) => {
        expect(await host('wait', signal)).toEqual({ code: null, signal, left: [] });
      },
    );

    test('the host calls process.exit()', async () => {
      expect(await host('exit')).toEqual({ code: 3, signal: null, left: [] });
    });

    test('the host throws', async () => {
      expect(await host('throw')).toEqual({ code: 1, signal: null, left: [] });
    });
  });
});
