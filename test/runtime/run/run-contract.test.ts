/**
 * The run contract (docs/run-contract.md), one test per row of its table, with real child
 * processes (test/children/*.mjs): what the events say, what `done` does, what its error carries. The ACP rows are in
 * test/harnesses/acp/client.test.ts (the end_turn of an agent that ignores its stdin's end exits 0 there).
 * No sleeps: a child that must outlast something hangs until it is ended.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import {
  createNormalizer,
  DEFAULT_MAX_BUFFER_BYTES,
  DEFAULT_MAX_RESULT_BYTES,
  failureCodes,
  failures,
  HarnessRunError,
  readEvents,
  spawnHarness,
  type HarnessEvent,
  type HarnessRun,
  type RunResult,
  type SpawnHarnessOptions,
} from '../../../lib/index.js';
import { bodies } from '../../helpers.js';
import { gone } from '../../processes.js';

const children = new URL('../../children/', import.meta.url).pathname;
const node = process.execPath;
const script = (steps: unknown[]) => ({ command: node, args: [join(children, 'script.mjs'), JSON.stringify(steps)] });
const lines = (count: number) => ({ command: node, args: [join(children, 'lines.mjs'), String(count)] });

async function collect(run: HarnessRun): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

// The warnings of the whole file: a deprecated option warns once per process, whichever test used it first.
const warnings: string[] = [];
const listener = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
beforeAll(() => process.on('warning', listener));
afterAll(() => process.off('warning', listener));

/** The failure `done` rejects with (a test failure when it resolves). */
async function rejection(run: HarnessRun): Promise<HarnessRunError> {
  const settled = await run.done.then(
    (result) => result,
    (error: unknown) => error,
  );
  expect(settled).toBeInstanceOf(HarnessRunError);
  return settled as HarnessRunError;
}

