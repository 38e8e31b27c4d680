/**
 * One stream for a whole run as an orchestrator sees it: its own lifecycle stages as `system`
 * events (docs/contract.md "System": pull_image, start_container, install_harness,
 * probe_harness, init_test_case, teardown), and between them the events of the harness it
 * runs, in order, with backpressure all the way to the harness's stdout.
 */
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { now } from '../../kernel/clock.js';
import type { EventOf, HarnessEvent } from '../../kernel/events.js';
import { spawnHarness, type HarnessRun, type RunResult, type SpawnHarnessOptions } from './spawn.js';
import type { stages } from '../../kernel/contract.js';
import { groupAlive, release, signalGroup, track as trackGroup } from './process-groups.js';

/** An orchestrator's lifecycle stage, a `system` event's `stage`: `pull_image`, ..., `teardown`. */
export type SystemStage = (typeof stages)[number];

/** How {@link RunStream.stage} reports a step. */
export interface StageOptions<T> {
  /** The completed message, from the step's value (default: "<description>: done in N s"). */
  completed?: (value: T) => string;
}

/** The version command {@link RunStream.probeHarness} runs. */
export interface ProbeOptions {
  /** The harness's program, e.g. `claude`. */
  command: string;
  /** Default `['--version']`. */
  args?: readonly string[];
  /** The directory it runs in. Default this process's. */
  cwd?: string;
  /** Its whole environment. Default this process's. */
  env?: NodeJS.ProcessEnv;
  /**
   * Default 30 s. Past it the probe's whole process group gets SIGKILL and the probe fails: a version command has
   * nothing to finish cleanly.
   */
  timeoutMs?: number;
}

/** One stream for a whole run: the orchestrator's `system` events, with the events of the harnesses it runs between. */
export interface RunStream extends Readable {
  /** Iterates the events as they leave, stages' and harnesses' in the order they were sent. */
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<HarnessEvent>;
  /**
   * Runs one orchestrator step: a `started` system event, then `completed` or `failed` with a
   * human message. Resolves with the step's value; rejects with its error after reporting it.
   */
  stage<T>(stage: SystemStage, description: string, step: () => Promise<T> | T, options?: StageOptions<T>): Promise<T>;
  /** A `probe_harness` stage running the harness's version command; resolves with the first line it printed. */
  probeHarness(options: ProbeOptions): Promise<string>;
  /**
   * Spawns a harness and forwards its events into this stream; settles as its `done` does: the result, or its
   * `HarnessRunError` (resolved with it under `reject: false`).
   */
  harness(options: SpawnHarnessOptions): Promise<RunResult>;
  /**
   * No more stages or harnesses: the stream ends once the stages and harnesses still running
   * have finished and everything they sent has been read. Starting one after `end()` rejects.
   */
  end(): void;
}

/**
 * Creates the stream of a whole run as an orchestrator sees it: its own lifecycle stages as `system` events, and
 * between them the events of the harnesses it runs, in order, with backpressure to the harness's stdout. `options
 * .highWaterMark`: events buffered before senders wait (default 256).
 *
 * @example
 * ```ts
 * const run = createRunStream();
 * const consumer = pipeline(run, toJetStream({ servers, harness: 'codex', run: 'ci-4711' }));
 * await run.stage('install_harness', 'npm install -g @openai/codex', () => install());
 * await run.probeHarness({ command: 'codex' });
 * await run.harness({ harness: 'codex', prompt: 'fix the tests', cwd: '/repo' });
 * run.end();
 * await consumer;
 * ```
 */
