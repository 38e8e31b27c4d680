/**
 * One 'abort' listener per AbortSignal, however many runs share it: past 10 listeners on one
 * signal Node warns (MaxListenersExceededWarning), and a listener left behind keeps its run in
 * memory for as long as the signal lives.
 */
interface Fanout {
  readonly listeners: Set<() => void>;
  readonly dispatch: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/** Calls `listener` once when `signal` aborts; returns the function that forgets it. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let fanout = fanouts.get(signal);
  if (fanout === undefined) {
    const listeners = new Set<() => void>();
    const dispatch = () => {
      fanouts.delete(signal);
      for (const each of listeners) each();
    };
    fanout = { listeners, dispatch };
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', dispatch, { once: true });
  }
  const { listeners, dispatch } = fanout;
  listeners.add(listener);
  return () => {
    if (!listeners.delete(listener) || listeners.size > 0) return;
    if (fanouts.get(signal) === fanout) fanouts.delete(signal);
    signal.removeEventListener('abort', dispatch);
  };
}
