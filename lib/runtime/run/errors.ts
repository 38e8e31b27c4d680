/**
 * How a run ended, as its promise says it (docs/run-contract.md): one result, and one error class
 * for every way it can fail. The events say the same thing in the stream; this is the summary.
 */
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';

/** The ways a run fails, each with the sentence its error message starts with. */
export const failures = {
  spawn_failed: 'the harness could not be started',
  exit_code: 'the harness exited with a non-zero code',
  killed: 'the harness was killed by a signal the library did not send',
  aborted: 'the run was aborted',
  timeout: 'the run took longer than timeoutMs',
  stage_failed: 'the normalizer failed',
  max_buffer: 'nothing read the events and they passed maxBufferBytes',
} as const;

export type RunFailure = keyof typeof failures;

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
  /** The last lines the child printed on standard error (at most `STDERR_TAIL_BYTES`). */
  readonly stderrTail: string;
  /** The harness's run metrics, with the exit code and signal. */
  readonly metrics: RunMetrics;
  /** Every event, when nothing read the stream (see `maxBufferBytes`); otherwise the reader had them. */
  readonly events?: HarnessEvent[];
}

/** How much of the child's stderr a result keeps: its last lines, up to this many bytes. */
export const STDERR_TAIL_BYTES = 8192;

export interface RunOutcome extends Omit<RunResult, 'failed'> {
  /** A spawn failure's error, or a stage's. */
  readonly cause?: unknown;
  /** The message, when there is more to say than the failure's sentence (which command, which code). */
  readonly detail?: string;
}

/** The one error a run rejects with, whatever failed; with `reject: false` it is the result instead. */
export class HarnessRunError extends Error implements RunResult {
  readonly failed = true;
  readonly reason: RunFailure;
  declare readonly exitCode?: number;
  declare readonly signal?: NodeJS.Signals;
  declare readonly isCanceled: boolean;
  declare readonly timedOut: boolean;
  declare readonly stderrTail: string;
  declare readonly metrics: RunMetrics;
  declare readonly events?: HarnessEvent[];

  constructor(reason: RunFailure, { cause, detail, ...fields }: RunOutcome) {
    super(detail ?? failures[reason], { cause });
    this.name = 'HarnessRunError';
    this.reason = reason;
    Object.assign(this, fields);
  }
}
