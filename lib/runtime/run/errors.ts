/**
 * How a run ended, as its promise says it (docs/run-contract.md): one result, and one error class
 * for every way it can fail. The events say the same thing in the stream; this is the summary.
 */
import type { ApprovalCounts } from '../../kernel/asker.js';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import type { TraceRecord } from '../../kernel/trace.js';
import type { Spent } from './budget.js';

/**
 * The ways a run fails (a `HarnessRunError`'s `reason`), each with the sentence its error message starts with.
 *
 * @enum
 */
export const failures = {
  spawn_failed: 'the harness could not be started',
  exit_code: 'the harness exited with a non-zero code',
  killed: 'the harness was killed by a signal the library did not send',
  aborted: 'the run was aborted',
  timeout: 'the run took longer than timeoutMs',
  stage_failed: 'the normalizer failed',
  max_buffer: 'nothing read the events and they passed maxResultBytes',
  budget: 'the run used more than its budget',
} as const;

/** Why a run failed: a key of {@link failures} (`exit_code`, `timeout`, ...). */
export type RunFailure = keyof typeof failures;

/**
 * The stable code of each failure, the error's `code` (as Node's own errors have): what logs and alerts match on.
 *
 * @enum
 */
export const failureCodes = {
  spawn_failed: 'ERR_HARNESS_SPAWN_FAILED',
  exit_code: 'ERR_HARNESS_EXIT_CODE',
  killed: 'ERR_HARNESS_KILLED',
  aborted: 'ERR_HARNESS_ABORTED',
  timeout: 'ERR_HARNESS_TIMEOUT',
  stage_failed: 'ERR_HARNESS_STAGE_FAILED',
  max_buffer: 'ERR_HARNESS_MAX_BUFFER',
  budget: 'ERR_HARNESS_BUDGET',
} as const satisfies Record<RunFailure, `ERR_HARNESS_${string}`>;

/** What a finished run reports, whether it succeeded (`failed: false`) or not. */
export interface RunResult {
  /** Whether the run failed; `reject: false` resolves with the `HarnessRunError` then. */
  readonly failed: boolean;
  /** The exit code: the child's own, or for ACP the one its ending decides (`acp.md`, "How the run ends"). */
  readonly exitCode?: number;
  /** The signal that ended the child when it was not the library's own ending of it. */
  readonly signal?: NodeJS.Signals;
  /** The caller aborted the run (its `signal`, `stop()`, or destroying the stream). */
  readonly isCanceled: boolean;
  /** The run was stopped at `timeoutMs`. */
  readonly timedOut: boolean;
  /** With a `budget`: what the run used (its usage events', priced), whether or not it passed the budget. */
  readonly spent?: Spent;
  /** The last lines the child printed on standard error (at most `STDERR_TAIL_BYTES`). */
  readonly stderrTail: string;
  /** The harness's run metrics, with the exit code and signal. */
  readonly metrics: RunMetrics;
  /** Every event, when nothing read the stream (see `maxResultBytes`); otherwise the reader had them. */
  readonly events?: HarnessEvent[];
  /** With `trace: true`, every trace record, when nothing read the stream (the events are also in `events`). */
  readonly trace?: TraceRecord[];
  /** What was run: the program and its arguments. */
  readonly command: readonly string[];
  /** The working directory it was run in. */
  readonly cwd: string;
  /** From `spawnHarness` to the end of the run, in milliseconds. */
  readonly durationMs: number;
  /** With `permissions: 'ask'`: the calls asked about, allowed and denied (docs/library.md "Approvals"). */
  readonly approvals?: ApprovalCounts;
}

/** How much of the child's stderr a result keeps: its last lines, up to this many bytes. */
export const STDERR_TAIL_BYTES = 8192;

/** How a run ended, as the run's parts hand it to the `HarnessRunError` (or the result) they settle `done` with. */
export interface RunOutcome extends Omit<RunResult, 'failed'> {
  /** A spawn failure's error, or a stage's. */
  readonly cause?: unknown;
  /** The message, when there is more to say than the failure's sentence (which command, which code). */
  readonly detail?: string;
}

/**
 * The one error a run rejects with, whatever failed; with `reject: false` it is the result instead. Its `events` (up
 * to `maxResultBytes`) are not enumerable: a logger that serializes errors writes the rest, not them.
 *
 * @example
 * ```ts
 * try {
 *   await spawnHarness({ harness: 'codex', prompt: 'fix the tests', cwd: '/repo', timeoutMs: 600_000 }).done;
 * } catch (error) {
 *   if (!(error instanceof HarnessRunError)) throw error;
 *   // code: ERR_HARNESS_TIMEOUT, ERR_HARNESS_EXIT_CODE, ...; reason: timeout, exit_code, ...
 *   console.error(error.code, error.command.join(' '), error.cwd, `${error.durationMs} ms`, error.message);
 *   if (error.reason === 'exit_code') console.error(error.exitCode, error.stderrTail);
 * }
 * ```
 */
export class HarnessRunError extends Error implements RunResult {
  readonly failed = true;
  /** Why the run failed: one of {@link failures}. */
  readonly reason: RunFailure;
  /** The failure's stable code (`ERR_HARNESS_TIMEOUT`, ...: {@link failureCodes}), what logs and alerts match on. */
  readonly code: (typeof failureCodes)[RunFailure];
  declare readonly exitCode?: number;
  declare readonly signal?: NodeJS.Signals;
  declare readonly isCanceled: boolean;
  declare readonly timedOut: boolean;
  declare readonly spent?: Spent;
  declare readonly stderrTail: string;
  declare readonly metrics: RunMetrics;
  declare readonly events?: HarnessEvent[];
  declare readonly trace?: TraceRecord[];
  declare readonly command: readonly string[];
  declare readonly cwd: string;
  declare readonly durationMs: number;
  declare readonly approvals?: ApprovalCounts;

  constructor(reason: RunFailure, { cause, detail, events, trace, ...fields }: RunOutcome) {
    super(detail ?? failures[reason], { cause });
    this.name = 'HarnessRunError';
    this.reason = reason;
    this.code = failureCodes[reason];
    Object.assign(this, fields);
    Object.defineProperty(this, 'events', { value: events, enumerable: false });
    if (trace !== undefined) Object.defineProperty(this, 'trace', { value: trace, enumerable: false });
  }
}
