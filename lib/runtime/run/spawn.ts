/**
 * Running a harness: the glue every embedder otherwise writes by hand. The child's stdout goes through the harness's
 * normalizer; its stderr lines become warnings; the ending (exit code, signal, missing terminal record, spawn failure,
 * timeout, budget) becomes events; stopping ends the child's whole process group, and nothing in it outlives the run
 * or this process (lib/runtime/run/process-groups.ts). A run is a readable of its events (a reader's pace pauses the
 * child) and `done`, one result or one `HarnessRunError` for every way it can fail (docs/run-contract.md). While
 * nothing reads the events they are kept for the result, bounded in bytes, so awaiting `done` alone never hangs.
 *
 * This file joins the parts: output.ts (the stream and its bounds), stderr.ts, terminate.ts (signals and the group),
 * ending.ts (the exit decision, pure), budget.ts, result.ts (`done`) and readers.ts (stdout's reader and the file
 * joined to it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { finished as onceFinished, type Readable } from 'node:stream';
import { watchDeadlines, type LimitError } from './deadlines.js';
import { now } from '../../kernel/clock.js';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import { stamp } from '../../kernel/stamp.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { outputEnds, signalGroup, track } from './process-groups.js';
import type { HarnessClient } from '../../kernel/harness.js';
import { permissionDenied } from '../../kernel/permission-denied.js';
import { runFailure } from '../../kernel/failures.js';
import type { RunFailure, RunOutcome, RunResult } from './errors.js';
import { childEnv, byteBounds, DEFAULT_KILL_GRACE_MS, launch, type SpawnHarnessOptions } from './spawn-options.js';
import { delay } from '../../kernel/limits.js';
import { createRunOutput, keptItems, type RunItem } from './output.js';
import { stderrLines } from './stderr.js';
import { createTermination, type Termination } from './terminate.js';
import { decideEnding, type Failure } from './ending.js';
import { approvalsOf, createDone, startFailure } from './result.js';
import { createReaders } from './readers.js';
import { watchBudget } from './budget.js';

export type { SpawnHarnessOptions } from './spawn-options.js';
export { shellExitCode } from './result.js';
export { MAX_TIMER_MS } from '../../kernel/limits.js';
export type { RunResult } from './errors.js';

/**
 * A running harness: a Readable of its events. Besides a Readable's events it emits `'held'` (`{ events, bytes }`)
 * when its reader has fallen `highWaterMarkBytes` behind and the child is made to wait (once per hold).
 */
