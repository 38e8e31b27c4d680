/**
 * Running a harness: the glue every embedder otherwise writes by hand. The child's stdout goes
 * through the harness's normalizer; its stderr lines become warnings; the ending (exit code,
 * signal, missing terminal record, spawn failure, timeout) becomes events; stopping ends the
 * child's whole process group, and nothing in it outlives the run or this process
 * (lib/runtime/run/process-groups.ts). A run is a readable of its events (a reader's pace pauses the
 * child) and `done`, one result or one `HarnessRunError` for every way it can fail
 * (docs/run-contract.md). While nothing reads the events they are kept for the result, bounded in
 * bytes, so awaiting `done` alone never hangs.
 */
import { runFailure } from '../../kernel/failures.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { Readable, finished as onceFinished } from 'node:stream';
import { constants } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { onAbort } from './abort-listeners.js';
import { now } from '../../kernel/clock.js';
import type { EventBody, HarnessEvent, RunMetrics } from '../../kernel/events.js';
import { stamp } from '../../kernel/stamp.js';
import { createNormalizer, type Normalizer } from '../normalizer.js';
import { groupAlive, release, signalEach, signalGroup, strays, track } from './process-groups.js';
import { InputBytes, splitLines, type LineTooLong } from '../../transforms/split-lines.js';
import { harnessFrom } from '../registry.js';
import type { HarnessClient } from '../../kernel/harness.js';
import { permissionDenied } from '../../kernel/permission-denied.js';
import { spawnUnsupported } from './platform.js';
import { HarnessRunError, STDERR_TAIL_BYTES, type RunFailure, type RunOutcome, type RunResult } from './errors.js';
import {
  checkRunOptions,
  childEnv,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_BUFFER_BYTES,
  DEFAULT_MAX_BUFFERED_BYTES,
  type SpawnHarnessOptions,
} from './spawn-options.js';
import { approximateBytes, BufferedBytes } from '../../kernel/byte-size.js';
import { delay } from '../../kernel/limits.js';

export type { SpawnHarnessOptions } from './spawn-options.js';

export { MAX_TIMER_MS } from '../../kernel/limits.js';
export type { RunResult } from './errors.js';

/** A running harness: a readable stream (and async iterable) of its normalized events. */
/**
 * A running harness: a Readable of its events. Besides a Readable's events it emits `'held'` (`{ events, bytes }`)
 * when its reader has fallen `maxBufferedBytes` behind and the child is made to wait (once per hold).
 */
export interface HarnessRun extends Readable {
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<HarnessEvent>;
  /** The child process (its pid, its stdin when `stdin: 'pipe'`); none when nothing was started. */
  readonly child: ChildProcess | undefined;
  /** The run metrics so far; complete once the stream has ended. */
  readonly metrics: RunMetrics;
  /**
   * Settles once the run is over (the child has exited, every event has been produced, no process of its group is
   * left), whether or not anything reads the events: the result, or a `HarnessRunError` for any failure (with
   * `reject: false`, resolved with it).
   */
  readonly done: Promise<RunResult>;
  /**
   * Aborts the run as its signal does (SIGTERM to its process group, SIGKILL after the grace period) but lets its
   * remaining output and ending through. `{ force: true }`: SIGKILL now (a second Ctrl-C).
   */
  stop(options?: { force?: boolean }): void;
}

/** What went wrong first, when something did before the child's exit. */
interface Failure {
  reason: RunFailure;
  detail: string;
  cause?: unknown;
}