describe('how a run ends', { timeout: 60_000 }, () => {
  test('awaited without reading: a child writing 20,000 lines settles, every event in the result', async () => {
    const run = spawnHarness({ harness: 'gg', ...lines(20_000) });
    const result = await run.done;
    expect(result).toMatchObject({ failed: false, exitCode: 0, isCanceled: false, timedOut: false });
    expect(result.events).toHaveLength(20_000);
    expect(bodies(result.events!.slice(0, 2))).toEqual([
      { type: 'gg', event: { n: 1 } },
      { type: 'gg', event: { n: 2 } },
    ]);
    expect(bodies(result.events!.slice(-1))).toEqual([{ type: 'gg', event: { n: 20_000 } }]);
    // The stream still holds them for a reader that comes later.
    expect(await collect(run)).toEqual(result.events);
  });

  test(
    'the same past maxBufferBytes: the child is stopped, ' + 'max_buffer, done rejects with the events kept',
    async () => {
      const run = spawnHarness({ harness: 'gg', maxBufferBytes: 10_000, ...lines(20_000) });
      const error = await rejection(run);
      const message = `nothing read the events of ${node} and they passed maxBufferBytes (10000 bytes): it was stopped`;
      expect(error).toMatchObject({ reason: 'max_buffer', message, isCanceled: false, timedOut: false });
      const kept = error.events!;
      expect(bodies(kept.slice(0, 1))).toEqual([{ type: 'gg', event: { n: 1 } }]);
      const bytes = kept.reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event)), 0);
      expect(bytes).toBeLessThanOrEqual(10_000);
      // What went into the stream: the events kept, then the error, and nothing after it.
      const streamed = await collect(run);
      expect(streamed.slice(0, -1)).toEqual(kept);
      expect(bodies(streamed.slice(-1))).toEqual([{ type: 'error', code: 'max_buffer', message }]);
      expect(await gone(run.child!.pid!)).toBe(true);
    },
  );

  const failing = script([{ out: '{"n":1}\n' }, { err: 'first\n' }, { err: 'boom: disk full\n' }, { exit: 3 }]);

  test('a non-zero exit: the exit_code event; done rejects with the exit code and the tail of stderr', async () => {
    const run = spawnHarness({ harness: 'gg', ...failing });
    expect(bodies(await collect(run))).toEqual([
      { type: 'gg', event: { n: 1 } },
      { type: 'warning', code: 'stderr', message: 'first' },
      { type: 'warning', code: 'stderr', message: 'boom: disk full' },
      { type: 'error', code: 'exit_code', message: `${node} exited with code 3` },
    ]);
    const error = await rejection(run);
    expect(error).toMatchObject({
      name: 'HarnessRunError',
      failed: true,
      reason: 'exit_code',
      message: `${node} exited with code 3`,
      exitCode: 3,
      signal: undefined,
      isCanceled: false,
      timedOut: false,
      stderrTail: 'first\nboom: disk full',
      metrics: { exit_code: 3 },
    });
    // Something read the events: the error does not hold them.
    expect(error.events).toBeUndefined();
  });

  test('reject: false resolves with the same HarnessRunError', async () => {
    const run = spawnHarness({ harness: 'gg', reject: false, ...failing });
    const result: RunResult = await run.done;
    expect(result).toBeInstanceOf(HarnessRunError);
    expect(result).toMatchObject({
      failed: true,
      reason: 'exit_code',
      exitCode: 3,
      stderrTail: 'first\nboom: disk full',
    });
    // Not read: the events are in the result.
    expect(result.events?.map((event) => event.type)).toEqual(['gg', 'warning', 'warning', 'error']);
  });

  test('a command that cannot be started: spawn_failed; done rejects with the cause', async () => {
    const run = spawnHarness({ harness: 'gg', command: 'harness-events-no-such-command' });
    const message = 'could not start harness-events-no-such-command: ENOENT';
    expect(bodies(await collect(run))).toEqual([{ type: 'error', code: 'spawn_failed', message }]);
    expect(await rejection(run)).toMatchObject({ reason: 'spawn_failed', message, cause: { code: 'ENOENT' } });
  });

  test('a signal aborted before the start: nothing starts, nothing is thrown; done rejects later', async () => {
    const reason = new Error('called off');
    const run = spawnHarness({ harness: 'gg', signal: AbortSignal.abort(reason), ...script([{ hang: true }]) });
    expect(run.child).toBeUndefined();
    let settled = false;
    run.done.catch(() => (settled = true));
    // Asynchronously, as Node's own APIs do.
    expect(settled).toBe(false);
    expect(await rejection(run)).toMatchObject({ reason: 'aborted', isCanceled: true, cause: reason });
    expect(await collect(run)).toEqual([]);
  });

  test('an abort during the run: the child is stopped, the stream ends, done rejects isCanceled', async () => {
    const controller = new AbortController();
    const run = spawnHarness({
      harness: 'gg',
      signal: controller.signal,
      ...script([{ out: '{"n":1}\n' }, { hang: true }]),
    });
    const events: HarnessEvent[] = [];
    for await (const event of run) {
      events.push(event);
      controller.abort();
    }
    expect(bodies(events)).toEqual([{ type: 'gg', event: { n: 1 } }]);
    expect(await rejection(run)).toMatchObject({
      reason: 'aborted',
      isCanceled: true,
      timedOut: false,
      signal: 'SIGTERM',
      message: `${node} was stopped: the run was aborted`,
    });
  });

  test('timeoutMs: a child that never ends is stopped; the timeout event, done rejects timedOut', async () => {
    // The child hangs until it is ended: whenever the timer fires, the ending is the same.
    const run = spawnHarness({ harness: 'gg', timeoutMs: 300, ...script([{ hang: true }]) });
    const message = `${node} ran for longer than timeoutMs (300 ms) and was stopped`;
    expect(bodies(await collect(run))).toEqual([{ type: 'error', code: 'timeout', message }]);
    expect(await rejection(run)).toMatchObject({
      reason: 'timeout',
      message,
      timedOut: true,
      isCanceled: false,
      signal: 'SIGTERM',
    });
  });

  test('a stage that fails: stage_failed, the child stopped; done rejects with the cause', async () => {
    const failure = new Error('audit log full');
    const run = spawnHarness({
      harness: 'gg',
      onLine: () => {
        throw failure;
      },
      ...script([{ out: '{"n":1}\n' }, { hang: true }]),
    });
    expect(bodies(await collect(run))).toEqual([
      { type: 'gg', event: { n: 1 } },
      { type: 'error', code: 'stage_failed', message: 'audit log full' },
    ]);
    expect(await rejection(run)).toMatchObject({ reason: 'stage_failed', cause: failure, isCanceled: false });
  });
});

describe('the environment', () => {
  const printEnv = {
    command: node,
    args: ['-e', 'console.log(JSON.stringify({ X: process.env.X, PATH: process.env.PATH, HOME: process.env.HOME }))'],
  };

  test('env extends process.env: X reaches the child with PATH and HOME intact', async () => {
    const { events } = await spawnHarness({ harness: 'gg', env: { X: '1' }, ...printEnv }).done;
    expect(bodies(events!)).toEqual([
      { type: 'gg', event: { X: '1', PATH: process.env.PATH, HOME: process.env.HOME } },
    ]);
  });

  test('extendEnv: false: env is the whole environment', async () => {
    const { events } = await spawnHarness({ harness: 'gg', env: { X: '1' }, extendEnv: false, ...printEnv }).done;
    expect(bodies(events!)).toEqual([{ type: 'gg', event: { X: '1' } }]);
  });
});

