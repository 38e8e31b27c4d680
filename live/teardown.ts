/**
 * The live suite's global teardown: nothing any run started may outlive the suite. Each run
 * sweeps its own processes; this catches what a run cut short (a timed-out test) left.
 */
import { sweep } from './run.js';

export function teardown(): void {
  // This suite's runs only: another suite on the machine has its own id (vitest.live.config.ts).
  const left = sweep(`${process.env.HARNESS_EVENTS_LIVE_SUITE}:`);
  if (left.length) throw new Error(`live runs left processes behind (now killed):\n${left.join('\n')}`);
}
