/**
 * Cline (`cline --json`).
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { launcher } from '../../kernel/command-line.js';
import { agentEvents, correlator, records, teamEvents } from './correlate.js';
import { localBackend, textPrompt } from './launch.js';
import { tools } from './tools.js';
import { failures } from './failures.js';
import { signature } from './signature.js';
import { commandLine } from './command-line.js';

export { signature } from './signature.js';
export { commandLine } from './command-line.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'cline' as const,
  signature,
  correlator,
  records,
  tables: { agent_event: agentEvents, team_event: teamEvents },
  tools,
  failures,
  terminal: 'run_result',
  launch: (options) => localBackend(launcher(commandLine)(textPrompt(options))),
} satisfies Harness;
