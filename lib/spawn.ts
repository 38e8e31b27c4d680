/**
 * Running a harness: the glue every embedder otherwise writes by hand. The child's stdout goes
 * through the harness's normalizer; its stderr lines become warnings; the ending (exit code,
 * signal, missing terminal record, spawn failure) becomes events; aborting kills the child's
 * whole process group; and a slow consumer pauses the child instead of filling memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { constants } from 'node:os';
import { now } from './clock.js';
import type { EventBody, HarnessEvent, RunMetrics } from './events.js';
import { stamp } from './stamp.js';
import { createNormalizer, type NormalizeOptions, type Normalizer } from './normalizer.js';
import { lineSplitter, LineTooLong } from '../transforms/split-lines.js';
import { harnessFrom } from '../harnesses/index.js';
import type { AcpOptions } from './acp-client.js';
import type { HarnessClient } from './harness.js';

export interface SpawnHarnessOptions extends Omit<NormalizeOptions, 'output'>, AcpOptions {
  /** The program to run, e.g. `claude`; with a `prompt`, it replaces the harness's own program (a path, a wrapper); acp may take an `agent` preset instead. */
  command?: string;
  /** The program's arguments, exactly; not with a `prompt`, which builds them (acp: they follow the `agent` preset's). */
  args?: readonly string[];
  /** What the agent is asked to do: the harness's own command line is built around it (harnesses/command-lines.ts); acp sends it as the session's prompt. */
  prompt?: string;
  /** With a `prompt`: the model to ask for (the CLI's `--model`; acp selects it with `session/set_model`, e.g. Droid's `custom:<Name>-<index>`). */
  model?: string;
  /** With a `prompt`: further arguments for the built command line, before the prompt (acp: after the `agent` preset's). */
  extraArgs?: readonly string[];
  /** The child's working directory; also the run's `cwd` for paths. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Aborting it ends the child: SIGTERM, then SIGKILL after `killGraceMs` (acp: the turn is cancelled first). */
  signal?: AbortSignal;
  /** How long a child may take to exit after SIGTERM before it gets SIGKILL. Default 5000 ms (acp: 2000). */
  killGraceMs?: number;
  /** What the child reads on stdin; by default it gets none (/dev/null). */
  stdin?: 'ignore' | 'pipe';
  /** Events buffered for the consumer before the child's output is paused. Default 256. */
  highWaterMark?: number;
}

/** How a harness run ended. */
export interface RunResult {
  /** The child's exit code, when it exited on its own. */
  exit_code?: number;
  /** The signal that ended the child, when one did. */
  signal?: NodeJS.Signals;
  /** The caller aborted the run (signal, or destroying the stream). */
  aborted: boolean;
  /** The child could not be started (command not found, ...). */
  spawn_error?: Error;
  /** The harness's run metrics, with the exit code and signal. */
  metrics: RunMetrics;
}

/** A running harness: a readable stream (and async iterable) of its normalized events. */
export interface HarnessRun extends Readable {
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<HarnessEvent>;
  /** The child process (its pid, its stdin when `stdin: 'pipe'`). */
  readonly child: ChildProcess;
  /** The run metrics so far; complete once the stream has ended. */
  readonly metrics: RunMetrics;
  /** Resolves when the run is over and every event has been produced; rejects only when the child could not be started. */
  readonly done: Promise<RunResult>;
  /** Ends the child as an abort does (SIGTERM, then SIGKILL), but lets its remaining output and ending through. */
  stop(): void;
}

/** CSI and OSC escape sequences, and the lone escapes of older terminals. */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