describe('options', () => {
  test('undefined is the default: idleFlushMs undefined still flushes held text live', async () => {
    const assistant = JSON.stringify({
      type: 'assistant',
      message: { id: 'm1', content: [{ type: 'text', text: 'hi' }] },
    });
    const run = spawnHarness({
      harness: 'claude-code',
      idleFlushMs: undefined,
      highWaterMark: undefined,
      stdin: 'pipe',
      // The message never ends while the child waits: only the idle flush lets its text out.
      ...script([{ out: assistant + '\n' }, { wait: true }, { exit: 0 }]),
    });
    const events: HarnessEvent[] = [];
    for await (const event of run) if (events.push(event) === 1) run.child!.stdin!.write('go\n');
    expect(bodies(events)[0]).toEqual({ type: 'agent', message: 'hi' });
  });

  test('misuse from plain JavaScript: a TypeError naming the option and what it expects', () => {
    const start = (options: unknown) => () => spawnHarness(options as SpawnHarnessOptions);
    expect(start(undefined)).toThrow(new TypeError('spawnHarness: the options must be an object'));
    expect(start({ command: 'x' })).toThrow(
      new TypeError("spawnHarness: the harness option is required (a harness name, 'auto' or a Harness)"),
    );
    expect(start({ harness: 'gg', command: 'x', timeoutMs: '10s' })).toThrow(
      new TypeError('spawnHarness: timeoutMs must be a positive integer (milliseconds), got "10s"'),
    );
    expect(start({ harness: 'gg', command: 'x', env: 'PATH=/bin' })).toThrow(
      new TypeError('spawnHarness: env must be an object of environment variables, got "PATH=/bin"'),
    );
    expect(start({ harness: 'codex', prompt: 'p', agent: 'copilot' })).toThrow(
      new TypeError("spawnHarness: agent is an option of harness 'acp', not of codex"),
    );
    expect(start({ harness: 'codex', prompt: 'p', permissions: 'reject' })).toThrow(
      new TypeError(
        'spawnHarness: permissions must be one of "default", "read-only", "plan", "bypass", "ask", got "reject"',
      ),
    );
    expect(() => createNormalizer({} as never)).toThrow(
      new TypeError("the harness option must be a harness name, 'auto' or a Harness (an object with a correlator)"),
    );
  });

  test('types: ACP options compile only with harness acp; a misspelt permissions value does not compile', () => {
    const options = (given: SpawnHarnessOptions) => given;
    // @ts-expect-error: agent is an option of harness 'acp'
    options({ harness: 'codex', prompt: 'p', agent: 'copilot' });
    // @ts-expect-error: so is cancelGraceMs
    options({ harness: 'claude-code', prompt: 'p', cancelGraceMs: 10 });
    // @ts-expect-error: 'reject' is not a permissions value
    options({ harness: 'codex', prompt: 'p', permissions: 'reject' });
    // @ts-expect-error: nor is a misspelt 'bypass'
    options({ harness: 'acp', agent: 'copilot', prompt: 'p', permissions: 'bypas' });
    expect(options({ harness: 'acp', agent: 'copilot', prompt: 'p', permissions: 'bypass' })).toBeDefined();
    expectTypeOf(readEvents()[Symbol.asyncIterator]).returns.toEqualTypeOf<NodeJS.AsyncIterator<HarnessEvent>>();
  });
});

// Issue 39 items 4 and 5: what a failed run's error carries for a log line, and the two byte bounds under names a typo
// cannot swap, their old names deprecated aliases for one release.
const failingSteps = JSON.stringify([{ out: '{"n":1}\n' }, { err: 'boom\n' }, { exit: 3 }]);
const failingFast = { command: node, args: [join(children, 'script.mjs'), failingSteps] };

