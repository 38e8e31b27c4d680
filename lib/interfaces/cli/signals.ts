/**
 * The stop signals (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT): a command that gets one ends as it decides (what was read is
 * written, the metrics too, nothing it started left behind) and exits 128 + the signal's number, as a shell reports a
 * death by it.
 */
import { constants } from 'node:os';

const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/**
 * Handles the stop signals until `off()`: the first calls `first`, any later one `again` (a
 * second Ctrl-C). The command decides how it ends, not Node's default (death on the spot):
 * what was read is written, the metrics too, and nothing it started is left behind.
 */
export function trapStopSignals(first: () => void, again: () => void = () => {}) {
  let received: NodeJS.Signals | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (received !== undefined) return again();
    received = signal;
    first();
  };
  for (const signal of stopSignals) process.on(signal, handler);
  return {
    /** 128 + the first signal's number; undefined when none came. */
    get exitCode(): number | undefined {
      return received === undefined ? undefined : 128 + constants.signals[received];
    },
    off(): void {
      for (const signal of stopSignals) process.removeListener(signal, handler);
    },
  };
}