/** Spawns a harness CLI and returns its normalized events as a stream. */
export function spawnHarness(given: SpawnHarnessOptions): HarnessRun {
  const unsupported = spawnUnsupported(process.platform);
  if (unsupported !== undefined) throw new Error(unsupported);
  checkRunOptions(given);
  const harness = harnessFrom(given.harness);
  const acpOnly = (['agent', 'exitGraceMs', 'cancelGraceMs'] as const).find((name) => given[name] !== undefined);
  if (harness.name !== 'acp' && acpOnly !== undefined)
    throw new TypeError(`spawnHarness: ${acpOnly} is an option of harness 'acp', not of ${harness.name}`);
  if (!harness.launch && given.permissions !== undefined)
    throw new TypeError(`spawnHarness: ${harness.name} has no command line of its own: permissions do not apply`);
  const options = harness.launch?.(given) ?? given;
  if (options.command === undefined)
    throw new TypeError(
      harness.launch
        ? `spawnHarness: ${harness.name} needs a prompt (its command line is built around it) or a command`
        : `spawnHarness: ${harness.name} needs a command (it has no command line of its own to build from a prompt)`,
    );
  const command = options.command;
  let client: HarnessClient | undefined;
  const normalizer: Normalizer = createNormalizer({
    ...options,
    // `~` in the child's paths is the child's home.
    home: options.home ?? (options.env ?? process.env).HOME,
    env: childEnv(options),
    idleFlushMs: options.idleFlushMs ?? 200,
    harness,
    onRecord(record) {
      options.onRecord?.(record);
      client?.record(record);
    },
  });
  const metrics = normalizer.metrics;
  // Whole milliseconds within a timer's range (Infinity, NaN, -5, 1.5 and 2^31 are refused).
  const graceMs = delay('killGraceMs', options.killGraceMs, DEFAULT_KILL_GRACE_MS, 0);
  const timeoutMs = options.timeoutMs === undefined ? undefined : delay('timeoutMs', options.timeoutMs, 0);
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  // What the events a reader has not taken yet hold, in bytes: past maxBufferedBytes the child waits too.
  const buffered = new BufferedBytes();
  const maxBufferBytes = options.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES;
  let resolveDone!: (result: RunResult) => void;
  let rejectDone!: (error: Error) => void;
  const done = new Promise<RunResult>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  // A caller who only reads events must not crash on an unobserved rejection.
  done.catch(() => {});

  let child: ChildProcess | undefined;
  let finished = false;
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
      child?.stderr?.resume();
      callback(error);
    },
  }) as HarnessRun;
  Object.defineProperties(output, {
    child: { get: () => child, enumerable: true },
    metrics: { value: metrics, enumerable: true },
    done: { value: done, enumerable: true },
    stop: { value: (how?: { force?: boolean }) => stop(how?.force) },
  });

  // Whether anything has started reading the events: a listener, a pipe, an iterator, or a read() of its own.
  let reading = false;
  const read = output.read.bind(output);
  output.read = (size?: number) => {
    // Node's own read(0) only fills the buffer.
    if (size !== 0) reading = true;
    const event: unknown = read(size);
    if (heldBack && !overBytes()) {
      heldBack = false;
      resumeOutput();
    }
    return event;
  };
  // Every reader (async iteration, pipe, read()) takes events through read(): the bytes drop there.
  let heldBack = false;
  // The child is waiting because the reader is maxBufferedBytes behind ('held' was emitted).
  let held = false;
  function overBytes(): boolean {
    buffered.heldNow(output.readableLength);
    return buffered.bytes > maxBufferedBytes;
  }
  function resumeOutput(): void {
    held = false;
    normalizer.resume();
    child?.stderr?.resume();
  }
  const isRead = () => (reading ||= output.readableFlowing !== null);
  // The events kept for the result while nothing reads them; dropped once something does.
  let kept: HarnessEvent[] | undefined = [];
  let keptBytes = 0;
  let overflowed = false;

  /** Sends one event; false when a reader is behind and the child's output must wait. */
  function send(event: HarnessEvent): boolean {
    if (output.destroyed || overflowed) return true;
    if (kept !== undefined && isRead()) kept = undefined;
    // Sized once, for both bounds: a walk of its strings, no JSON text made.
    const size = approximateBytes(event);
    if (kept !== undefined) {
      keptBytes += size;
      if (keptBytes > maxBufferBytes) {
        overflow();
        return true;
      }
      kept.push(event);
    }
    const room = output.push(event);
    buffered.pushed(size, output.readableLength);
    if (kept !== undefined) return true;
    if (buffered.bytes <= maxBufferedBytes) return room;
    // The reader is maxBufferedBytes behind: the child waits, and says so once per hold ('held').
    if (!held) output.emit('held', { events: output.readableLength, bytes: buffered.bytes });
    held = true;
    return false;
  }

  function emit(body: EventBody): void {
    send(stamp(body, now(), metrics.session_id));
  }

  let timedOut = false;
  let aborted = false;
  let failure: Failure | undefined;
  const stderrTail: string[] = [];
  let stderrTailBytes = 0;

  /** Ends the run now: the stream gets its last events and ends, `done` settles. */
  function settle(reason: RunFailure | undefined, outcome: Omit<RunOutcome, 'stderrTail' | 'metrics' | 'events'>) {
    finished = true;
    forgetAbort();
    clearTimeout(timeout);
    if (!output.destroyed) output.push(null);
    const result = {
      ...outcome,
      stderrTail: stderrTail.join('\n'),
      metrics,
      events: isRead() ? undefined : kept,
    };
    if (reason !== undefined) metrics.failure = runFailure(reason, metrics);
    if (reason === undefined) {
      const { cause: _cause, detail: _detail, ...fields } = result;
      return resolveDone({ failed: false, ...fields });
    }
    const error = new HarnessRunError(reason, result);
    if (options.reject === false) resolveDone(error);
    else rejectDone(error);
  }

  const forgetAbort = options.signal
    ? onAbort(options.signal, () => {
        aborted = true;
        stop();
      })
    : () => {};
  const timeout =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          const detail = `${command} ran for longer than timeoutMs (${timeoutMs} ms) and was stopped`;
          failure ??= { reason: 'timeout', detail };
          emit({ type: 'error', code: 'timeout', message: detail });
          stop();
        }, timeoutMs).unref();

  // A run called off before it starts starts nothing, and says so the way every abort does: asynchronously.
  if (options.signal?.aborted) {
    normalizer.end();
    settle('aborted', { isCanceled: true, timedOut: false, cause: options.signal.reason });
    return output;
  }

  try {
    child = spawn(command, options.args ?? [], {
      cwd: options.cwd,
      env: childEnv(options),
      stdio: [harness.client || options.input !== undefined ? 'pipe' : (options.stdin ?? 'ignore'), 'pipe', 'pipe'],
      // Its own process group, so ending the run ends whatever the harness started too.
      detached: true,
    });
  } catch (error) {
    // Node throws at once for some failures (a cwd that is a file): the run fails as one that Node reports later.
    if ((error as NodeJS.ErrnoException).syscall !== 'spawn') throw error;
    startFailed(error as NodeJS.ErrnoException);
    return output;
  }
  const started = child;
  if (options.input !== undefined) {
    // A child that exits without reading it: its exit is what the run reports.
    started.stdin!.on('error', () => {});
    started.stdin!.end(options.input);
  }
  const pgid = started.pid;
  if (pgid !== undefined) {
    track(pgid);
    client = harness.client?.(options, {
      stdin: started.stdin!,
      kill(signal) {
        ending = true;
        signalGroup(pgid, signal);
      },
      emit,
      metrics,
    });
  }

  function startFailed(error: NodeJS.ErrnoException): void {
    normalizer.end();
    const message = startFailure(options, error);
    emit({ type: 'error', code: 'spawn_failed', message });
    settle('spawn_failed', { isCanceled: false, timedOut: false, cause: error, detail: message });
  }

  normalizer.on('data', (event: HarnessEvent) => {
    if (!send(event)) normalizer.pause();
    // After the warning: the client's error follows what it is about.
    if (event.type === 'warning' && event.code === 'line_too_long') client?.lineLost?.();
  });

  // Plain text: whole lines only, no encoding sniffing.
  const stderrLines = splitLines.stage({
    maxLineBytes: options.maxLineBytes,
    streamLinesAbove: Number.MAX_SAFE_INTEGER,
    detectEncoding: false,
  })((line) => {
    if (line instanceof InputBytes) return;
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
    keepStderr(message);
    emit({ type: 'warning', code: 'stderr', message });
    const refusal = harness.stderrRefusal?.(message);
    if (refusal) permissionDenied({ emit, metrics }, refusal);
  });

  /** The last lines of stderr, at most STDERR_TAIL_BYTES of them (a longer last line: its end). */
  function keepStderr(line: string): void {
    const tail = line.length > STDERR_TAIL_BYTES ? line.slice(-STDERR_TAIL_BYTES) : line;
    stderrTail.push(tail);
    stderrTailBytes += Buffer.byteLength(tail) + 1;
    while (stderrTailBytes > STDERR_TAIL_BYTES && stderrTail.length > 1)
      stderrTailBytes -= Buffer.byteLength(stderrTail.shift()!) + 1;
  }

  started.stderr!.on('data', (chunk: Buffer) => {
    stderrLines.write(chunk);
    if (isRead() && !output.destroyed && (output.readableLength >= output.readableHighWaterMark || overBytes()))
      started.stderr!.pause();
  });

  started.stdout!.pipe(normalizer);

  // The run is over when the child has exited, both of its outputs are drained, and its process group is gone.
  let exit: { code: number | null; signal: NodeJS.Signals | null; ours: boolean } | undefined;
  let stdoutDone = false;
  let stderrDone = false;
  let groupDone = pgid === undefined;
  // The library signalled the child itself: a stop, or a client's ending (then never an error of the child's).
  let stopping = false;
  let ending = false;
  let killTimer: NodeJS.Timeout | undefined;
  let groupPoll: NodeJS.Timeout | undefined;
  // What the child started outside its group (Cline's commands), found while it still ran: ended with the group.
  const strayPids = new Set<number>();

  /** Nothing read the events and they passed the bound: the run fails, the child is stopped. */
  function overflow(): void {
    overflowed = true;
    const detail = `nothing read the events of ${command} and they passed maxBufferBytes (${maxBufferBytes} bytes): it was stopped`;
    failure ??= { reason: 'max_buffer', detail };
    output.push(stamp({ type: 'error', code: 'max_buffer', message: detail }, now(), metrics.session_id));
    terminateGroup();
  }

  normalizer.on('end', () => {
    client?.outputEnded?.();
    stdoutDone = true;
    maybeFinish();
  });
  normalizer.on('error', (error) => {
    // A stage threw (a strict schema violation, a throwing onLine): the events stop here, the
    // child is stopped, and its stdout is drained unread so the run can still end.
    failure ??= { reason: 'stage_failed', detail: error.message, cause: error };
    emit({ type: 'error', code: 'stage_failed', message: error.message });
    started.stdout!.unpipe(normalizer);
    started.stdout!.resume();
    onceFinished(started.stdout!, () => {
      stdoutDone = true;
      maybeFinish();
    });
    terminateGroup();
  });
  started.stderr!.on('end', () => {
    stderrLines.end();
    stderrDone = true;
    maybeFinish();
  });
  started.on('exit', (code, signal) => {
    exit = { code, signal, ours: stopping || ending };
    client?.exited();
    settleGroup();
    maybeFinish();
  });
  started.on('error', (error) => {
    // Spawning failed: there is no process, and there will be no exit event.
    if (pgid === undefined) startFailed(error as NodeJS.ErrnoException);
  });

  function maybeFinish(): void {
    if (finished || !exit || !stdoutDone || !stderrDone || !groupDone) return;
    // An ACP conversation decides its own exit code; the client's ending of the agent is no signal of the run's.
    const decided = client?.exitCode?.();
    const exitCode = decided ?? exit.code ?? undefined;
    const signal = decided === undefined ? (exit.signal ?? undefined) : undefined;
    if (exitCode !== undefined) metrics.exit_code = exitCode;
    if (signal !== undefined) metrics.signal = signal;
    // An exit the harness documents as a stop of its own explains the missing terminal record.
    const stopReason = exit.code === null ? undefined : harness.exitCodes?.get(exit.code);
    if (metrics.ended === false && stopReason === undefined) {
      emit({
        type: 'warning',
        code: 'incomplete',
        message: `${harness.name} ended without its terminal record (${harness.terminal}): the run is incomplete`,
      });
    }
    let reason = failure?.reason ?? (aborted ? 'aborted' : undefined);
    let detail = failure?.detail ?? (aborted ? `${command} was stopped: the run was aborted` : undefined);
    if (signal !== undefined && !exit.ours) {
      detail = `${command} was killed by ${signal}`;
      emit({ type: 'error', code: 'killed', message: detail });
      reason ??= 'killed';
    } else if (exitCode !== undefined && exitCode !== 0) {
      const message =
        decided === undefined
          ? `${command} exited with code ${exitCode}${stopReason === undefined ? '' : ` (${stopReason})`}`
          : `the conversation with ${command} ended with exit code ${exitCode}`;
      // A conversation's ending already has its events (the stop reason's warning, the error response).
      if (decided === undefined) emit({ type: 'error', code: 'exit_code', message });
      if (reason === undefined) [reason, detail] = ['exit_code', message];
    }
    settle(reason, {
      exitCode,
      signal,
      isCanceled: aborted && !timedOut,
      timedOut,
      cause: failure?.cause,
      detail,
    });
  }

  /** SIGTERM to the whole group now, SIGKILL when the grace period is over (or at once with `force`). */
  function terminateGroup(force = false): void {
    if (groupDone) return;
    if (!stopping) {
      stopping = true;
      signalTree('SIGTERM');
      killTimer = setTimeout(killGroup, graceMs);
    }
    if (force) killGroup();
  }

  function killGroup(): void {
    signalTree('SIGKILL');
    endGroup();
  }

  /** The group, and the processes the child started outside it (looked up while the child is there to ask). */
  function signalTree(signal: NodeJS.Signals): void {
    if (exit === undefined) for (const pid of strays(pgid!, pgid!)) strayPids.add(pid);
    signalEach(strayPids, signal);
    signalGroup(pgid!, signal);
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
   * The caller's abort (its signal, `stop()`, destroying the stream, or the timeout): ends the child and everything
   * it started. A client ends the run its own way (ACP's cancel, then its own SIGTERM and SIGKILL), unless the stop is
   * forced or a stage failed (the client no longer hears the child).
   */
  function stop(force = false): void {
    if (finished || child?.pid === undefined) return;
    aborted = true;
    if (client && !force && failure?.reason !== 'stage_failed') return client.abort();
    terminateGroup(force);
  }

  return output;
}

/** The message for a child that could not be started; it names the working directory when that is the cause. */
function startFailure(options: SpawnHarnessOptions, error: NodeJS.ErrnoException): string {
  const directory = options.cwd === undefined ? undefined : unusableDirectory(options.cwd);
  const reason = directory
    ? `cannot enter its working directory ${options.cwd} (${directory})`
    : (error.code ?? error.message);
  return `could not start ${options.command}: ${reason}`;
}

/** Why a directory cannot be a child's working directory (ENOENT, ENOTDIR, ...), or undefined when it can. */
function unusableDirectory(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : 'ENOTDIR';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'ENOENT';
  }
}

/** The exit code a shell would report for a run: the child's code, or 128 + the signal's number. */
export function shellExitCode(result: Pick<RunResult, 'exitCode' | 'signal'>): number {
  if (result.exitCode !== undefined) return result.exitCode;
  const number = result.signal ? constants.signals[result.signal] : undefined;
  return number === undefined ? 1 : 128 + number;
}
