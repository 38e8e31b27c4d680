/**
 * Goose (`goose run --output-format stream-json`).
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { launcher } from '../../kernel/command-line.js';
import { correlator, records } from './correlate.js';
import { gooseToolKey, gooseTools } from './tools.js';
import { failures } from './failures.js';
import { signature } from './signature.js';
import { commandLine } from './command-line.js';

export { signature } from './signature.js';
export { commandLine } from './command-line.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'goose' as const,
  signature,
  correlator,
  records,
  tools: gooseTools,
  failures,
  toolKey: gooseToolKey,
  terminal: 'complete',
  launch: launcher(commandLine),
  continues: commandLine.continues,
} satisfies Harness;
