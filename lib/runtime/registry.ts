/** The harnesses the library translates, by the name `--harness` and `{ harness }` take. */
import type { Harness } from '../kernel/harness.js';
import { acpClient } from '../harnesses/acp/client.js';
import * as acp from '../harnesses/acp/correlate.js';
import { launch as acpLaunch } from '../harnesses/acp/agents.js';
import { tools as acpTools } from '../harnesses/acp/tools.js';
import { failures as acpFailures } from '../harnesses/acp/failures.js';
import { failures as claudeCodeFailures } from '../harnesses/claude-code/failures.js';
import { failures as clineFailures } from '../harnesses/cline/failures.js';
import { failures as codexFailures } from '../harnesses/codex/failures.js';
import { failures as copilotFailures } from '../harnesses/copilot/failures.js';
import { failures as geminiFailures } from '../harnesses/gemini/failures.js';
import { failures as gooseFailures } from '../harnesses/goose/failures.js';
import { failures as opencodeFailures } from '../harnesses/opencode/failures.js';
import { failures as piFailures } from '../harnesses/pi/failures.js';
import { failures as qwenFailures } from '../harnesses/qwen/failures.js';
import { AutoHarness } from './auto.js';
import type { NamedSignature } from './detect.js';
import { signature as acpSignature } from '../harnesses/acp/signature.js';
import { signature as claudeCodeSignature } from '../harnesses/claude-code/signature.js';
import { signature as codexSignature } from '../harnesses/codex/signature.js';
import { signature as copilotSignature } from '../harnesses/copilot/signature.js';
import { signature as geminiSignature } from '../harnesses/gemini/signature.js';
import { signature as gooseSignature } from '../harnesses/goose/signature.js';
import { signature as opencodeSignature } from '../harnesses/opencode/signature.js';
import { signature as piSignature } from '../harnesses/pi/signature.js';
import { signature as qwenSignature } from '../harnesses/qwen/signature.js';
import { commandLines, launcher } from './command-lines.js';
import * as claudeCode from '../harnesses/claude-code/correlate.js';
import { tools as claudeCodeTools } from '../harnesses/claude-code/tools.js';
import * as cline from '../harnesses/cline/correlate.js';
import { localBackend } from '../harnesses/cline/launch.js';
import { tools as clineTools } from '../harnesses/cline/tools.js';
import { signature as clineSignature } from '../harnesses/cline/signature.js';
import * as codex from '../harnesses/codex/correlate.js';
import { tools as codexTools } from '../harnesses/codex/tools.js';
import * as copilot from '../harnesses/copilot/correlate.js';
import { tools as copilotTools } from '../harnesses/copilot/tools.js';
import * as gemini from '../harnesses/gemini/correlate.js';
import { geminiToolKey, tools as geminiTools } from '../harnesses/gemini/tools.js';
import * as gg from '../harnesses/gg/correlate.js';
import * as goose from '../harnesses/goose/correlate.js';
import { gooseToolKey, gooseTools } from '../harnesses/goose/tools.js';
import * as kilo from '../harnesses/kilo/correlate.js';
import { tools as kiloTools } from '../harnesses/kilo/tools.js';
import * as opencode from '../harnesses/opencode/correlate.js';
import { tools as opencodeTools } from '../harnesses/opencode/tools.js';
import * as pi from '../harnesses/pi/correlate.js';
import { tools as piTools } from '../harnesses/pi/tools.js';
import * as qwen from '../harnesses/qwen/correlate.js';
import { exitCodes as qwenExitCodes } from '../harnesses/qwen/exit-codes.js';
import { tools as qwenTools } from '../harnesses/qwen/tools.js';

