/**
 * spawnHarness with real child processes (test/children/*.mjs): replayed captures, stderr,
 * exit codes, signals, hangs, split writes, a 300 MB flood read slowly, stages that throw,
 * hosts that die. No sleeps: the child and the test wait for each other (the child reads a
 * go-ahead on stdin, or prints what it has done).
 */
import { spawn } from 'node:child_process';
import { getEventListeners, once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { spawnHarness, type HarnessRun } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { SchemaViolationError } from '../../../lib/transforms/validate.js';
import { HarnessRunError } from '../../../lib/runtime/run/errors.js';
import { bodies, brokenHarness, fixturePath, floodProgress, runFixture } from '../../helpers.js';
import { gone, groupGone, groupOf } from '../../processes.js';

const children = new URL('../../children/', import.meta.url).pathname;
const node = process.execPath;
const stubborn = [node, join(children, 'stubborn.mjs')];

function script(steps: unknown[]) {
  return { command: node, args: [join(children, 'script.mjs'), JSON.stringify(steps)] };
}

async function collect(run: HarnessRun): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Lets a child waiting on a `{"wait": true}` step go on. */
const goAhead = (run: HarnessRun) => run.child!.stdin!.write('go\n');

const line = (record: unknown) => JSON.stringify(record) + '\n';
const text = (id: string, message: string) =>
  line({ type: 'assistant', message: { id, content: [{ type: 'text', text: message }] }, session_id: 's1' });
const result = line({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'done',
  session_id: 's1',
  usage: { input_tokens: 5, output_tokens: 7 },
});

describe('spawnHarness', () => {
  test(
    'a real capture replayed line by line by a child ' + 'gives the same events as normalizing the file, live',
    async () => {
      const expected = bodies((await runFixture('claude-code/lab/parallel.jsonl', { harness: 'claude-code' })).events);
      const lines = readFileSync(fixturePath('claude-code/lab/parallel.jsonl'), 'utf8').split(/(?<=\n)/);
      // The child holds its last line back until the first event has arrived: events come while it runs,
      // not at its end.
      const steps = [...lines.slice(0, -1).map((out) => ({ out })), { wait: true }, { out: lines.at(-1) }];
      const run = spawnHarness({ harness: 'claude-code', stdin: 'pipe', ...script(steps) });
      const events: HarnessEvent[] = [];
      for await (const event of run) if (events.push(event) === 1) goAhead(run);
      expect(bodies(events)).toEqual(expected);
      const outcome = await run.done;
      // Something read the events: the result does not hold them.
      expect(outcome).toMatchObject({ failed: false, exitCode: 0, isCanceled: false, timedOut: false, stderrTail: '' });
      expect(outcome.events).toBeUndefined();
      expect(outcome.metrics).toMatchObject({
        harness: 'claude-code',
        ended: true,
        exit_code: 0,
        tokens: { input: 360, output: 75 },
      });
    },
  );

  test('stderr lines are warnings, ANSI escapes stripped, one per line, in arrival order with stdout', async () => {
    // Each write waits until the parent has handled the one before (a stdout line, or the stderr lines' events).
    const run: HarnessRun = spawnHarness({
      harness: 'claude-code',
      stdin: 'pipe',
      onLine: (n) => (n === 1 || n === 3) && goAhead(run),
      ...script([
        { out: text('m1', 'first') },
        { wait: true },
        { err: '\u001b[33m[WARN]\u001b[0m Fast mode requires the native binary\nsecond line\n' },
        { wait: true },
        { out: text('m2', 'second') + result },
        { wait: true },
        { err: 'no newline at the end' },
      ]),
    });
    const events: HarnessEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'warning' && event.message === 'second line') goAhead(run);
    }
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'first' },
      { type: 'warning', code: 'stderr', message: '[WARN] Fast mode requires the native binary' },
      { type: 'warning', code: 'stderr', message: 'second line' },
      { type: 'agent', message: 'second' },
      { type: 'warning', code: 'stderr', message: 'no newline at the end' },
    ]);
  });

  test('stderr warnings carry the session id once the stream has one', async () => {
    const run: HarnessRun = spawnHarness({
      harness: 'claude-code',
      stdin: 'pipe',
      onLine: () => goAhead(run),
      ...script([{ out: text('m1', 'hi') }, { wait: true }, { err: 'later\n' }, { out: result }]),
    });
    expect((await collect(run)).map((e) => e.session_id)).toEqual(['s1', 's1']);
  });

  test("stdin: 'pipe' lets the caller write to the child", async () => {
    const echo = "process.stdin.on('data', (d) => process.stdout.write(d))";
    const run = spawnHarness({ harness: 'gg', command: node, args: ['-e', echo], stdin: 'pipe' });
    run.child!.stdin!.end('{"said":"hello"}\n');
    expect(bodies(await collect(run))).toEqual([{ type: 'gg', event: { said: 'hello' } }]);
  });

  test('a JSON line split across two writes is one event', async () => {
    const whole = text('m1', 'split across writes');
    const run = spawnHarness({
      harness: 'claude-code',
      stdin: 'pipe',
      ...script([{ out: whole.slice(0, 30) }, { wait: true }, { out: whole.slice(30) + result }]),
    });
    // The second half is written only once the first has reached the parent.
    run.child!.stdout!.once('data', () => goAhead(run));
    expect(bodies(await collect(run))).toEqual([{ type: 'agent', message: 'split across writes' }]);
  });

  test('a non-zero exit is an error event; a run without its terminal record is reported incomplete', async () => {
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: text('m1', 'working') }, { exit: 3 }]) });
    expect(bodies(await collect(run))).toEqual([
      { type: 'agent', message: 'working' },
      {
        type: 'warning',
        code: 'incomplete',
        message: 'claude-code ended without its terminal record (result): the run is incomplete',
      },
      { type: 'error', code: 'exit_code', message: `${node} exited with code 3` },
    ]);
    await expect(run.done).rejects.toMatchObject({
      name: 'HarnessRunError',
      reason: 'exit_code',
      message: `${node} exited with code 3`,
      exitCode: 3,
      isCanceled: false,
      metrics: { exit_code: 3, ended: false },
    });
  });

  test('death by a signal is an error event', async () => {
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: result }, { kill: 'SIGKILL' }]) });
    expect(bodies(await collect(run))).toEqual([
      { type: 'error', code: 'killed', message: `${node} was killed by SIGKILL` },
    ]);
    await expect(run.done).rejects.toMatchObject({
      reason: 'killed',
      message: `${node} was killed by SIGKILL`,
      signal: 'SIGKILL',
      isCanceled: false,
      metrics: { signal: 'SIGKILL', ended: true },
    });
  });

  test('a harness without a terminal record is never reported incomplete', async () => {
    const run = spawnHarness({ harness: 'gg', ...script([{ out: '{"kind":"tree"}\nnot json\n' }]) });
    expect(bodies(await collect(run))).toEqual([
      { type: 'gg', event: { kind: 'tree' } },
      { type: 'warning', message: 'not json', code: 'not_json' },
    ]);
  });

  test(
    'a command that cannot be started is an error ' + 'event and a rejected ending, never an uncaught exception',
    async () => {
      const run = spawnHarness({ harness: 'claude-code', command: 'harness-events-no-such-command' });
      expect(bodies(await collect(run))).toEqual([
        { type: 'error', code: 'spawn_failed', message: 'could not start harness-events-no-such-command: ENOENT' },
      ]);
      await expect(run.done).rejects.toMatchObject({
        name: 'HarnessRunError',
        reason: 'spawn_failed',
        message: 'could not start harness-events-no-such-command: ENOENT',
        cause: { code: 'ENOENT' },
      });
    },
  );

  test(
    'a working directory that does not exist, or is a file, is named: an error event and a rejection (Node throws ' +
      'at once for the file; the run reports it as any other start failure)',
    async () => {
      const missing = join(tmpdir(), 'harness-events-no-such-dir', 'deeper');
      const file = fixturePath('claude-code/lab/read.jsonl');
      for (const [cwd, code] of [
        [missing, 'ENOENT'],
        [file, 'ENOTDIR'],
      ] as const) {
        const run = spawnHarness({ harness: 'gg', cwd, ...script([{ out: '{}\n' }]) });
        const message = `could not start ${node}: cannot enter its working directory ${cwd} (${code})`;
        expect(bodies(await collect(run))).toEqual([{ type: 'error', code: 'spawn_failed', message }]);
        await expect(run.done).rejects.toMatchObject({ reason: 'spawn_failed', message });
      }
    },
  );

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
