/**
 * Where a script's shell ends up: its top-level `cd`, `pushd` and `popd` (top-level.ts), in order, as having run
 * (docs/harnesses/claude-code.md "Shell directory"). Pure: it never looks at the file system.
 */
import { joinPath } from './paths.js';
import { topLevelCommands } from './top-level.js';

/** A directory, or null: one the script's words do not say (a variable, a substitution, a glob). */
export type Directory = string | null;

const MOVES = new Set(['cd', 'pushd', 'popd']);
/** A script naming none of these cannot move its shell: most scripts, told apart without reading them. */
const MAY_MOVE = /cd|pushd|popd/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * The directory the shell of `script`, started in `start`, ends in. `cd` with no operand or `~` is `home`; `cd -` is
 * the directory before the script's previous move, and fails without one, as `popd` does without a `pushd` of the same
 * script (a failed move moves nothing).
 */
export function scriptDirectory(script: string, start: Directory, home: string): Directory {
  if (!MAY_MOVE.test(script)) return start;
  let dir = start;
  let previous: Directory | undefined;
  const stack: Directory[] = [];
  const go = (to: Directory | undefined) => {
    if (to === undefined) return;
    previous = dir;
    dir = to;
  };
  for (const { words, uncertain } of topLevelCommands(script)) {
    const [program, ...args] = command(words);
    if (uncertain) {
      // A move that may or may not have run.
      if (words.some((word) => word === null || MOVES.has(word))) dir = null;
      continue;
    }
    if (program === 'cd') go(cd(operands(args), dir, previous, home));
    else if (program === 'pushd') {
      const from = dir;
      const target = pushd(operands(args), dir, stack, home);
      if (target !== undefined) {
        go(target);
        stack.push(from);
      }
    } else if (program === 'popd') {
      if (operands(args).length > 0) dir = null;
      else if (stack.length > 0) go(stack.pop());
    }
  }
  return dir;
}

/** The words after assignments (`X=1 cd a`) and `builtin`/`command`: the program and its arguments. */
function command(words: readonly (string | null)[]): readonly (string | null)[] {
  let i = 0;
  while (i < words.length - 1 && ASSIGNMENT.test(words[i] ?? '')) i++;
  if (words[i] === 'builtin' || words[i] === 'command') i++;
  return words.slice(i);
}

/** The operands after the options (`-L`, `-P`, `-e`, `-@`, `--`); null for a word that expands. */
function operands(args: readonly (string | null)[]): (string | null)[] {
  let i = 0;
  while (i < args.length && args[i] !== '-' && args[i]?.startsWith('-') === true) {
    if (args[i++] === '--') break;
  }
  return args.slice(i);
}

/** Where `cd ARGS` goes: undefined when it fails. */
function cd(args: readonly (string | null)[], dir: Directory, previous: Directory | undefined, home: string) {
  if (args.length > 1) return undefined;
  const [target] = args;
  if (target === '-') return previous;
  return target === undefined ? home : to(target, dir, home);
}

/** Where `pushd ARGS` goes: with no operand the previous `pushd`'s directory (swapped), undefined without one. */
function pushd(args: readonly (string | null)[], dir: Directory, stack: Directory[], home: string) {
  if (args.length > 1) return undefined;
  const [target] = args;
  if (target === undefined) return stack.length === 0 ? undefined : stack.pop();
  // `+N`/`-N` rotate a stack partly made before the script: not known.
  if (target !== null && /^[+-]\d+$/.test(target)) return null;
  return to(target, dir, home);
}

/** A target word against the directory it is relative to. */
function to(target: string | null, dir: Directory, home: string): Directory {
  if (target === null) return null;
  if (target === '~' || target.startsWith('~/')) return joinPath(home, target.slice(2));
  if (target.startsWith('/')) return joinPath('/', target);
  return dir === null ? null : joinPath(dir, target);
}