const registry = {
  acp: {
    name: 'acp',
    signature: acpSignature,
    correlator: acp.correlator,
    records: acp.records,
    tables: { updates: acp.updates },
    tools: acpTools,
    failures: acpFailures,
    terminal: 'session/prompt response',
    launch: acpLaunch,
    client: acpClient,
  },
  'claude-code': {
    name: 'claude-code',
    signature: claudeCodeSignature,
    correlator: claudeCode.correlator,
    records: claudeCode.records,
    tools: claudeCodeTools,
    failures: claudeCodeFailures,
    terminal: 'result',
    launch: launcher(commandLines['claude-code']),
  },
  cline: {
    name: 'cline',
    signature: clineSignature,
    correlator: cline.correlator,
    records: cline.records,
    tables: { agent_event: cline.agentEvents, team_event: cline.teamEvents },
    tools: clineTools,
    failures: clineFailures,
    terminal: 'run_result',
    launch: (options) => localBackend(launcher(commandLines.cline)(options)),
  },
  codex: {
    name: 'codex',
    signature: codexSignature,
    correlator: codex.correlator,
    records: codex.records,
    tools: codexTools,
    failures: codexFailures,
    terminal: 'turn.completed',
    launch: launcher(commandLines.codex),
  },
  copilot: {
    name: 'copilot',
    signature: copilotSignature,
    correlator: copilot.correlator,
    records: copilot.records,
    tools: copilotTools,
    failures: copilotFailures,
    terminal: 'result',
    launch: launcher(commandLines.copilot),
  },
  gemini: {
    name: 'gemini',
    signature: geminiSignature,
    correlator: gemini.correlator,
    records: gemini.records,
    tools: geminiTools,
    failures: geminiFailures,
    toolKey: geminiToolKey,
    terminal: 'result',
    launch: launcher(commandLines.gemini),
  },
  gg: { name: 'gg', correlator: gg.correlator, records: gg.records, tools: gg.tools },
  goose: {
    name: 'goose',
    signature: gooseSignature,
    correlator: goose.correlator,
    records: goose.records,
    tools: gooseTools,
    failures: gooseFailures,
    toolKey: gooseToolKey,
    terminal: 'complete',
    launch: launcher(commandLines.goose),
  },
  kilo: {
    name: 'kilo',
    correlator: kilo.correlator,
    records: kilo.records,
    tools: kiloTools,
    failures: opencodeFailures,
    toolKey: (name) => name.toLowerCase(),
    launch: launcher(commandLines.kilo),
  },
  opencode: {
    name: 'opencode',
    signature: opencodeSignature,
    correlator: opencode.correlator,
    records: opencode.records,
    tools: opencodeTools,
    failures: opencodeFailures,
    toolKey: (name) => name.toLowerCase(),
    launch: launcher(commandLines.opencode),
  },
  pi: {
    name: 'pi',
    signature: piSignature,
    correlator: pi.correlator,
    records: pi.records,
    tools: piTools,
    failures: piFailures,
    terminal: 'agent_end',
    launch: launcher(commandLines.pi),
  },
  qwen: {
    name: 'qwen',
    signature: qwenSignature,
    correlator: qwen.correlator,
    records: qwen.records,
    tools: qwenTools,
    failures: qwenFailures,
    terminal: 'result',
    exitCodes: qwenExitCodes,
    launch: launcher(commandLines.qwen),
  },
} satisfies Record<string, Harness>;

/** The name of a harness the library translates: what `--harness` and `{ harness }` take. */
export type HarnessName = keyof typeof registry;

/** A harness option: a known name, `'auto'` (told from the stream's first records), or a `Harness` of your own. */
export type HarnessOption = HarnessName | 'auto' | Harness;

/** The harnesses the library translates, by name. */
export const harnesses: ReadonlyMap<HarnessName, Harness> = new Map(
  Object.entries(registry) as [HarnessName, Harness][],
);

/**
 * The order `harness: 'auto'` tries the harnesses' signatures in, the first match deciding: Qwen
 * Code's before Claude Code's, whose dialect it writes. Kilo is told apart by OpenCode's.
 */
const detectionOrder = [
  'acp',
  'pi',
  'codex',
  'gemini',
  'qwen',
  'claude-code',
  'copilot',
  'goose',
  'cline',
  'opencode',
] as const;

/** The signatures `harness: 'auto'` tries, in order. */
export const signatures: readonly NamedSignature[] = detectionOrder.map((name) => [name, registry[name].signature]);

/** Whether a string (from a command line, a config file) names a known harness. */
export function isHarnessName(name: string): name is HarnessName {
  return harnesses.has(name as HarnessName);
}

/**
 * A harness option as the library's functions take it: a name, `'auto'` (told from the stream's
 * first records, a new one each time), or a `Harness` of your own.
 */
export function harnessFrom(harness: HarnessOption): Harness {
  if (harness === 'auto') return new AutoHarness(signatures, harnessNamed);
  if (typeof harness === 'string') return harnessNamed(harness);
  // From plain JavaScript: say which option is wrong, not what broke later.
  if (typeof harness?.correlator !== 'function')
    throw new TypeError("the harness option must be a harness name, 'auto' or a Harness (an object with a correlator)");
  return harness;
}

/** The harness a string names, checked at run time (for names that come from outside the program). */
export function harnessNamed(name: string): Harness {
  if (!isHarnessName(name)) throw new UnknownHarnessError(name);
  return harnesses.get(name)!;
}

export class UnknownHarnessError extends Error {
  constructor(readonly harness: string) {
    super(`unknown harness "${harness}" (known: ${[...harnesses.keys()].join(', ')}, or auto)`);
    this.name = 'UnknownHarnessError';
  }
}
