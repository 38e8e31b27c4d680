/**
 * gg, the contract's own event stream read back (no CLI, no signature).
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { correlator, records, tools } from './correlate.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'gg' as const,
  correlator,
  records,
  tools,
} satisfies Harness;
