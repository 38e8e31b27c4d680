/**
 * Kilo (`kilo run --format json`); `harness: 'auto'` places it with OpenCode's signature, then tells the forks apart.
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { launcher } from '../../kernel/command-line.js';
import { correlator, records } from './correlate.js';
import { tools } from './tools.js';
import { failures } from './failures.js';
import { commandLine } from './command-line.js';

export { commandLine } from './command-line.js';
export { session } from './session.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'kilo' as const,
  correlator,
  records,
  tools,
  failures,
  toolKey: (name) => name.toLowerCase(),
  launch: launcher(commandLine),
} satisfies Harness;
