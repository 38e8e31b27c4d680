/**
 * The harnesses the library translates: one list of their folders' modules (lib/harnesses/<name>/index.ts, each
 * the harness whole: `harness`, and where it has them `signature`, `commandLine`, `session`). Everything else is
 * derived from it: the names `--harness` and `{ harness }` take, the signatures `harness: 'auto'` tries, the
 * command lines, the session formats. Adding a built-in harness is its folder and one line here.
 */
import type { CommandLine } from '../kernel/command-line.js';
import type { Harness } from '../kernel/harness.js';
import type { SessionFormat } from '../kernel/session.js';
import * as acp from '../harnesses/acp/index.js';
import * as claudeCode from '../harnesses/claude-code/index.js';
import * as cline from '../harnesses/cline/index.js';
import * as codex from '../harnesses/codex/index.js';
import * as copilot from '../harnesses/copilot/index.js';
import * as gemini from '../harnesses/gemini/index.js';
import * as gg from '../harnesses/gg/index.js';
import * as goose from '../harnesses/goose/index.js';
import * as kilo from '../harnesses/kilo/index.js';
import * as opencode from '../harnesses/opencode/index.js';
import * as pi from '../harnesses/pi/index.js';
import * as qwen from '../harnesses/qwen/index.js';
import { AutoHarness } from './auto.js';
import type { NamedSignature } from './detect.js';

/**
 * The built-in harnesses, in the order `harness: 'auto'` tries their signatures (the first match decides): Qwen
 * Code's before Claude Code's, whose dialect it writes; Kilo has none of its own (OpenCode's places both, then a
 * record tells the forks apart); gg has none.
 */
const builtIns = [acp, pi, codex, gemini, qwen, claudeCode, copilot, goose, cline, opencode, kilo, gg] as const;

/** The name of a harness the library translates: what `--harness` and `{ harness }` take. */
export type HarnessName = (typeof builtIns)[number]['harness']['name'];

/** A harness option: a known name, `'auto'` (told from the stream's first records), or a `Harness` of your own. */
export type HarnessOption = HarnessName | 'auto' | Harness;

/** The harnesses the library translates, by name (in the order of their names). */
export const harnesses: ReadonlyMap<HarnessName, Harness> = new Map(
  builtIns.map(({ harness }): [HarnessName, Harness] => [harness.name, harness]).sort(([a], [b]) => a.localeCompare(b)),
);

/** The signatures `harness: 'auto'` tries, in the list's order. */
export const signatures: readonly NamedSignature[] = builtIns.flatMap((builtIn) =>
  'signature' in builtIn ? [[builtIn.harness.name, builtIn.signature] as const] : [],
);

/** The names of the harnesses the library can start for a prompt (those with a command line). */
type CommandLineName = Extract<(typeof builtIns)[number], { commandLine: CommandLine }>['harness']['name'];

/** The command lines, by harness name: how `spawnHarness({ harness, prompt })` starts each CLI. */
export const commandLines = Object.fromEntries(
  builtIns.flatMap((builtIn): [string, CommandLine][] =>
    'commandLine' in builtIn ? [[builtIn.harness.name, builtIn.commandLine]] : [],
  ),
) as Readonly<Record<CommandLineName, CommandLine>>;

/** The session formats, by harness name (in the order of their names): each harness's own session files. */
export const sessionFormats: ReadonlyMap<string, SessionFormat> = new Map(
  builtIns
    .flatMap((builtIn): [string, SessionFormat][] =>
      'session' in builtIn ? [[builtIn.harness.name, builtIn.session]] : [],
    )
    .sort(([a], [b]) => a.localeCompare(b)),
);

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