export function createRunStream(options: { highWaterMark?: number } = {}): RunStream {
  // Everyone waiting to send while the consumer is behind: stages and harnesses send at once.
  let waiting: (() => void)[] = [];
  const wakeAll = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const stream = new Readable({
    objectMode: true,
    highWaterMark: options.highWaterMark ?? 256,
    read: wakeAll,
  }) as RunStream;
  // The harnesses running now: one 'close' listener stops them all, however many there are.
  const harnesses = new Set<HarnessRun>();
  // A consumer that stops reading releases whoever waits to send, and stops every harness.
  stream.once('close', () => {
    wakeAll();
    for (const run of harnesses) run.destroy();
  });

  /** Sends one event, waiting while the consumer is behind. */
  async function send(event: HarnessEvent): Promise<void> {
    if (stream.destroyed) return;
    if (!stream.push(event)) await new Promise<void>((resolve) => waiting.push(resolve));
  }

  // end() waits for the stages and harnesses still running: their events are part of the run.
  let running = 0;
  let ending = false;
  async function track<T>(work: () => Promise<T>): Promise<T> {
    if (ending) throw new Error('the run stream was ended: no more stages or harnesses');
    if (stream.destroyed) throw new Error('the run stream was destroyed: no more stages or harnesses');
    running++;
    try {
      return await work();
    } finally {
      running--;
      if (ending && running === 0) stream.push(null);
    }
  }

  function system(stage: SystemStage, status: EventOf<'system'>['status'], message: string): Promise<void> {
    return send({ type: 'system', timestamp: now(), stage, status, message });
  }

  stream.stage = function stage<T>(
    name: SystemStage,
    description: string,
    step: () => Promise<T> | T,
    stageOptions: StageOptions<T> = {},
  ): Promise<T> {
    return track(async () => {
      const started = performance.now();
      const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
      await system(name, 'started', description);
      let value: T;
      try {
        value = await step();
      } catch (error) {
        await system(
          name,
          'failed',
          `${description}: failed after ${elapsed()}: ${(error as Error)?.message ?? String(error)}`,
        );
        throw error;
      }
      await system(
        name,
        'completed',
        stageOptions.completed ? stageOptions.completed(value) : `${description}: done in ${elapsed()}`,
      );
      return value;
    });
  };

  stream.probeHarness = function probeHarness(probe: ProbeOptions): Promise<string> {
    const args = probe.args ?? ['--version'];
    const description = `probing ${[probe.command, ...args].join(' ')}`;
    return stream.stage('probe_harness', description, () => firstLineOf(probe.command, args, probe), {
      completed: (version) => `${description}: ${version}`,
    });
  };

  stream.harness = function harness(spawnOptions: SpawnHarnessOptions): Promise<RunResult> {
    return track(async () => {
      const run = spawnHarness(spawnOptions);
      harnesses.add(run);
      try {
        for await (const event of run) {
          await send(event);
          if (stream.destroyed) break;
        }
      } catch (error) {
        // Destroying this stream stopped the harness: run.done says how it ended.
        if (!stream.destroyed) throw error;
      } finally {
        harnesses.delete(run);
      }
      return run.done;
    });
  };

  stream.end = () => {
    if (ending) return;
    ending = true;
    if (running === 0) stream.push(null);
  };
  return stream;
}

/** What a probe keeps of each output: a version line, not whatever a broken command prints. */
const MAX_PROBE_OUTPUT = 64 * 1024;

/**
 * Runs the version command in a process group of its own, covered by the exit hook; once it exits (or times out) the
 * group gets SIGKILL, so nothing it started in the background outlives the probe.
 */
function firstLineOf(command: string, args: readonly string[], options: ProbeOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const pgid = child.pid;
    if (pgid !== undefined) trackGroup(pgid);
    const output = { stdout: '', stderr: '' };
    for (const name of ['stdout', 'stderr'] as const) {
      child[name].setEncoding('utf8');
      child[name].on('data', (text: string) => {
        if (output[name].length < MAX_PROBE_OUTPUT) output[name] += text.slice(0, MAX_PROBE_OUTPUT);
      });
    }
    let timedOut = false;
    const endGroup = () => {
      if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
    };
    const timer = setTimeout(() => {
      timedOut = true;
      endGroup();
    }, timeoutMs);
    // What it left running holds its pipes open: ended with it, so 'close' comes.
    child.on('exit', endGroup);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // After its SIGKILL a process may take a moment to be gone: the probe settles once its group is.
      const settle = () => {
        if (pgid !== undefined && groupAlive(pgid)) return void setTimeout(settle, 5);
        if (pgid !== undefined) release(pgid);
        finish(code, signal);
      };
      settle();
    });
    function finish(code: number | null, signal: NodeJS.Signals | null): void {
      if (timedOut) return reject(new Error(`${command} did not finish within ${timeoutMs} ms`));
      if (code !== 0) return reject(new Error(`${command} exited with ${code === null ? signal : `code ${code}`}`));
      const line = (output.stdout.trim() || output.stderr.trim()).split('\n')[0] ?? '';
      resolve(line.trim());
    }
  });
}
