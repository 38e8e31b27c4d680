/**
 * Codex (`codex exec --json`).
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { launcher } from '../../kernel/command-line.js';
import { correlator, records } from './correlate.js';
import { tools } from './tools.js';
import { failures } from './failures.js';
import { signature } from './signature.js';
import { commandLine } from './command-line.js';
import { stderrRefusal } from './refusals.js';
import { rollout } from './rollout-join.js';

export { signature } from './signature.js';
export { commandLine } from './command-line.js';
export { session } from './session.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'codex' as const,
  signature,
  correlator,
  records,
  tools,
  failures,
  terminal: 'turn.completed',
  launch: launcher(commandLine),
  stderrRefusal,
  companion: rollout,
} satisfies Harness;
