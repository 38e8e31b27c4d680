/** The harnesses the library translates, by the name `--harness` and `{ harness }` take. */
import type { Harness } from '../lib/harness.js';
import { AutoHarness } from './auto.js';
import * as claudeCode from './claude-code/correlate.js';
import { tools as claudeCodeTools } from './claude-code/tools.js';
import * as codex from './codex/correlate.js';
import { tools as codexTools } from './codex/tools.js';
import * as copilot from './copilot/correlate.js';
import { tools as copilotTools } from './copilot/tools.js';
import * as gemini from './gemini/correlate.js';
import { geminiToolKey, tools as geminiTools } from './gemini/tools.js';
import * as gg from './gg/correlate.js';
import * as goose from './goose/correlate.js';
import { gooseToolKey, gooseTools } from './goose/tools.js';
import * as kilo from './kilo/correlate.js';
import { tools as kiloTools } from './kilo/tools.js';
import * as opencode from './opencode/correlate.js';
import { tools as opencodeTools } from './opencode/tools.js';
import * as pi from './pi/correlate.js';
import { tools as piTools } from './pi/tools.js';
import * as qwen from './qwen/correlate.js';
import { exitCodes as qwenExitCodes } from './qwen/exit-codes.js';
import { tools as qwenTools } from './qwen/tools.js';

export const harnesses: ReadonlyMap<string, Harness> = new Map<string, Harness>([
  ['claude-code', { name: 'claude-code', correlator: claudeCode.correlator, records: claudeCode.records, tools: claudeCodeTools, terminal: 'result' }],
  ['codex', { name: 'codex', correlator: codex.correlator, records: codex.records, tools: codexTools, terminal: 'turn.completed' }],
  ['copilot', { name: 'copilot', correlator: copilot.correlator, records: copilot.records, tools: copilotTools, terminal: 'result' }],
  ['gemini', { name: 'gemini', correlator: gemini.correlator, records: gemini.records, tools: geminiTools, toolKey: geminiToolKey, terminal: 'result' }],
  ['gg', { name: 'gg', correlator: gg.correlator, records: gg.records, tools: gg.tools }],
  ['goose', { name: 'goose', correlator: goose.correlator, records: goose.records, tools: gooseTools, toolKey: gooseToolKey, terminal: 'complete' }],
  ['kilo', { name: 'kilo', correlator: kilo.correlator, records: kilo.records, tools: kiloTools, toolKey: (name) => name.toLowerCase() }],
  ['opencode', { name: 'opencode', correlator: opencode.correlator, records: opencode.records, tools: opencodeTools, toolKey: (name) => name.toLowerCase() }],
  ['pi', { name: 'pi', correlator: pi.correlator, records: pi.records, tools: piTools, terminal: 'agent_end' }],
  ['qwen', { name: 'qwen', correlator: qwen.correlator, records: qwen.records, tools: qwenTools, terminal: 'result', exitCodes: qwenExitCodes }],
]);

/**
 * A harness option as the library's functions take it: a name, `'auto'` (told from the stream's
 * first records, a new one each time), or a `Harness` of your own.
 */
export function harnessFrom(harness: string | Harness): Harness {
  if (harness === 'auto') return new AutoHarness();
  return typeof harness === 'string' ? harnessNamed(harness) : harness;
}

export function harnessNamed(name: string): Harness {
  const harness = harnesses.get(name);
  if (!harness) throw new UnknownHarnessError(name);
  return harness;
}

export class UnknownHarnessError extends Error {
  constructor(readonly harness: string) {
    super(`unknown harness "${harness}" (known: ${[...harnesses.keys()].join(', ')}, or auto)`);
    this.name = 'UnknownHarnessError';
  }
}
