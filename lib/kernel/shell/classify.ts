import { joinPath, resolveLiteral } from './paths.js';
import { isSmallFormattingCommand } from './formatting.js';
import { parseArguments } from './operands.js';
import { sedPrint, summarizeProgram } from './programs.js';
import { parseScript, type Segment } from './script.js';
import type { FileOperation, LineRange, Summary } from './types.js';

/** Codex's exact shell names (`shell_detect.rs`): `SHELL -c SCRIPT` runs SCRIPT. */
const SHELLS = new Set([
  'bash',
  '/bin/bash',
  '/usr/bin/bash',
  '/usr/local/bin/bash',
  '/opt/homebrew/bin/bash',
  'zsh',
  '/bin/zsh',
  '/usr/bin/zsh',
  '/usr/local/bin/zsh',
  '/opt/homebrew/bin/zsh',
  'sh',
  '/bin/sh',
  '/usr/bin/sh',
]);

const CONNECTORS = new Set(['&&', '||', '|', ';']);

/** `yes | cmd`: Codex drops the prefix from a plain argv. */
const YES = new Set(['yes', 'y', 'no', 'n']);

/**
 * The longest path Linux accepts (PATH_MAX): a longer one names no file. Bounding every path
 * also bounds the work of normalizing it, so a script chaining thousands of `cd`s stays linear.
 */
const PATH_MAX = 4096;

/**
 * What the paths built from `cd`s may add up to (each `cd`'s directory, each path joined onto
 * one). Real scripts come nowhere near; past it a script is no plausible file operation. The
 * bound keeps the output, and the work, linear: without it `cd a && cat f && cd a && cat f...`
 * reports paths whose total length grows with the square of the script's.
 */
const CD_PATH_BUDGET = 1 << 20;

/** Readers that print the file's lines one for one, so `| sed -n 'A,Bp'` selects its lines A..B. */
const LINE_FOR_LINE = new Set(['cat', 'nl']);

/**
 * The file operations a shell command performs, in order, or null when it is not (only) file
 * operations and stays one `command` event. A string is a shell script; an array is an argv
 * (`[shell, '-lc', script]`, or a plain argv split on `&&`/`||`/`|`/`;` tokens as Codex does).
 * Paths are joined onto the script's `cd`s, then resolved against `cwd` when it is given.
 */
export function classifyShellCommand(command: string | readonly string[], cwd?: string): FileOperation[] | null {
  return shellOperations(command, cwd)?.operations ?? null;
}

/** A command's file operations, and which search, if any, ends it. */
export interface ShellOperations {
  /** The file operations, in the order the command runs them. */
  readonly operations: FileOperation[];
  /**
   * The index in `operations` of a search whose exit status is the whole command's (it runs last,
   * unconditionally, not piped into anything) by a program that exits 1 when it completes
   * without a match (docs/contract.md: `grep`, `rg`, `ag`, `ack`, `git grep`).
   */
  readonly finalSearch?: number;
}

/** `classifyShellCommand`, also saying which search's exit status is the command's. */
export function shellOperations(command: string | readonly string[], cwd?: string): ShellOperations | null {
  if (typeof command === 'string') {
    const segments = parseScript(command);
    if (segments === null) return null;
    const inner = wrappedIn(segments);
    return inner === undefined ? classify(segments, true, cwd) : classifyScript(inner, cwd);
  }
  const inner = wrappedScript(command);
  return inner === undefined ? classify(argvSegments(command), false, cwd) : classifyScript(inner, cwd);
}

/** The script inside a shell wrapper (`/bin/bash -lc 'cat a'` -> `cat a`), else the command as given. */
export function unwrapShellCommand(command: string): string {
  const segments = parseScript(command);
  return (segments === null ? undefined : wrappedIn(segments)) ?? command;
}

function classifyScript(script: string, cwd: string | undefined): ShellOperations | null {
  const segments = parseScript(script);
  return segments === null ? null : classify(segments, true, cwd);
}

/** The script of `bash -lc SCRIPT` (or `-c`, with one of Codex's shell names); unwrapped once. */
export function wrappedScript(words: readonly string[]): string | undefined {
  return words.length === 3 && SHELLS.has(words[0]) && (words[1] === '-c' || words[1] === '-lc') ? words[2] : undefined;
}

/** The wrapped script of a script that is exactly one wrapper command. */
function wrappedIn(segments: readonly Segment[]): string | undefined {
  return segments.length === 1 ? wrappedScript(segments[0].words) : undefined;
}

function argvSegments(argv: readonly string[]): Segment[] {
  const segments: Segment[] = [];
  let words: string[] = [];
  let piped = false;
  let conditional = false;
  for (let i = YES.has(argv[0]) && argv[1] === '|' ? 2 : 0; i < argv.length; i++) {
    if (!CONNECTORS.has(argv[i])) {
      words.push(argv[i]);
      continue;
    }
    if (words.length > 0) segments.push({ words, piped, conditional });
    words = [];
    piped = argv[i] === '|';
    conditional = argv[i] === '&&' || argv[i] === '||';
  }
  if (words.length > 0) segments.push({ words, piped, conditional });
  return segments;
}