describe('HarnessRunError for a log line', { timeout: 60_000 }, () => {
  test('it carries the argv, the working directory, the duration and a stable code', async () => {
    const error = await rejection(spawnHarness({ harness: 'gg', cwd: children, ...failingFast }));
    expect(error).toMatchObject({
      reason: 'exit_code',
      code: 'ERR_HARNESS_EXIT_CODE',
      command: [node, join(children, 'script.mjs'), failingSteps],
      cwd: children.replace(/\/$/, ''),
    });
    expect(error.durationMs).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(error.durationMs)).toBe(true);
  });

  test("without a cwd, the cwd is this process's one; a success carries the same fields (no code)", async () => {
    const result = await spawnHarness({ harness: 'gg', ...lines(1) }).done;
    expect(result).toMatchObject({
      failed: false,
      command: [node, join(children, 'lines.mjs'), '1'],
      cwd: process.cwd(),
    });
    expect(result).not.toHaveProperty('code');
  });

  test('every failure has its code', () => {
    expect(Object.keys(failureCodes)).toEqual(Object.keys(failures));
    expect(new Set(Object.values(failureCodes)).size).toBe(Object.keys(failures).length);
  });

  test('its events are kept but not enumerable: a logger that serializes the error does not write them', async () => {
    const error = await rejection(spawnHarness({ harness: 'gg', ...failingFast }));
    expect(error.events?.map((event) => event.type)).toEqual(['gg', 'warning', 'error']);
    expect(Object.keys(error)).not.toContain('events');
    expect(Object.keys(error)).toContain('stderrTail');
    const logged = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(logged).toMatchObject({ reason: 'exit_code', code: 'ERR_HARNESS_EXIT_CODE', stderrTail: 'boom' });
    expect(logged).not.toHaveProperty('events');
  });
});

describe(
  'the byte bounds: maxResultBytes fails the run, highWaterMarkBytes pauses the child',
  { timeout: 60_000 },
  () => {
    test('maxResultBytes: nothing read the events past it, the run fails with max_buffer naming it', async () => {
      const error = await rejection(spawnHarness({ harness: 'gg', maxResultBytes: 10_000, ...lines(20_000) }));
      const message = `nothing read the events of ${node} and they passed maxResultBytes (10000 bytes): it was stopped`;
      expect(error).toMatchObject({ reason: 'max_buffer', code: 'ERR_HARNESS_MAX_BUFFER', message });
      expect(DEFAULT_MAX_RESULT_BYTES).toBe(64 * 1024 * 1024);
    });

    test('the deprecated maxBufferBytes works (its message names it), with one DeprecationWarning', async () => {
      for (let run = 0; run < 2; run++) {
        const error = await rejection(spawnHarness({ harness: 'gg', maxBufferBytes: 10_000, ...lines(20_000) }));
        const message = `nothing read the events of ${node} and they passed maxBufferBytes (10000 bytes): `;
        expect(error).toMatchObject({ reason: 'max_buffer', message: message + 'it was stopped' });
      }
      expect(DEFAULT_MAX_BUFFER_BYTES).toBe(DEFAULT_MAX_RESULT_BYTES);
      expect(warnings.filter((warning) => warning.includes('maxBufferBytes'))).toEqual([
        'DeprecationWarning: spawnHarness: maxBufferBytes is deprecated: use maxResultBytes',
      ]);
    });

    for (const name of ['highWaterMarkBytes', 'maxBufferedBytes'] as const) {
      test(`${name}: a reader that far behind makes the child wait ('held'), and the run goes on`, async () => {
        const run = spawnHarness({ harness: 'gg', [name]: 200, ...lines(2000) } as SpawnHarnessOptions);
        const held = new Promise<{ events: number; bytes: number }>((resolve) => run.once('held', resolve));
        const iterator = run[Symbol.asyncIterator]();
        await iterator.next();
        const { bytes } = await held;
        expect(bytes).toBeGreaterThan(200);
        let events = 1;
        for (let step = await iterator.next(); !step.done; step = await iterator.next()) events++;
        expect(events).toBe(2000);
        expect(await run.done).toMatchObject({ failed: false });
      });
    }

    test('maxBufferedBytes warns once that it is deprecated', () => {
      expect(warnings.filter((warning) => warning.includes('maxBufferedBytes'))).toEqual([
        'DeprecationWarning: spawnHarness: maxBufferedBytes is deprecated: use highWaterMarkBytes',
      ]);
    });

    test('an old name with its new one is a TypeError: which of the two was meant is not guessed', () => {
      const options = { harness: 'gg', maxResultBytes: 1000, maxBufferBytes: 1000, ...lines(1) } as SpawnHarnessOptions;
      expect(() => spawnHarness(options)).toThrow(
        new TypeError(
          'spawnHarness: maxBufferBytes is the deprecated name of maxResultBytes: give maxResultBytes alone',
        ),
      );
    });
  },
);
