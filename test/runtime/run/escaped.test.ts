/**
 * A grandchild that escapes the run's process group (`setsid`) and keeps its stdout and stderr: once the child has
 * exited, the group is gone but the pipes are not. At the run's deadline (timeoutMs, an abort, a forced stop) the run
 * ends what holds them and settles; without a deadline it waits, since what holds them may still speak for the run.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnHarness, type HarnessRun } from '../../../lib/runtime/run/spawn.js';
import type { SpawnHarnessOptions } from '../../../lib/runtime/run/spawn-options.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies } from '../../helpers.js';
import { alive, gone, groupOf } from '../../processes.js';

const children = new URL('../../children/', import.meta.url).pathname;
// Prints its pid through the stdout it shares with the child, then holds it (and stderr) open forever.
const holder = 'console.log(JSON.stringify({ holder: process.pid })); setInterval(() => {}, 1 << 30)';
const steps = [{ spawn: ['setsid', process.execPath, '-e', holder], inherit: true }, { wait: true }, { exit: 0 }];

// Whatever a failing test leaves behind is ended here: nothing outlives the test.
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

/** Starts the run, waits for the holder's pid, lets the child exit and waits for its exit. */
async function escaped(options: Partial<SpawnHarnessOptions>) {
  const run = spawnHarness({
    harness: 'gg',
    stdin: 'pipe',
    reject: false,
    killGraceMs: 2000,
    command: process.execPath,
    args: [join(children, 'script.mjs'), JSON.stringify(steps)],
    ...options,
  } as SpawnHarnessOptions);
  const events: HarnessEvent[] = [];
  const exited = once(run.child!, 'exit');
  const pid = await new Promise<number>((resolve) =>
    run.on('data', (event: HarnessEvent) => {
      events.push(event);
      if (event.type === 'gg') resolve((event.event as { holder: number }).holder);
    }),
  );
  started.push(pid);
  // The handshake: the holder runs outside the child's group.
  expect(groupOf(pid)).not.toBe(groupOf(run.child!.pid!));
  run.child!.stdin!.end('go\n');
  await exited;
  expect(alive(pid)).toBe(true);
  return { run, pid, events };
}

async function ended(run: HarnessRun, events: HarnessEvent[]) {
  const result = await run.done;
  if (!run.readableEnded) await once(run, 'end');
  return { result, events: bodies(events) };
}

describe('a grandchild that escaped the group and holds the pipes', () => {
  test('timeoutMs: the holder is ended, the run settles timed out', async () => {
    const { run, pid, events } = await escaped({ timeoutMs: 3000 });
    const { result, events: seen } = await ended(run, events);
    expect(result).toMatchObject({ failed: true, reason: 'timeout', timedOut: true, isCanceled: false, exitCode: 0 });
    const message = `${process.execPath} ran for longer than timeoutMs (3000 ms) and was stopped`;
    expect(seen).toEqual([
      { type: 'gg', event: { holder: pid } },
      { type: 'error', code: 'timeout', message },
    ]);
    expect(await gone(pid)).toBe(true);
  }, 30_000);

  test('an abort: the holder is ended, the run settles aborted', async () => {
    const controller = new AbortController();
    const { run, pid, events } = await escaped({ signal: controller.signal });
    controller.abort();
    const { result, events: seen } = await ended(run, events);
    expect(result).toMatchObject({ failed: true, reason: 'aborted', isCanceled: true, exitCode: 0 });
    expect(seen).toEqual([{ type: 'gg', event: { holder: pid } }]);
    expect(await gone(pid)).toBe(true);
  }, 30_000);

  test('stop({ force: true }): the holder is killed and the pipes closed at once', async () => {
    const { run, pid, events } = await escaped({ killGraceMs: 600_000 });
    run.stop({ force: true });
    const { result } = await ended(run, events);
    expect(result).toMatchObject({ failed: true, reason: 'aborted', isCanceled: true, exitCode: 0 });
    expect(await gone(pid)).toBe(true);
  }, 30_000);

  test('a holder that ignores SIGTERM: SIGKILL after killGraceMs, and the run settles', async () => {
    const { run, pid, events } = await escaped({ killGraceMs: 300 });
    process.kill(pid, 'SIGSTOP');
    run.stop();
    const { result } = await ended(run, events);
    expect(result).toMatchObject({ failed: true, reason: 'aborted', isCanceled: true });
    expect(await gone(pid)).toBe(true);
  }, 30_000);
});
