/**
 * How a run ends, decided from what happened to it: its exit code and signal, the events its ending adds, and the
 * failure `done` reports. Pure, so each ending is tested on its own (test/runtime/run/ending.test.ts); spawn.ts
 * gathers the facts and acts on the answer.
 */
import type { EventBody } from '../../kernel/events.js';
import type { RunFailure } from './errors.js';

/** What went wrong first, when something did before the child's exit (a timeout, a stage, the buffer bound). */
export interface Failure {
  reason: RunFailure;
  detail: string;
  cause?: unknown;
}

export interface EndingFacts {
  /** The program run, as messages name it. */
  readonly command: string;
  readonly harness: {
    readonly name: string;
    readonly terminal?: string;
    readonly exitCodes?: ReadonlyMap<number, string>;
  };
  /** The child's exit; `ours` when the library signalled it (a stop, or a client's ending). */
  readonly exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly ours: boolean };
  /** The exit code an ACP conversation decided, which overrides the child's own. */
  readonly decided?: number;
  /** Whether the harness's terminal record came. */
  readonly ended: boolean;
  readonly failure?: Failure;
  /** The caller aborted the run (its signal, `stop()`, destroying the stream, or the timeout). */
  readonly aborted: boolean;
}

interface Ending {
  readonly exitCode?: number;
  readonly signal?: NodeJS.Signals;
  /** The events the ending adds to the stream, in order. */
  readonly events: EventBody[];
  /** Why the run failed; none when it succeeded. */
  readonly reason?: RunFailure;
  readonly detail?: string;
}

export function decideEnding({ command, harness, exit, decided, ended, failure, aborted }: EndingFacts): Ending {
  // An ACP conversation decides its own exit code; the client's ending of the agent is no signal of the run's.
  const exitCode = decided ?? exit.code ?? undefined;
  const signal = decided === undefined ? (exit.signal ?? undefined) : undefined;
  const events: EventBody[] = [];
  // An exit the harness documents as a stop of its own explains the missing terminal record.
  const stopReason = exit.code === null ? undefined : harness.exitCodes?.get(exit.code);
  if (!ended && stopReason === undefined) {
    const message = `${harness.name} ended without its terminal record (${harness.terminal}): the run is incomplete`;
    events.push({ type: 'warning', code: 'incomplete', message });
  }
  let reason = failure?.reason ?? (aborted ? 'aborted' : undefined);
  let detail = failure?.detail ?? (aborted ? `${command} was stopped: the run was aborted` : undefined);
  if (signal !== undefined && !exit.ours) {
    detail = `${command} was killed by ${signal}`;
    events.push({ type: 'error', code: 'killed', message: detail });
    reason ??= 'killed';
  } else if (exitCode !== undefined && exitCode !== 0) {
    const message =
      decided === undefined
        ? `${command} exited with code ${exitCode}${stopReason === undefined ? '' : ` (${stopReason})`}`
        : `the conversation with ${command} ended with exit code ${exitCode}`;
    // A conversation's ending already has its events (the stop reason's warning, the error response).
    if (decided === undefined) events.push({ type: 'error', code: 'exit_code', message });
    if (reason === undefined) [reason, detail] = ['exit_code', message];
  }
  return { exitCode, signal, events, reason, detail };
}