/** Spawns a harness CLI and returns its normalized events as a stream. */
export function spawnHarness(given: SpawnHarnessOptions): HarnessRun {
  const harness = harnessFrom(given.harness);
  const options = harness.launch?.(given) ?? given;
  if (options.command === undefined) throw new TypeError(`spawnHarness: ${harness.name} needs a command${harness.launch ? '' : ' (it has no command line of its own to build from a prompt)'}`);
  let client: HarnessClient | undefined;
  const normalizer: Normalizer = createNormalizer({
    idleFlushMs: 200,
    ...options,
    harness,
    onRecord(record) {
      options.onRecord?.(record);
      client?.record(record);
    },
  });
  const metrics = normalizer.metrics;
  const graceMs = options.killGraceMs ?? 5000;
  let aborted = false;
  // The library ends the child itself (a client's ending): the signal it dies of is no error.
  let ending = false;
  let killTimer: NodeJS.Timeout | undefined;
  let resolveDone!: (result: RunResult) => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<RunResult>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // A caller who only reads events must not crash on an unobserved rejection.
  done.catch(() => {});

  const child = spawn(options.command, options.args ?? [], {
    cwd: options.cwd,
    env: options.env,
    stdio: [harness.client ? 'pipe' : (options.stdin ?? 'ignore'), 'pipe', 'pipe'],
    // Its own process group, so ending the run ends whatever the harness started too.
    detached: true,
  });
  liveChildren.add(child);
  if (child.pid !== undefined) {
    client = harness.client?.(options, {
      stdin: child.stdin!,
      kill(signal) {
        ending = true;
        killGroup(child, signal);
      },
      emit,
    });
  }

  const output = new Readable({
    objectMode: true,
    highWaterMark: options.highWaterMark ?? 256,
    read() {
      normalizer.resume();
      child.stderr?.resume();
    },
    destroy(error, callback) {
      if (!finished) stop();
      // Nobody reads any more: let the child's output drain so the run can still end.
      normalizer.resume();
      child.stderr?.resume();
      callback(error);
    },
  }) as HarnessRun;
  Object.defineProperties(output, {
    child: { value: child, enumerable: true },
    metrics: { value: metrics, enumerable: true },
    done: { value: done, enumerable: true },
    stop: { value: () => stop() },
  });

  function emit(body: EventBody): void {
    if (!output.destroyed) output.push(stamp(body, now(), metrics.session_id));
  }

  normalizer.on('data', (event: HarnessEvent) => {
    if (!output.destroyed && !output.push(event)) normalizer.pause();
  });

  const stderrLines = lineSplitter(
    (line) => {
      // Text the harness printed before this line must not be overtaken by it.
      normalizer.flush();
      const message = typeof line === 'string' ? stripAnsi(line) : `(a stderr line of ${(line as LineTooLong).bytes} bytes, skipped)`;
      emit({ type: 'warning', code: 'stderr', message });
    },
    // Plain text: whole lines only, no encoding sniffing.
    { maxLineBytes: options.maxLineBytes, streamLinesAbove: Number.MAX_SAFE_INTEGER, detectEncoding: false },
  );
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrLines.write(chunk);
    if (!output.destroyed && output.readableLength >= output.readableHighWaterMark) child.stderr!.pause();
  });

  child.stdout!.pipe(normalizer);

  // The run is over when the child has exited and both of its outputs are drained.
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stdoutDone = false;
  let stderrDone = false;
  let finished = false;
  normalizer.on('end', () => {
    stdoutDone = true;
    maybeFinish();
  });
  child.stderr!.on('end', () => {
    stderrLines.end();
    stderrDone = true;
    maybeFinish();
  });
  child.on('exit', (code, signal) => {
    exit = { code, signal };
    client?.exited();
    // After an abort the SIGKILL still goes out when due: what the child started may ignore SIGTERM.
    if (!aborted) clearTimeout(killTimer);
    maybeFinish();
  });
  child.on('error', (error) => {
    // Spawning failed: there is no process, and there will be no exit event.
    if (child.pid !== undefined) return;
    finished = true;
    liveChildren.delete(child);
    emit({ type: 'error', code: 'spawn_failed', message: `could not start ${options.command}: ${(error as NodeJS.ErrnoException).code ?? error.message}` });
    if (!output.destroyed) output.push(null);
    rejectDone(error);
  });
  normalizer.on('error', (error) => {
    stop();
    output.destroy(error);
  });

  function maybeFinish(): void {
    if (finished || !exit || !stdoutDone || !stderrDone) return;
    finished = true;
    liveChildren.delete(child);
    options.signal?.removeEventListener('abort', onAbort);
    if (exit.code !== null) metrics.exit_code = exit.code;
    if (exit.signal !== null) metrics.signal = exit.signal;
    // An exit the harness documents as a stop of its own explains the missing terminal record.
    const stop = exit.code === null ? undefined : harness.exitCodes?.get(exit.code);
    if (metrics.ended === false && stop === undefined) {
      emit({ type: 'warning', code: 'incomplete', message: `${harness.name} ended without its terminal record (${harness.terminal}): the run is incomplete` });
    }
    if (exit.signal !== null && !aborted && !ending) {
      emit({ type: 'error', code: 'killed', message: `${options.command} was killed by ${exit.signal}` });
    } else if (exit.code !== null && exit.code !== 0) {
      emit({ type: 'error', code: 'exit_code', message: `${options.command} exited with code ${exit.code}${stop === undefined ? '' : ` (${stop})`}` });
    }
    if (!output.destroyed) output.push(null);
    resolveDone({ exit_code: exit.code ?? undefined, signal: exit.signal ?? undefined, aborted, metrics });
  }

  /** Ends the child and everything it started: SIGTERM now, SIGKILL after the grace period. */
  function stop(): void {
    if (aborted || finished || child.pid === undefined) return;
    aborted = true;
    if (client) return client.abort();
    killGroup(child, 'SIGTERM');
    killTimer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
    killTimer.unref();
  }

  function onAbort(): void {
    stop();
    // A client ends the run its own way (ACP's cancel), and the events up to that end go on.
    if (!client) output.destroy(abortError(options.signal?.reason));
  }
  if (options.signal?.aborted) queueMicrotask(onAbort);
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  return output;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone: nothing to end.
  }
}

function abortError(reason: unknown): Error {
  const error = new Error('the harness run was aborted', { cause: reason });
  error.name = 'AbortError';
  return Object.assign(error, { code: 'ABORT_ERR' });
}

/** The exit code a shell would report for a run: the child's code, or 128 + the signal's number. */
export function shellExitCode(result: Pick<RunResult, 'exit_code' | 'signal'>): number {
  if (result.exit_code !== undefined) return result.exit_code;
  const number = result.signal ? constants.signals[result.signal] : undefined;
  return number === undefined ? 1 : 128 + number;
}

// Children still running when this process exits are ended with it: no orphans.
const liveChildren = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveChildren) killGroup(child, 'SIGKILL');
});
