/**
 * ACP agents (any agent speaking the Agent Client Protocol), through the library's own client.
 * Everything the library knows of it is in this folder; the registry (lib/runtime/registry.ts) lists this module.
 */
import type { Harness } from '../../kernel/harness.js';
import { acpClient } from './client.js';
import { correlator } from './correlate.js';
import { records, updates } from './records.js';
import { launch } from './agents.js';
import { tools } from './tools.js';
import { failures } from './failures.js';
import { signature } from './signature.js';

export { signature } from './signature.js';

/** The harness: its correlator and tables, how its stream is told apart, how it is started. */
export const harness = {
  name: 'acp' as const,
  signature,
  correlator,
  records,
  tables: { updates },
  tools,
  failures,
  terminal: 'session/prompt response',
  launch,
  client: acpClient,
} satisfies Harness;
