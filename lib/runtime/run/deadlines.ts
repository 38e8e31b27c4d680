/** The ends a caller sets for a run: its AbortSignal and its `timeoutMs`. */
import { onAbort } from './abort-listeners.js';

/** The error of a bound the caller set that stops the run (its timeout, its budget): the run's failure too. */
export interface LimitError {
  type: 'error';
  code: 'timeout' | 'budget';
  message: string;
}

interface Deadlines {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** The program run, as the timeout's message names it. */
  readonly command: string;
  readonly aborted: () => void;
  readonly timedOut: (error: LimitError) => void;
}

/** Watches both; returns the function that forgets them (the run is over). */
export function watchDeadlines({ signal, timeoutMs, command, aborted, timedOut }: Deadlines): () => void {
  const forgetAbort = signal ? onAbort(signal, aborted) : () => {};
  const message = `${command} ran for longer than timeoutMs (${timeoutMs} ms) and was stopped`;
  const fire = () => timedOut({ type: 'error', code: 'timeout', message });
  const timer = timeoutMs === undefined ? undefined : setTimeout(fire, timeoutMs).unref();
  return () => {
    forgetAbort();
    clearTimeout(timer);
  };
}
