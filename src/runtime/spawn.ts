/**
 * Running a harness: the glue every embedder otherwise writes by hand. The child's stdout goes
 * through the harness's normalizer; its stderr lines become warnings; the ending (exit code,
 * signal, missing terminal record, spawn failure) becomes events; stopping ends the child's
 * whole process group, and nothing in it outlives the run or this process
 * (src/runtime/process-groups.ts); a slow consumer pauses the child instead of filling memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { Readable, finished as onceFinished } from 'node:stream';
import { constants } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { onAbort } from './abort-listeners.js';
import { now } from '../kernel/clock.js';
import type { EventBody, HarnessEvent, RunMetrics } from '../kernel/events.js';
import { stamp } from '../kernel/stamp.js';
import { approximateBytes, BufferedBytes } from '../kernel/byte-size.js';
import { limit } from '../kernel/limits.js';
import { createNormalizer, type NormalizeOptions, type Normalizer } from './normalizer.js';
import { groupAlive, release, signalGroup, track } from './process-groups.js';
import { lineSplitter, LineTooLong } from '../stages/split-lines.js';
import { harnessFrom } from './registry.js';
import type { AcpOptions } from '../harnesses/acp/client.js';
import type { HarnessClient, LaunchOptions } from '../kernel/harness.js';

export interface SpawnHarnessOptions extends Omit<NormalizeOptions, 'output'>, LaunchOptions, AcpOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * Aborting it ends the child: SIGTERM, then SIGKILL after `killGraceMs` (acp: the turn is cancelled first). Already
   * aborted: nothing is started.
   */
  signal?: AbortSignal;
  /** What the child reads on stdin; by default it gets none (/dev/null). */
  stdin?: 'ignore' | 'pipe';
  /** Events buffered for the consumer before the child's output is paused. Default 256. */
  highWaterMark?: number;
  /**
   * Bytes of events (roughly, their strings' lengths) buffered for the consumer before the child's output is paused,
   * whatever their count. Default 64 MiB: a consumer that stalls holds at most this (plus the event that crossed it).
   */
  maxBufferedBytes?: number;
}

export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** The longest delay a Node timer holds; a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** killGraceMs, checked: whole milliseconds from 0 to MAX_TIMER_MS (Infinity, NaN, -5, 1.5 and 2^31 are refused). */
function graceOf(value: number | undefined): number {
  if (value === undefined) return 5000;
  if (!Number.isInteger(value) || value < 0 || value > MAX_TIMER_MS)
    throw new RangeError(`killGraceMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${value}`);
  return value;
}

/** How a harness run ended. */
export interface RunResult {
  /** The child's exit code, when it exited on its own. */
  exit_code?: number;
  /** The signal that ended the child, when one did. */
  signal?: NodeJS.Signals;
  /** The caller aborted the run (signal, `stop()`, or destroying the stream). */
  aborted: boolean;
  /**
   * The normalizer failed (a `strict` schema violation, a throwing `onLine`): the stream ended with this error and the
   * child was stopped.
   */
  error?: Error;
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
  /**
   * Settles when the run is over: the child has exited, every event has been produced, and no
   * process of its group is left. Always settles; rejects only when the child could not be started.
   */
  readonly done: Promise<RunResult>;
  /**
   * Ends the child as an abort does (SIGTERM to its process group, SIGKILL after the grace
   * period) but lets its remaining output and ending through. `{ force: true }`: SIGKILL now
   * (a second Ctrl-C).
   */
  stop(options?: { force?: boolean }): void;
}