/**
 * Codex's pipeline: drop formatting helpers (scripts only), track `cd`, summarize each
 * command; then any command that is not a file operation makes the whole thing null, except
 * the ones Codex's simplification drops.
 */
function classify(segments: readonly Segment[], script: boolean, cwd: string | undefined): ShellOperations | null {
  const entries: Array<{ words: readonly string[]; summary: Summary; segment: number }> = [];
  let dir: string | undefined;
  let budget = CD_PATH_BUDGET;
  for (let i = 0; i < segments.length; i++) {
    if (script && isSmallFormattingCommand(segments[i].words)) continue;
    const [program, ...args] = segments[i].words;
    if (program === 'cd') {
      // `cd` alone, `cd -`: a directory we cannot know.
      const target = parseArguments(args, []).operands.at(-1);
      if (target === undefined || target.length > PATH_MAX) return null;
      dir = joinPath(dir ?? '.', target);
      budget -= dir.length;
      if (dir.length > PATH_MAX || budget < 0) return null;
      continue;
    }
    let summary = summarizeProgram(program, args);
    if (summary.type === 'read' && summary.start_line === undefined && LINE_FOR_LINE.has(program)) {
      summary = { ...summary, ...pipedLines(segments[i + 1]) };
    }
    summary = located(summary, dir);
    if (dir !== undefined && summary.type !== 'unknown') budget -= summary.path?.length ?? 0;
    if (budget < 0) return null;
    entries.push({ words: segments[i].words, summary, segment: i });
  }

  const firstOperation = entries.findIndex((entry) => entry.summary.type !== 'unknown');
  if (firstOperation < 0) return null;
  const operations: FileOperation[] = [];
  let finalSearch: number | undefined;
  for (let i = 0; i < entries.length; i++) {
    const { words, summary, segment } = entries[i];
    if (summary.type === 'unknown') {
      if (!isDroppable(words, i < firstOperation)) return null;
      continue;
    }
    const operation = resolved(summary, cwd);
    const previous = operations.at(-1);
    if (previous === undefined || !sameOperation(previous, operation)) operations.push(operation);
    if (
      segment === segments.length - 1 &&
      summary.type === 'search' &&
      exitsOneWithoutMatch(words) &&
      runsUnconditionally(segments, segment)
    ) {
      finalSearch = operations.length - 1;
    }
  }
  return finalSearch === undefined ? { operations } : { operations, finalSearch };
}

/** Programs that exit 1 when they complete without a match (2 or more is an error). */
const NO_MATCH_EXITS_ONE = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);

function exitsOneWithoutMatch([program, ...args]: readonly string[]): boolean {
  // `git grep`: git's only subcommand that summarizes to a search.
  return NO_MATCH_EXITS_ONE.has(program) || (program === 'git' && args.includes('grep'));
}

/**
 * The pipeline the segment ends starts the script or follows a `;`/newline: its status is the script's, whatever ran
 * before.
 */
function runsUnconditionally(segments: readonly Segment[], last: number): boolean {
  let start = last;
  while (start > 0 && segments[start].piped) start--;
  return !segments[start].conditional;
}

/** The lines a `| sed -n 'A,Bp'` (with no file of its own) right after this command selects. */
function pipedLines(next: Segment | undefined): LineRange {
  if (next === undefined || !next.piped || next.words[0] !== 'sed') return {};
  const printed = sedPrint(next.words.slice(1));
  return printed !== undefined && printed.path === undefined ? printed.lines : {};
}

/**
 * Codex's simplification loop in closed form: it drops `true`, `nl` with only flags, and
 * `echo` before the first file operation. (Its rule for leftover `cd`s never fires: a `cd`
 * never becomes an entry.)
 */
function isDroppable(words: readonly string[], beforeFirstOperation: boolean): boolean {
  const [program, ...args] = words;
  if (program === 'true') return args.length === 0;
  if (program === 'nl') return args.every((arg) => arg.startsWith('-'));
  return program === 'echo' && beforeFirstOperation;
}

/** The path joined onto the `cd` directory; a list or search without one is of that directory. */
function located(summary: Summary, dir: string | undefined): Summary {
  if (summary.type === 'unknown') return summary;
  if (summary.path === undefined) return dir === undefined ? summary : { ...summary, path: dir };
  if (summary.path === '' || summary.path.length > PATH_MAX) return { type: 'unknown' };
  return dir === undefined ? summary : { ...summary, path: joinPath(dir, summary.path) };
}

function resolved(operation: FileOperation, cwd: string | undefined): FileOperation {
  return operation.path === undefined ? operation : { ...operation, path: resolveLiteral(operation.path, cwd) };
}

function sameOperation(a: FileOperation, b: FileOperation): boolean {
  return (
    a.type === b.type &&
    a.path === b.path &&
    (a.type !== 'search' || b.type !== 'search' || a.query === b.query) &&
    (a.type !== 'read' || b.type !== 'read' || (a.start_line === b.start_line && a.end_line === b.end_line))
  );
}
