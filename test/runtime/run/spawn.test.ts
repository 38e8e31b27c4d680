/**
 * spawnHarness with real child processes (test/children/*.mjs): replayed captures, stderr, split writes, exit codes,
 * signals, children that cannot start. Stopping the child: terminate.test.ts; a flood read slowly:
 * backpressure.test.ts.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnHarness, type HarnessRun } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, fixturePath, runFixture } from '../../helpers.js';
import { collect, goAhead, node, result, script, text } from './scripted-child.js';

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
});