/** Spawns a harness CLI and returns its normalized events as a stream. */
export function spawnHarness(given: SpawnHarnessOptions): HarnessRun {
  // Nothing is started for a run that is already called off.
  if (given.signal?.aborted) throw abortError(given.signal.reason);
  const harness = harnessFrom(given.harness);
  const options = harness.launch?.(given) ?? given;
  if (options.command === undefined)
    throw new TypeError(
      `spawnHarness: ${harness.name} needs a ` +
        `command${harness.launch ? '' : ' (it has no command line of its own to build from a prompt)'}`,
    );
  const command = options.command;
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
  const graceMs = graceOf(options.killGraceMs);
  const maxBufferedBytes = limit('maxBufferedBytes', options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES);
  const buffered = new BufferedBytes();
  // The library ends the child itself (a client's ending): the signal it dies of is no error.
  let ending = false;
  let resolveDone!: (result: RunResult) => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<RunResult>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // A caller who only reads events must not crash on an unobserved rejection.
  done.catch(() => {});

  let child: ChildProcess;
  try {
    child = spawn(command, options.args ?? [], {
      cwd: options.cwd,
      env: options.env,
      stdio: [harness.client ? 'pipe' : (options.stdin ?? 'ignore'), 'pipe', 'pipe'],
      // Its own process group, so ending the run ends whatever the harness started too.
      detached: true,
    });
  } catch (error) {
    // Node throws at once for some failures (a cwd that is a file): say what could not be started, and where.
    if ((error as NodeJS.ErrnoException).syscall === 'spawn')
      throw startFailure(options, error as NodeJS.ErrnoException);
    throw error;
  }
  const pgid = child.pid;
  if (pgid !== undefined) {
    track(pgid);
    client = harness.client?.(options, {
      stdin: child.stdin!,
      kill(signal) {
        ending = true;
        signalGroup(pgid, signal);
      },
      emit,
    });
  }

  const output = new Readable({
    objectMode: true,
    highWaterMark: options.highWaterMark ?? 256,
    read() {
      // Node asks for more whenever fewer than highWaterMark events wait; past the bytes, only a read resumes it.
      if (overBytes()) heldBack = true;
      else resumeOutput();
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
    stop: { value: (how?: { force?: boolean }) => stop(how?.force) },
  });

  /** Pushes an event for the reader; false when the buffer is full, by count or by bytes. */
  function deliver(event: HarnessEvent): boolean {
    if (output.destroyed) return true;
    const room = output.push(event);
    buffered.pushed(approximateBytes(event), output.readableLength);
    return room && buffered.bytes <= maxBufferedBytes;
  }

  function overBytes(): boolean {
    buffered.heldNow(output.readableLength);
    return buffered.bytes > maxBufferedBytes;
  }
  function resumeOutput(): void {
    normalizer.resume();
    child.stderr?.resume();
  }
  // Every consumer (async iteration, pipe, read()) takes events through read(): the bytes drop there.
  let heldBack = false;
  const readEvent = output.read.bind(output);
  output.read = (size?: number) => {
    const event: unknown = readEvent(size);
    if (heldBack && !overBytes()) {
      heldBack = false;
      resumeOutput();
    }
    return event;
  };

  function emit(body: EventBody): void {
    deliver(stamp(body, now(), metrics.session_id));
  }

  normalizer.on('data', (event: HarnessEvent) => {
    if (!deliver(event)) normalizer.pause();
    // After the warning: the client's error follows what it is about.
    if (event.type === 'warning' && event.code === 'line_too_long') client?.lineLost?.();
  });

  const stderrLines = lineSplitter(
    (line) => {
      // Text the harness printed before this line must not be overtaken by it.
      try {
        normalizer.flush();
      } catch (error) {
        normalizer.destroy(error as Error);
      }
      const message =
        typeof line === 'string'
          ? stripVTControlCharacters(line)
          : `(a stderr line of ${(line as LineTooLong).bytes} bytes, skipped)`;
      emit({ type: 'warning', code: 'stderr', message });
    },
    // Plain text: whole lines only, no encoding sniffing.
    { maxLineBytes: options.maxLineBytes, streamLinesAbove: Number.MAX_SAFE_INTEGER, detectEncoding: false },
  );
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrLines.write(chunk);
    if (!output.destroyed && (output.readableLength >= output.readableHighWaterMark || overBytes()))
      child.stderr!.pause();
  });

  child.stdout!.pipe(normalizer);

  // The run is over when the child has exited, both of its outputs are drained, and its process group is gone.
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stdoutDone = false;
  let stderrDone = false;
  let groupDone = pgid === undefined;
  let finished = false;
  let aborted = false;
  let stopping = false;
  let failure: Error | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let groupPoll: NodeJS.Timeout | undefined;

  normalizer.on('end', () => {
    client?.outputEnded?.();
    stdoutDone = true;
    maybeFinish();
  });
  normalizer.on('error', (error) => {
    // A stage threw (a strict schema violation, a throwing onLine): the events stop here, the
    // child is stopped, and its stdout is drained unread so the run can still end.
    failure = error;
    child.stdout!.unpipe(normalizer);
    child.stdout!.resume();
    onceFinished(child.stdout!, () => {
      stdoutDone = true;
      maybeFinish();
    });
    stop();
    output.destroy(error);
  });
  child.stderr!.on('end', () => {
    stderrLines.end();
    stderrDone = true;
    maybeFinish();
  });
  child.on('exit', (code, signal) => {
    exit = { code, signal };
    client?.exited();
    settleGroup();
    maybeFinish();
  });
  child.on('error', (error) => {
    // Spawning failed: there is no process, and there will be no exit event.
    if (pgid !== undefined) return;
    finished = true;
    forgetAbort();
    const failed = startFailure(options, error as NodeJS.ErrnoException);
    emit({ type: 'error', code: 'spawn_failed', message: failed.message });
    if (!output.destroyed) output.push(null);
    rejectDone(failed);
  });

  function maybeFinish(): void {
    if (finished || !exit || !stdoutDone || !stderrDone || !groupDone) return;
    finished = true;
    forgetAbort();
    if (exit.code !== null) metrics.exit_code = exit.code;
    if (exit.signal !== null) metrics.signal = exit.signal;
    // An exit the harness documents as a stop of its own explains the missing terminal record.
    const stop = exit.code === null ? undefined : harness.exitCodes?.get(exit.code);
    if (metrics.ended === false && stop === undefined) {
      emit({
        type: 'warning',
        code: 'incomplete',
        message: `${harness.name} ended without its terminal record (${harness.terminal}): the run is incomplete`,
      });
    }
    if (exit.signal !== null && !aborted && !ending) {
      emit({ type: 'error', code: 'killed', message: `${options.command} was killed by ${exit.signal}` });
    } else if (exit.code !== null && exit.code !== 0) {
      emit({
        type: 'error',
        code: 'exit_code',
        message: `${options.command} exited with code ${exit.code}${stop === undefined ? '' : ` (${stop})`}`,
      });
    }
    if (!output.destroyed) output.push(null);
    resolveDone({
      exit_code: exit.code ?? undefined,
      signal: exit.signal ?? undefined,
      aborted,
      error: failure,
      metrics,
    });
  }

  /** SIGTERM to the whole group now, SIGKILL when the grace period is over (or at once with `force`). */
  function terminateGroup(force = false): void {
    if (groupDone) return;
    if (!stopping) {
      stopping = true;
      signalGroup(pgid!, 'SIGTERM');
      killTimer = setTimeout(killGroup, graceMs);
    }
    if (force) killGroup();
  }

  function killGroup(): void {
    signalGroup(pgid!, 'SIGKILL');
    endGroup();
  }

  function endGroup(): void {
    groupDone = true;
    clearTimeout(killTimer);
    clearInterval(groupPoll);
    release(pgid!);
    maybeFinish();
  }

  /**
   * Once the child has exited, what is left of its group (what it started and did not end)
   * is ended too; the run is over when the group is empty or has had its SIGKILL.
   */
  function settleGroup(): void {
    if (groupDone) return;
    if (!groupAlive(pgid!)) return endGroup();
    terminateGroup();
    // Nothing announces that the last process of a group has gone: look now and then.
    groupPoll ??= setInterval(() => {
      if (!groupAlive(pgid!)) endGroup();
    }, 100);
  }

  /**
   * Ends the child and everything it started; the caller's doing, unless a stage failed. A
   * client ends the run its own way (ACP's cancel, then its own SIGTERM and SIGKILL), unless
   * the stop is forced or a stage failed (the client no longer hears the child).
   */
  function stop(force = false): void {
    if (finished || pgid === undefined) return;
    if (failure === undefined) aborted = true;
    if (client && !force && failure === undefined) return client.abort();
    terminateGroup(force);
  }

  const forgetAbort = options.signal
    ? onAbort(options.signal, () => {
        stop();
        // With a client the events up to its ending go on.
        if (!client) output.destroy(abortError(options.signal!.reason));
      })
    : () => {};

  return output;
}

/** The error for a child that could not be started; it names the working directory when that is the cause. */
function startFailure(options: SpawnHarnessOptions, error: NodeJS.ErrnoException): Error {
  const directory = options.cwd === undefined ? undefined : unusableDirectory(options.cwd);
  const reason = directory
    ? `cannot enter its working directory ${options.cwd} (${directory})`
    : (error.code ?? error.message);
  return Object.assign(new Error(`could not start ${options.command}: ${reason}`, { cause: error }), {
    code: directory ?? error.code,
  });
}

/** Why a directory cannot be a child's working directory (ENOENT, ENOTDIR, ...), or undefined when it can. */
function unusableDirectory(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : 'ENOTDIR';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'ENOENT';
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
