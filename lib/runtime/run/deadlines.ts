/** The ends a caller sets for a run: its AbortSignal and its `timeoutMs`. */
import { onAbort } from './abort-listeners.js';

interface Deadlines {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly aborted: () => void;
  readonly timedOut: () => void;
}

/** Watches both; returns the function that forgets them (the run is over). */
export function watchDeadlines({ signal, timeoutMs, aborted, timedOut }: Deadlines): () => void {
  const forgetAbort = signal ? onAbort(signal, aborted) : () => {};
  const timer = timeoutMs === undefined ? undefined : setTimeout(timedOut, timeoutMs).unref();
  return () => {
    forgetAbort();
    clearTimeout(timer);
  };
}
