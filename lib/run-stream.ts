/**
 * One stream for a whole run as an orchestrator sees it: its own lifecycle stages as `system`
 * events (docs/contract.md "System": pull_image, start_container, install_harness,
 * probe_harness, init_test_case, teardown), and between them the events of the harness it
 * runs, in order, with backpressure all the way to the harness's stdout.
 */
import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { now } from './clock.js';
import type { EventOf, HarnessEvent } from './events.js';
import { spawnHarness, type RunResult, type SpawnHarnessOptions } from './spawn.js';
import type { stages } from '../schemas/contract.js';

export type SystemStage = (typeof stages)[number];

export interface StageOptions<T> {
  /** The completed message, from the step's value (default: "<description>: done in N s"). */
  completed?: (value: T) => string;
}

export interface ProbeOptions {
  /** The harness's program, e.g. `claude`. */
  command: string;
  /** Default `['--version']`. */
  args?: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Default 30 s. */
  timeoutMs?: number;
}

export interface RunStream extends Readable {
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<HarnessEvent>;
  /**
   * Runs one orchestrator step: a `started` system event, then `completed` or `failed` with a
   * human message. Resolves with the step's value; rejects with its error after reporting it.
   */
  stage<T>(stage: SystemStage, description: string, step: () => Promise<T> | T, options?: StageOptions<T>): Promise<T>;
  /** A `probe_harness` stage running the harness's version command; resolves with the first line it printed. */
  probeHarness(options: ProbeOptions): Promise<string>;
  /** Spawns a harness and forwards its events into this stream; resolves with how it ended. */
  harness(options: SpawnHarnessOptions): Promise<RunResult>;
  /** No more stages or harnesses: the stream ends once everything sent has been read. */
  end(): void;
}

export function createRunStream(options: { highWaterMark?: number } = {}): RunStream {
  let wake: (() => void) | undefined;
  const stream = new Readable({
    objectMode: true,
    highWaterMark: options.highWaterMark ?? 256,
    read() {
      wake?.();
      wake = undefined;
    },
  }) as RunStream;
  // A consumer that stops reading releases whoever waits to send.
  stream.once('close', () => wake?.());

  /** Sends one event, waiting while the consumer is behind. */
  async function send(event: HarnessEvent): Promise<void> {
    if (stream.destroyed) return;
    if (!stream.push(event)) await new Promise<void>((resolve) => (wake = resolve));
  }

  function system(stage: SystemStage, status: EventOf<'system'>['status'], message: string): Promise<void> {
    return send({ type: 'system', timestamp: now(), stage, status, message });
  }

  stream.stage = async function stage<T>(name: SystemStage, description: string, step: () => Promise<T> | T, stageOptions: StageOptions<T> = {}): Promise<T> {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    await system(name, 'started', description);
    let value: T;
    try {
      value = await step();
    } catch (error) {
      await system(name, 'failed', `${description}: failed after ${elapsed()}: ${(error as Error)?.message ?? String(error)}`);
      throw error;
    }
    await system(name, 'completed', stageOptions.completed ? stageOptions.completed(value) : `${description}: done in ${elapsed()}`);
    return value;
  };

  stream.probeHarness = function probeHarness(probe: ProbeOptions): Promise<string> {
    const args = probe.args ?? ['--version'];
    const description = `probing ${[probe.command, ...args].join(' ')}`;
    return stream.stage('probe_harness', description, () => firstLineOf(probe.command, args, probe), {
      completed: (version) => `${description}: ${version}`,
    });
  };

  stream.harness = async function harness(spawnOptions: SpawnHarnessOptions): Promise<RunResult> {
    const run = spawnHarness(spawnOptions);
    // Stopping this stream stops the harness.
    const stop = () => run.destroy();
    stream.once('close', stop);
    try {
      for await (const event of run) {
        await send(event);
        if (stream.destroyed) break;
      }
    } finally {
      stream.removeListener('close', stop);
    }
    return run.done;
  };

  stream.end = () => {
    stream.push(null);
  };
  return stream;
}

function firstLineOf(command: string, args: readonly string[], options: ProbeOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 30_000 }, (error, stdout, stderr) => {
      if (error) return reject(error);
      const line = (stdout.trim() || stderr.trim()).split('\n')[0] ?? '';
      resolve(line.trim());
    });
  });
}
