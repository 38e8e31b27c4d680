/**
 * How a run tells its ending: `done` settles once with the result or the `HarnessRunError` (resolved with it under
 * `reject: false`), and the message for a child that could not be started.
 */
import { statSync } from 'node:fs';
import { constants } from 'node:os';
import type { HarnessClient } from '../../kernel/harness.js';
import { HarnessRunError, type RunFailure, type RunOutcome, type RunResult } from './errors.js';

interface Done {
  readonly promise: Promise<RunResult>;
  /** Settles `done`: a success when there is no failure `reason`. */
  settle(reason: RunFailure | undefined, outcome: RunOutcome): void;
}

export function createDone(reject: boolean): Done {
  let resolveDone!: (result: RunResult) => void;
  let rejectDone!: (error: Error) => void;
  const promise = new Promise<RunResult>((resolve, fail) => {
    resolveDone = resolve;
    rejectDone = fail;
  });
  // A caller who only reads events must not crash on an unobserved rejection.
  promise.catch(() => {});
  return {
    promise,
    settle(reason, outcome) {
      if (reason === undefined) {
        const { cause: _cause, detail: _detail, ...fields } = outcome;
        return resolveDone({ failed: false, ...fields });
      }
      const error = new HarnessRunError(reason, outcome);
      if (reject) rejectDone(error);
      else resolveDone(error);
    },
  };
}

/** The message for a child that could not be started; it names the working directory when that is the cause. */
export function startFailure(command: string, cwd: string | undefined, error: NodeJS.ErrnoException): string {
  const directory = cwd === undefined ? undefined : unusableDirectory(cwd);
  const reason = directory ? `cannot enter its working directory ${cwd} (${directory})` : (error.code ?? error.message);
  return `could not start ${command}: ${reason}`;
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

/** An `ask` run's counts for its result (a copy: the client's go on counting nothing once the run is over). */
export function approvalsOf(client: HarnessClient | undefined): Pick<RunResult, 'approvals'> {
  const approvals = client?.approvals?.();
  return approvals === undefined ? {} : { approvals: { ...approvals } };
}
