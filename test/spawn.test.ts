/**
 * spawnHarness with real child processes (test/children/*.mjs): replayed captures, stderr,
 * exit codes, signals, hangs, split writes, a 300 MB flood read slowly.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { spawnHarness, type HarnessRun } from '../lib/spawn.js';
import type { HarnessEvent } from '../lib/events.js';
import { bodies, fixturePath, runFixture } from './helpers.js';

const children = new URL('./children/', import.meta.url).pathname;
const node = process.execPath;

function script(steps: unknown[]) {
  return { command: node, args: [join(children, 'script.mjs'), JSON.stringify(steps)] };
}

async function collect(run: HarnessRun): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Whether a process still runs (a zombie, dead but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits (up to 3 s) for a process to be gone; true when it is. */
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 3000; waited += 20) {
    if (!alive(pid)) return true;
    await sleep(20);
  }
  return false;
}

const line = (record: unknown) => JSON.stringify(record) + '\n';
const text = (id: string, message: string) => line({ type: 'assistant', message: { id, content: [{ type: 'text', text: message }] }, session_id: 's1' });
const result = line({ type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: 's1', usage: { input_tokens: 5, output_tokens: 7 } });

describe('spawnHarness', () => {
  test('a real capture replayed line by line by a child gives the same events as normalizing the file, live', async () => {
    const file = fixturePath('claude/lab/parallel.jsonl');
    const expected = bodies((await runFixture('claude/lab/parallel.jsonl', { harness: 'claude-code' })).events);
    const run = spawnHarness({ harness: 'claude-code', command: node, args: [join(children, 'replay.mjs'), file, '20'] });
    const events = await collect(run);
    expect(bodies(events)).toEqual(expected);
    // Live: the first event was observed well before the last (15 lines, 20 ms apart).
    expect(Date.parse(events.at(-1)!.timestamp) - Date.parse(events[0]!.timestamp)).toBeGreaterThan(100);
    const outcome = await run.done;
    expect(outcome).toMatchObject({ exit_code: 0, aborted: false });
    expect(outcome.metrics).toMatchObject({ harness: 'claude-code', ended: true, exit_code: 0, tokens: { input: 360, output: 75 } });
  });

  test('stderr lines are warnings, ANSI escapes stripped, one per line, in arrival order with stdout', async () => {
    const run = spawnHarness({
      harness: 'claude-code',
      ...script([
        { out: text('m1', 'first') },
        { sleep: 50 },
        { err: '\u001b[33m[WARN]\u001b[0m Fast mode requires the native binary\nsecond line\n' },
        { sleep: 50 },
        { out: text('m2', 'second') + result },
        { sleep: 50 },
        { err: 'no newline at the end' },
      ]),
    });
    expect(bodies(await collect(run))).toEqual([
      { type: 'agent', message: 'first' },
      { type: 'warning', code: 'stderr', message: '[WARN] Fast mode requires the native binary' },
      { type: 'warning', code: 'stderr', message: 'second line' },
      { type: 'agent', message: 'second' },
      { type: 'warning', code: 'stderr', message: 'no newline at the end' },
    ]);
  });

  test('stderr warnings carry the session id once the stream has one', async () => {
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: text('m1', 'hi') }, { sleep: 50 }, { err: 'later\n' }, { out: result }]) });
    expect((await collect(run)).map((e) => e.session_id)).toEqual(['s1', 's1']);
  });

  test("stdin: 'pipe' lets the caller write to the child", async () => {
    const echo = "process.stdin.on('data', (d) => process.stdout.write(d))";
    const run = spawnHarness({ harness: 'gg', command: node, args: ['-e', echo], stdin: 'pipe' });
    run.child.stdin!.end('{"said":"hello"}\n');
    expect(bodies(await collect(run))).toEqual([{ type: 'gg', event: { said: 'hello' } }]);
  });

  test('a JSON line split across two writes is one event', async () => {
    const whole = text('m1', 'split across writes');
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: whole.slice(0, 30) }, { sleep: 100 }, { out: whole.slice(30) + result }]) });
    expect(bodies(await collect(run))).toEqual([{ type: 'agent', message: 'split across writes' }]);
  });

  test('a non-zero exit is an error event; a run without its terminal record is reported incomplete', async () => {
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: text('m1', 'working') }, { exit: 3 }]) });
    expect(bodies(await collect(run))).toEqual([
      { type: 'agent', message: 'working' },
      { type: 'warning', code: 'incomplete', message: 'claude-code ended without its terminal record (result): the run is incomplete' },
      { type: 'error', code: 'exit_code', message: `${node} exited with code 3` },
    ]);
    expect(await run.done).toMatchObject({ exit_code: 3, aborted: false, metrics: { exit_code: 3, ended: false } });
  });

  test('death by a signal is an error event', async () => {
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: result }, { kill: 'SIGKILL' }]) });
    expect(bodies(await collect(run))).toEqual([{ type: 'error', code: 'killed', message: `${node} was killed by SIGKILL` }]);
    expect(await run.done).toMatchObject({ signal: 'SIGKILL', aborted: false, metrics: { signal: 'SIGKILL', ended: true } });
  });

  test('a harness without a terminal record is never reported incomplete', async () => {
    const run = spawnHarness({ harness: 'gg', ...script([{ out: '{"kind":"tree"}\nnot json\n' }]) });
    expect(bodies(await collect(run))).toEqual([
      { type: 'gg', event: { kind: 'tree' } },
      { type: 'warning', message: 'not json', code: 'not_json' },
    ]);
  });

  test('a command that cannot be started is an error event and a rejected ending, never an uncaught exception', async () => {
    const run = spawnHarness({ harness: 'claude-code', command: 'harness-events-no-such-command' });
    expect(bodies(await collect(run))).toEqual([{ type: 'error', code: 'spawn_failed', message: 'could not start harness-events-no-such-command: ENOENT' }]);
    await expect(run.done).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('aborting ends the child and its children: SIGTERM, and the stream ends with an AbortError', async () => {
    const controller = new AbortController();
    const run = spawnHarness({ harness: 'claude-code', signal: controller.signal, ...script([{ spawn: ['sleep', '1000'] }, { out: text('m1', 'started') }, { hang: true }]) });
    const seen: HarnessEvent[] = [];
    let grandchild = 0;
    await expect(
      (async () => {
        for await (const event of run) {
          seen.push(event);
          if (event.type === 'unknown') grandchild = (event.raw as { pid: number }).pid;
          if (event.type === 'agent') controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: 'AbortError' });
    const outcome = await run.done;
    expect(outcome).toMatchObject({ aborted: true, signal: 'SIGTERM' });
    expect(await gone(run.child.pid!)).toBe(true);
    expect(grandchild).toBeGreaterThan(0);
    expect(await gone(grandchild)).toBe(true);
  });

  test('a child that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const controller = new AbortController();
    const run = spawnHarness({ harness: 'claude-code', signal: controller.signal, killGraceMs: 200, ...script([{ ignore: 'SIGTERM' }, { out: text('m1', 'stubborn') }, { hang: true }]) });
    let started = 0;
    // The child prints its text only once SIGTERM is ignored: abort on it, not after a guessed delay.
    const consumed = (async () => {
      for await (const event of run) {
        if (event.type !== 'agent' || started !== 0) continue;
        started = Date.now();
        controller.abort();
      }
    })().catch((error: Error) => error.name);
    expect(await consumed).toBe('AbortError');
    expect(await run.done).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    expect(await gone(run.child.pid!)).toBe(true);
  });

  test('something the child started that ignores SIGTERM still gets SIGKILL after the grace period', async () => {
    const stubborn = [node, '-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1 << 30)"];
    const run = spawnHarness({ harness: 'claude-code', killGraceMs: 200, ...script([{ spawn: stubborn }, { hang: true }]) });
    let grandchild = 0;
    for await (const event of run) {
      grandchild = (event as { raw: { pid: number } }).raw.pid;
      // Let it install its SIGTERM handler before the abort.
      await sleep(500);
      break;
    }
    await sleep(100);
    expect(alive(grandchild)).toBe(true);
    expect(await gone(grandchild)).toBe(true);
  });

  test('destroying the stream (breaking out of the loop) ends the child', async () => {
    const run = spawnHarness({ harness: 'claude-code', ...script([{ out: text('m1', 'one') + text('m2', 'two') }, { hang: true }]) });
    for await (const event of run) {
      expect(event.type).toBe('agent');
      break;
    }
    expect(await run.done).toMatchObject({ aborted: true });
    expect(await gone(run.child.pid!)).toBe(true);
  });

  test('an already-aborted signal never lets the child run on', async () => {
    const run = spawnHarness({ harness: 'claude-code', signal: AbortSignal.abort(), ...script([{ hang: true }]) });
    await expect(collect(run)).rejects.toMatchObject({ name: 'AbortError' });
    expect(await run.done).toMatchObject({ aborted: true });
    expect(await gone(run.child.pid!)).toBe(true);
  });

  test('backpressure: a slow consumer pauses a child writing 300 MB; parent memory stays bounded', { timeout: 120_000 }, async () => {
    const progress = join(mkdtempSync(join(tmpdir(), 'harness-events-flood-')), 'progress');
    const total = 300 * 1024 * 1024;
    const run = spawnHarness({ harness: 'claude-code', command: node, args: [join(children, 'flood.mjs'), String(total), progress] });
    const written = () => Number(readFileSync(progress, 'utf8') || 0);
    const baseline = process.memoryUsage().rss;
    let peak = 0;
    const iterator = run[Symbol.asyncIterator]();
    // Read one event, then stop reading for a while: the child must be held back.
    await iterator.next();
    await sleep(1500);
    const whileStalled = written();
    await sleep(500);
    expect(written()).toBe(whileStalled);
    expect(whileStalled).toBeLessThan(32 * 1024 * 1024);
    // Now read everything, slowly, and watch the parent's memory.
    let events = 1;
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
      if (step.value.type === 'agent') events++;
      if (events % 500 === 0) {
        peak = Math.max(peak, process.memoryUsage().rss - baseline);
        await sleep(5);
      }
    }
    expect(written()).toBeGreaterThanOrEqual(total);
    expect(events).toBe(run.metrics.events.agent);
    expect(run.metrics.input.bytes).toBe(written());
    expect(peak).toBeLessThan(200 * 1024 * 1024);
  });
});
