/** The harnesses the library translates, by the name `--harness` and `{ harness }` take. */
import type { Harness } from '../lib/harness.js';
import * as claudeCode from './claude-code/correlate.js';
import { tools as claudeCodeTools } from './claude-code/tools.js';

export const harnesses: ReadonlyMap<string, Harness> = new Map<string, Harness>([
  ['claude-code', { name: 'claude-code', correlator: claudeCode.correlator, tools: claudeCodeTools, terminal: 'result' }],
]);

export function harnessNamed(name: string): Harness {
  const harness = harnesses.get(name);
  if (!harness) throw new UnknownHarnessError(name);
  return harness;
}

export class UnknownHarnessError extends Error {
  constructor(readonly harness: string) {
    super(`unknown harness "${harness}" (known: ${[...harnesses.keys()].join(', ')})`);
    this.name = 'UnknownHarnessError';
  }
}
