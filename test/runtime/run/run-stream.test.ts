/** System events bracketing orchestrator stages, in one stream with the harness's events. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { HarnessRunError } from '../../../lib/runtime/run/errors.js';
import { groupAlive } from '../../../lib/runtime/run/process-groups.js';
import { createRunStream } from '../../../lib/runtime/run/run-stream.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, fixturePath } from '../../helpers.js';

const children = new URL('../../children/', import.meta.url).pathname;

test('stages that succeed and fail, a probe, and a harness run arrive in one stream, in order', async () => {
  const run = createRunStream();
  const collected = (async () => {
    const events: HarnessEvent[] = [];
    for await (const event of run) events.push(event);
    return events;
  })();

  expect(
    await run.stage('pull_image', 'pulling image ubuntu:24.04', async () => 'sha256:abc', {
      completed: (digest) => `pulled ubuntu:24.04 (${digest})`,
    }),
  ).toBe('sha256:abc');
  await expect(
    run.stage('install_harness', 'installing claude-code 2.1.328', () => {
      throw new Error('npm ERR! network unreachable');
    }),
  ).rejects.toThrow('npm ERR! network unreachable');
  expect(await run.probeHarness({ command: process.execPath, args: ['--version'] })).toBe(process.version);
  const outcome = await run.harness({
    harness: 'claude-code',
    command: process.execPath,
    args: [join(children, 'replay.mjs'), fixturePath('claude-code/lab/read.jsonl'), '0'],
  });
  await run.stage('teardown', 'removing the container', () => undefined);
  run.end();

  const events = await collected;
  expect(outcome).toMatchObject({ failed: false, exitCode: 0, isCanceled: false });
  const system = events.filter((e) => e.type === 'system');
  expect(system.every((e) => !('session_id' in e))).toBe(true);
  // Durations differ on every run.
  const out = bodies(events).map((e) =>
    e.type === 'system' ? { ...e, message: String(e.message).replace(/\d+\.\d s\b/, 'N s') } : e,
  );
  expect(out).toEqual([
    { type: 'system', stage: 'pull_image', status: 'started', message: 'pulling image ubuntu:24.04' },
    { type: 'system', stage: 'pull_image', status: 'completed', message: 'pulled ubuntu:24.04 (sha256:abc)' },
    { type: 'system', stage: 'install_harness', status: 'started', message: 'installing claude-code 2.1.328' },
    {
      type: 'system',
      stage: 'install_harness',
      status: 'failed',
      message: 'installing claude-code 2.1.328: failed after N s: npm ERR! network unreachable',
    },
    { type: 'system', stage: 'probe_harness', status: 'started', message: `probing ${process.execPath} --version` },
    {
      type: 'system',
      stage: 'probe_harness',
      status: 'completed',
      message: `probing ${process.execPath} --version: ${process.version}`,
    },
    { type: 'agent', message: "I'll start by reading the README." },
    { type: 'read', path: '/home/user/project/README.md', is_success: true },
    { type: 'agent', message: 'Now lines 3-6 of the notes.' },
    { type: 'read', path: '/home/user/project/notes.txt', start_line: 3, end_line: 6, is_success: true },
    { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
    {
      type: 'agent',
      message: 'The README says hello world, notes lines 3-6 are gamma to zeta, and missing.txt does not exist.',
    },
    { type: 'system', stage: 'teardown', status: 'started', message: 'removing the container' },
    { type: 'system', stage: 'teardown', status: 'completed', message: 'removing the container: done in N s' },
  ]);
});

test('a probe whose command fails is a failed probe_harness stage', async () => {
  const run = createRunStream();
  await expect(run.probeHarness({ command: 'harness-events-no-such-harness' })).rejects.toMatchObject({
    code: 'ENOENT',
  });
  run.end();
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  expect(bodies(events)).toEqual([
    {
      type: 'system',
      stage: 'probe_harness',
      status: 'started',
      message: 'probing harness-events-no-such-harness --version',
    },
    {
      type: 'system',
      stage: 'probe_harness',
      status: 'failed',
      message: expect.stringMatching(
        new RegExp(
          String.raw`^probing harness-events-no-such-harness --version: failed after \d+\.\d s: ` +
            'spawn harness-events-no-such-harness ENOENT$',
        ),
      ),
    },
  ]);
});

const script = (steps: unknown[]) => ({
  command: process.execPath,
  args: [join(children, 'script.mjs'), JSON.stringify(steps)],
});
const numbered = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ tag, i }) + '\n').join('');

test('stages and harnesses sending at once to a slow consumer all get through, each in its order', async () => {
  const run = createRunStream({ highWaterMark: 1 });
  const a = run.harness({ harness: 'gg', highWaterMark: 1, ...script([{ out: numbered('a', 300) }]) });
  const b = run.harness({ harness: 'gg', highWaterMark: 1, ...script([{ out: numbered('b', 300) }]) });
  const stages = Array.from({ length: 5 }, (_, i) =>
    run.stage('teardown', `step ${i}`, () => i, { completed: () => `step ${i} done` }),
  );
  const events: HarnessEvent[] = [];
  const consumed = (async () => {
    // One event per turn of the event loop: every sender finds the stream full, again and again.
    for await (const event of run) {
      events.push(event);
      await new Promise(setImmediate);
    }
  })();
  expect(await Promise.all(stages)).toEqual([0, 1, 2, 3, 4]);
  expect(await a).toMatchObject({ exitCode: 0 });
  expect(await b).toMatchObject({ exitCode: 0 });
  run.end();
  await consumed;
  const of = (tag: string) =>
    events
      .filter((e) => e.type === 'gg' && (e.event as { tag: string }).tag === tag)
      .map((e) => (e as { event: { i: number } }).event.i);
  expect(of('a')).toEqual([...Array(300).keys()]);
  expect(of('b')).toEqual([...Array(300).keys()]);
  const system = events.filter((e) => e.type === 'system').map((e) => (e as { message: string }).message);
  for (const i of [0, 1, 2, 3, 4])
    expect(system.filter((m) => m.startsWith(`step ${i}`))).toEqual([`step ${i}`, `step ${i} done`]);
  expect(events).toHaveLength(610);
});

test('end() while a harness runs waits for it: its events all arrive, the child is not stopped', async () => {
  const run = createRunStream();
  const outcome = run.harness({ harness: 'gg', ...script([{ out: '{"n":1}\n' }, { out: '{"n":2}\n' }, { exit: 0 }]) });
  run.end();
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  expect(bodies(events)).toEqual([
    { type: 'gg', event: { n: 1 } },
    { type: 'gg', event: { n: 2 } },
  ]);
  expect(await outcome).toMatchObject({ failed: false, exitCode: 0, isCanceled: false });
  await expect(run.stage('teardown', 'too late', () => 1)).rejects.toThrow(
    'the run stream was ended: no more stages or harnesses',
  );
});

test(
  '12 harnesses at once: no MaxListenersExceededWarning; destroying the stream stops every one of them, and ' +
    'starts no more',
  async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const run = createRunStream();
      const outcomes = Array.from({ length: 12 }, (_, i) =>
        run.harness({ harness: 'gg', ...script([{ out: JSON.stringify({ ready: i }) + '\n' }, { hang: true }]) }),
      );
      const ready = new Set<number>();
      for await (const event of run) {
        ready.add((event as { event: { ready: number } }).event.ready);
        // Every child is running: leaving the loop destroys the stream.
        if (ready.size === 12) break;
      }
      // Each harness was aborted: its promise rejects, as spawnHarness's done does.
      const endings = await Promise.all(outcomes.map((outcome) => outcome.catch((error: HarnessRunError) => error)));
      expect(endings.map(({ isCanceled, signal }) => ({ isCanceled, signal }))).toEqual(
        outcomes.map(() => ({ isCanceled: true, signal: 'SIGTERM' })),
      );
      await expect(run.harness({ harness: 'gg', ...script([{ hang: true }]) })).rejects.toThrow(
        'the run stream was destroyed: no more stages or harnesses',
      );
      // Warnings are emitted on a later tick.
      await new Promise(setImmediate);
      expect(warnings.map((w) => w.message)).toEqual([]);
    } finally {
      process.removeListener('warning', onWarning);
    }
  },
);

describe('issue 30 item 6: a probe honours its timeout and leaves nothing behind', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'probe-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A version command (a sh script in the temp dir) that writes its process group's id to `group`. */
  function script(body: string): { command: string; group: () => number } {
    const command = join(dir, 'version.sh');
    writeFileSync(command, `#!/bin/sh\necho $$ > ${join(dir, 'group')}\n${body}\n`);
    chmodSync(command, 0o755);
    return { command, group: () => Number(readFileSync(join(dir, 'group'), 'utf8')) };
  }

  test('a version command that ignores SIGTERM: SIGKILLed with its group at timeoutMs, the stage failed', async () => {
    const { command, group } = script("trap '' TERM\necho starting\nsleep 1000");
    const run = createRunStream();
    await expect(run.probeHarness({ command, args: [], timeoutMs: 300 })).rejects.toThrow(
      `${command} did not finish within 300 ms`,
    );
    expect(groupAlive(group())).toBe(false);
    run.end();
    const events: HarnessEvent[] = [];
    for await (const event of run) events.push(event);
    expect(bodies(events).at(-1)).toEqual({
      type: 'system',
      stage: 'probe_harness',
      status: 'failed',
      message: expect.stringMatching(/: failed after \d+\.\d s: .* did not finish within 300 ms$/),
    });
  });

  test(
    'a version command that leaves a process in the background: its ' + 'line, and the background process gone',
    async () => {
      const { command, group } = script('sleep 1000 &\necho v1.2.3');
      const run = createRunStream();
      expect(await run.probeHarness({ command, args: [] })).toBe('v1.2.3');
      expect(groupAlive(group())).toBe(false);
      run.end();
      for await (const _ of run);
    },
  );
});
