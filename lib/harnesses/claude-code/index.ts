/**
 * Claude Code (`claude --print --output-format stream-json`).
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { launcher } from '../../kernel/command-line.js';
import { correlator, records } from './correlate.js';
import { tools } from './tools.js';
import { failures } from './failures.js';
import { shellDirectory } from './shell-directory.js';
import { signature } from './signature.js';
import { commandLine } from './command-line.js';
import { asks, controlClient } from './control.js';
import { answers, dialect } from './approvals.js';

export { signature } from './signature.js';
export { commandLine } from './command-line.js';
export { session } from './session.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'claude-code' as const,
  signature,
  correlator,
  records,
  // docs/harnesses/claude-code.md "Shell directory" ({{shellDirectory}} in notes.md).
  tables: { shellDirectory },
  tools,
  failures,
  terminal: 'result',
  launch: launcher(commandLine),
  continues: commandLine.continues,
  // `permissions: 'ask'`: the control protocol (docs/library.md "Approvals").
  client: controlClient(dialect),
  converses: asks,
  answers,
} satisfies Harness;
