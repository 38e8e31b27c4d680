/**
 * Qwen Code (`qwen --output-format stream-json`).
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { launcher } from '../../kernel/command-line.js';
import { correlator, records } from './correlate.js';
import { exitCodes } from './exit-codes.js';
import { tools } from './tools.js';
import { failures } from './failures.js';
import { signature } from './signature.js';
import { commandLine } from './command-line.js';
import { asks, controlClient } from '../claude-code/control.js';
import { answers, dialect } from './approvals.js';

export { signature } from './signature.js';
export { commandLine } from './command-line.js';
export { session } from './session.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'qwen' as const,
  signature,
  correlator,
  records,
  tools,
  failures,
  terminal: 'result',
  exitCodes,
  launch: launcher(commandLine),
  // `permissions: 'ask'`: Claude Code's control protocol, Qwen's copy (docs/library.md "Approvals").
  client: controlClient(dialect),
  converses: asks,
  answers,
} satisfies Harness;