export interface HarnessRun<Item = HarnessEvent> extends Readable {
  /**
   * Iterates the run's events (with `trace: true`, its trace records) as they leave (a slow loop pauses the child); a
   * failure ends it with the error.
   */
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<Item>;
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

/** What `settle` adds to every ending's outcome. */
type Told = 'stderrTail' | 'metrics' | 'events' | 'command' | 'cwd' | 'durationMs' | 'approvals';

/**
 * Spawns a harness CLI with the command line its harness needs and returns its normalized events as a stream, and
 * `done`: one result, or one `HarnessRunError` for every way the run can fail (docs/run-contract.md). Stopping,
 * aborting or a timeout ends the child's whole process group. Nothing approves the agent's tool calls unless
 * `permissions` asks for it. Options of the wrong kind throw a TypeError at once.
 *
 * @example
 * ```ts
 * import { spawnHarness, HarnessRunError } from 'harness-events';
 *
 * const run = spawnHarness({ harness: 'gemini', prompt: 'fix the tests', cwd: '/repo', timeoutMs: 600_000 });
 * for await (const event of run) console.log(event.type);
 * try {
 *   const { exitCode, metrics } = await run.done;
 *   console.log(exitCode, metrics.tokens);
 * } catch (error) {
 *   if (error instanceof HarnessRunError) console.error(error.code, error.command, error.durationMs);
 *   else throw error;
 * }
 * ```
 */
export function spawnHarness(given: SpawnHarnessOptions & { trace?: false }): HarnessRun;
/**
 * Spawns a harness CLI and gives the trace stream (docs/contract.md "Trace stream"): its events, each in an `event`
 * record, between lifecycle records; `done`'s result keeps both `events` and `trace` when nothing read the stream.
 */
export function spawnHarness(given: SpawnHarnessOptions & { trace: true }): HarnessRun<TraceRecord>;
/** Spawns a harness CLI, its events or trace records chosen at run time (`trace`). */
export function spawnHarness(given: SpawnHarnessOptions & { trace?: boolean }): HarnessRun<RunItem>;
export function spawnHarness(given: SpawnHarnessOptions & { trace?: boolean }): HarnessRun<RunItem> {
  const { harness, options, command, startClient, startsSession } = launch(given);
  const { model } = options;
  const budget = watchBudget(options.budget, { harness: harness.name, model, command, companion: !!harness.companion });
  let client: HarnessClient | undefined;
  const { normalizer, metrics, trace, joined, flushStdout, emit } = createReaders(harness, options, startsSession, {
    record(record) {
      client?.record(record);
      budget?.record(record, limitReached);
    },
    send: (item) => output.send(item),
    settled: () => maybeFinish(),
    modelCall: (call) => budget?.call(call, limitReached),
  });
  // Whole milliseconds within a timer's range (Infinity, NaN, -5, 1.5 and 2^31 are refused).
  const graceMs = delay('killGraceMs', options.killGraceMs, DEFAULT_KILL_GRACE_MS, 0);
  const timeoutMs = options.timeoutMs === undefined ? undefined : delay('timeoutMs', options.timeoutMs, 0);
  const { maxResultBytes, named, highWaterMarkBytes } = byteBounds(options);
  const startedAt = performance.now();
  const argv = [command, ...(options.args ?? [])];
  const cwd = resolve(options.cwd ?? '.');
  const done = createDone(options.reject !== false);

  let child: ChildProcess | undefined;
  let termination: Termination | undefined;
  let finished = false;
  const output = createRunOutput({
    highWaterMark: options.highWaterMark ?? 256,
    highWaterMarkBytes,
    maxResultBytes,
    resume() {
      normalizer.resume();
      child?.stderr?.resume();
    },
    destroyed() {
      if (!finished) stop();
      // Nobody reads any more: let the child's output drain so the run can still end.
      normalizer.resume();
      child?.stderr?.resume();
    },
    overflowed() {
      // Nothing read the events and they passed the bound: the run fails, the child is stopped.
      const detail =
        `nothing read the events of ${command} and they passed ${named} (${maxResultBytes} bytes): ` + 'it was stopped';
      failure ??= { reason: 'max_buffer', detail };
      const event = stamp({ type: 'error', code: 'max_buffer', message: detail }, now(), metrics.session_id);
      if (trace) trace.event(event, output.pushLast);
      else output.pushLast(event);
      termination?.terminate();
    },
  });
  const run = output.stream as HarnessRun<RunItem>;
  Object.defineProperties(run, {
    child: { get: () => child, enumerable: true },
    metrics: { value: metrics, enumerable: true },
    done: { value: done.promise, enumerable: true },
    stop: { value: (how?: { force?: boolean }) => stop(how?.force) },
  });

  let limit: 'timeout' | 'budget' | undefined;
  let aborted = false;
  let failure: Failure | undefined;
  const stderr = stderrLines({
    maxLineBytes: options.maxLineBytes,
    before: flushStdout,
    emit,
    after(message) {
      const refusal = harness.stderrRefusal?.(message);
      if (refusal) permissionDenied({ emit, metrics }, refusal);
    },
  });

  /** Ends the run now: the stream gets its last events and ends, `done` settles. */
  function settle(reason: RunFailure | undefined, outcome: Omit<RunOutcome, Told>) {
    finished = true;
    forgetDeadlines();
    termination?.dispose();
    if (reason !== undefined) metrics.failure = runFailure(reason, metrics);
    trace?.finish(metrics.failure, outcome.exitCode, output.send);
    if (!run.destroyed) run.push(null);
    const durationMs = Math.round(performance.now() - startedAt);
    const told = { stderrTail: stderr.tail(), metrics, command: argv, cwd, durationMs, ...budget?.told(metrics) };
    done.settle(reason, { ...outcome, ...told, ...keptItems(output.kept()), ...approvalsOf(client) });
  }

  const forgetDeadlines = watchDeadlines({
    signal: options.signal,
    timeoutMs,
    aborted() {
      aborted = true;
      stop();
    },
    command,
    timedOut: limitReached,
  });

  /** A bound the caller set (`limit`: the timeout, the budget) fails the run with its error and stops the child. */
  function limitReached(error: LimitError): void {
    limit ??= error.code;
    failure ??= { reason: error.code, detail: error.message };
    emit(error);
    stop();
  }

  // A run called off before it starts starts nothing, and says so the way every abort does: asynchronously.
  if (options.signal?.aborted) {
    normalizer.end();
    settle('aborted', { isCanceled: true, timedOut: false, cause: options.signal.reason });
    return run;
  }
  try {
    child = spawn(command, options.args ?? [], {
      cwd: options.cwd,
      env: childEnv(options),
      stdio: [startClient || options.input !== undefined ? 'pipe' : (options.stdin ?? 'ignore'), 'pipe', 'pipe'],
      // Its own process group, so ending the run ends whatever the harness started too.
      detached: true,
    });
  } catch (error) {
    // Node throws at once for some failures (a cwd that is a file): the run fails as one that Node reports later.
    if ((error as NodeJS.ErrnoException).syscall !== 'spawn') throw error;
    startFailed(error as NodeJS.ErrnoException);
    return run;
  }
  const started = child;
  if (options.input !== undefined) {
    // A child that exits without reading it: its exit is what the run reports.
    started.stdin!.on('error', () => {});
    started.stdin!.end(options.input);
  }
  const stdout = started.stdout!;
  const stderrPipe = started.stderr!;

  // The run is over when the child has exited, both of its outputs are drained, and its process group is gone.
  let exit: { code: number | null; signal: NodeJS.Signals | null; ours: boolean } | undefined;
  let stdoutDone = false;
  let stderrDone = false;
  // A client's ending of the child (never an error of the child's).
  let ending = false;
  if (started.pid !== undefined) {
    const pgid = started.pid;
    track(pgid);
    // Named now, while the child holds them: what escapes its group with them is found by them.
    const ends = outputEnds(pgid);
    termination = createTermination({
      pgid,
      graceMs,
      exited: () => exit !== undefined,
      openPipes: () =>
        [stdoutDone ? undefined : ends.stdout, stderrDone ? undefined : ends.stderr].flatMap((end) => end ?? []),
      reading: () => !stdoutDone || !stderrDone,
      closePipes,
      groupEnded: maybeFinish,
    });
    client = startClient?.(options, {
      stdin: started.stdin!,
      kill(signal) {
        ending = true;
        signalGroup(pgid, signal);
      },
      emit,
      metrics,
      trace: trace && ((record) => trace.permission(record, output.send)),
    });
  }

  function startFailed(error: NodeJS.ErrnoException): void {
    normalizer.end();
    const message = startFailure(command, options.cwd, error);
    emit({ type: 'error', code: 'spawn_failed', message });
    settle('spawn_failed', { isCanceled: false, timedOut: false, cause: error, detail: message });
  }

  normalizer.on('data', (item: RunItem) => {
    if (!output.send(item)) normalizer.pause();
    // After the warning: the client's error follows what it is about.
    const event = 'kind' in item ? (item.kind === 'event' ? item.event : undefined) : item;
    if (event?.type === 'warning' && event.code === 'line_too_long') client?.lineLost?.();
    if (event) budget?.see(event, limitReached);
  });
  stderrPipe.on('data', (chunk: Buffer) => {
    stderr.write(chunk);
    if (output.full()) stderrPipe.pause();
  });
  stdout.pipe(normalizer);

  /** Past the deadline, what escaped the group still holds the pipes: they are read no more. */
  function closePipes(): void {
    if (!stdoutDone) {
      stdout.unpipe(normalizer);
      stdout.destroy();
      normalizer.end();
    }
    if (!stderrDone) {
      stderrPipe.destroy();
      stderr.end();
      stderrDone = true;
      maybeFinish();
    }
  }

  normalizer.on('end', () => {
    client?.outputEnded?.();
    stdoutDone = true;
    maybeFinish();
  });
  normalizer.on('error', (error) => {
    // A stage threw (a strict schema violation, a throwing onLine): the events stop here, the child is stopped, and
    // its stdout is drained unread so the run can still end.
    failure ??= { reason: 'stage_failed', detail: error.message, cause: error };
    emit({ type: 'error', code: 'stage_failed', message: error.message });
    stdout.unpipe(normalizer);
    stdout.resume();
    onceFinished(stdout, () => {
      stdoutDone = true;
      maybeFinish();
    });
    termination?.terminate();
  });
  stderrPipe.on('end', () => {
    stderr.end();
    stderrDone = true;
    maybeFinish();
  });
  started.on('exit', (code, signal) => {
    exit = { code, signal, ours: termination?.stopping === true || ending };
    joined?.exited();
    client?.exited();
    termination?.childExited();
    maybeFinish();
  });
  started.on('error', (error) => {
    // Spawning failed: there is no process, and there will be no exit event.
    if (started.pid === undefined) startFailed(error as NodeJS.ErrnoException);
  });

  function maybeFinish(): void {
    if (finished || !exit || !stdoutDone || !stderrDone || termination?.groupDone === false || joined?.done === false)
      return;
    budget?.settled(limitReached);
    const decided = client?.exitCode?.();
    const ended = metrics.ended !== false;
    const { exitCode, signal, events, reason, detail } = decideEnding({
      command,
      harness,
      exit,
      decided,
      ended,
      failure,
      aborted,
    });
    if (exitCode !== undefined) metrics.exit_code = exitCode;
    if (signal !== undefined) metrics.signal = signal;
    for (const body of events) emit(body);
    const [isCanceled, timedOut] = [aborted && limit === undefined, limit === 'timeout'];
    settle(reason, { exitCode, signal, isCanceled, timedOut, cause: failure?.cause, detail });
  }

  /**
   * The caller's abort (its signal, `stop()`, destroying the stream, or the timeout): ends the child and everything
   * it started. A client ends the run its own way (ACP's cancel, then its own SIGTERM and SIGKILL), unless the stop is
   * forced or a stage failed (the client no longer hears the child).
   */
  function stop(force = false): void {
    if (finished || child?.pid === undefined) return;
    aborted = true;
    if (client && !force && failure?.reason !== 'stage_failed' && client.abort() !== 'terminate') return;
    termination?.terminate(force);
  }

  return run;
}
