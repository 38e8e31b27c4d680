import { batLineRange, lineRange, sedPrintScript } from './lines.js';
import { firstValue, parseArguments, type Arguments } from './operands.js';
import type { LineRange, Summary } from './types.js';

/**
 * What one program invocation does, per Codex's `summarize_main_tokens` (openai/codex
 * `parse_command.rs`), plus line ranges and a few writes Codex misses. Paths are the operands
 * as written; `classify.ts` joins and resolves them.
 */
type Rule = (args: readonly string[]) => Summary;

const UNKNOWN: Summary = { type: 'unknown' };

function read(path: string | undefined, lines: LineRange = {}): Summary {
  return path === undefined ? UNKNOWN : { type: 'read', path, ...lines };
}

function list(path: string | undefined): Summary {
  return path === undefined ? { type: 'list' } : { type: 'list', path };
}

/** A search needs a query: Codex's query-less search (`rg --version`) is not one. */
function search(query: string | undefined, path: string | undefined): Summary {
  if (query === undefined) return UNKNOWN;
  return path === undefined ? { type: 'search', query } : { type: 'search', query, path };
}

/** `ls src`: the first operand is what is listed. */
function listing(valueFlags: readonly string[]): Rule {
  return (args) => list(parseArguments(args, valueFlags).operands[0]);
}

/** `cat f`: one file is one read; several are not. */
function readingOne(valueFlags: readonly string[], lines: (parsed: Arguments) => LineRange = () => ({})): Rule {
  return (args) => {
    const parsed = parseArguments(args, valueFlags);
    return parsed.operands.length === 1 ? read(parsed.operands[0], lines(parsed)) : UNKNOWN;
  };
}

/** `ag needle src`: the pattern, then where to look. */
function searching(valueFlags: readonly string[]): Rule {
  return (args) => {
    const { operands } = parseArguments(args, valueFlags);
    return search(operands[0], operands[1]);
  };
}

/**
 * `head -n 5 f` / `tail -n +5 f`: a count first (`-n N` or `-nN`), then the file; or a file
 * alone. Any other shape (`head -c 10 f`, `head -5 f`) is not a read.
 */
function countedRead(count: RegExp, lines: (count: string) => LineRange): Rule {
  return (args) => {
    const first = args[0] ?? '';
    const separate = first === '-n' && count.test(args[1] ?? '');
    const attached = !separate && first.startsWith('-n') && count.test(first.slice(2));
    if (separate || attached) {
      const path = args.slice(separate ? 2 : 1).find((arg) => !arg.startsWith('-'));
      if (path !== undefined) return read(path, lines(separate ? args[1] : first.slice(2)));
    }
    return args.length === 1 && !first.startsWith('-') ? read(first) : UNKNOWN;
  };
}

export const HEAD_COUNT = /^\d+$/;
export const TAIL_COUNT = /^\+?\d+$/;

function ripgrep(args: readonly string[]): Summary {
  const { operands } = parseArguments(args, RG_VALUE_FLAGS);
  return args.includes('--files') ? list(operands[0]) : search(operands[0], operands[1]);
}

/** grep: the pattern is `-e`'s value (or `-f`'s file), else the first operand; then the path. */
function grep(args: readonly string[]): Summary {
  const parsed = parseArguments(args, GREP_VALUE_FLAGS);
  const pattern = firstValue(parsed, ['-e', '--regexp', '-f', '--file']);
  const { operands } = parsed;
  return pattern === undefined ? search(operands[0], operands[1]) : search(pattern, operands[0]);
}

function git(args: readonly string[]): Summary {
  const rule = GIT_SUBCOMMANDS.get(args[0] ?? '');
  return rule === undefined ? UNKNOWN : rule(args.slice(1));
}

/** fd: a lone operand is the path when it looks like one, else the pattern; `-x` runs commands. */
function fd(args: readonly string[]): Summary {
  if (args.some((arg) => FD_EXEC_FLAGS.includes(arg))) return UNKNOWN;
  const parsed = parseArguments(args, FD_VALUE_FLAGS);
  const [first, second] = parsed.operands;
  const searchPath = firstValue(parsed, ['--search-path']);
  if (first === undefined || (second === undefined && isPathLike(first))) return list(first ?? searchPath);
  return search(first, second ?? searchPath);
}

function isPathLike(arg: string): boolean {
  return arg === '.' || arg === '..' || arg.includes('/') || arg.includes('\\');
}

/**
 * find: the paths come before the expression (after the `-H`/`-L`/`-P` options); a name
 * filter makes it a search. Actions that delete, write or run commands are not file reads.
 */
function find(args: readonly string[]): Summary {
  if (args.some((arg) => FIND_ACTIONS.includes(arg))) return UNKNOWN;
  let i = 0;
  while (i < args.length && FIND_OPTIONS.includes(args[i])) i++;
  const root = i < args.length && !args[i].startsWith('-') && !FIND_OPERATORS.includes(args[i]) ? args[i] : undefined;
  const filter = args.findIndex((arg) => FIND_PATTERNS.includes(arg));
  const query = filter >= 0 ? args[filter + 1] : undefined;
  return query === undefined ? list(root) : search(query, root);
}

/** awk: the data file is the second operand (the first is the program), or the first with `-f`. */
function awk(args: readonly string[]): Summary {
  const { operands } = parseArguments(args, AWK_VALUE_FLAGS);
  const programFile = args.includes('-f') || args.includes('--file');
  return read(operands[programFile ? 0 : 1]);
}

/**
 * `sed -n 'A,Bp' [FILE]`: what it prints and from which file, when that is all it does. Codex
 * accepts a `-n` with a print-range script anywhere; the range is reported only when that
 * range is sed's sole script.
 */
export function sedPrint(args: readonly string[]): { lines: LineRange; path?: string } | undefined {
  if (!args.includes('-n') || editsInPlace(args)) return undefined;
  const parsed = parseArguments(args, SED_SCRIPT_FLAGS);
  const scripts = parsed.values.filter(([flag]) => SED_SCRIPT_FLAGS.includes(flag)).map(([, script]) => script);
  const { operands } = parsed;
  const isRange = (arg: string | undefined) => arg !== undefined && sedPrintScript(arg) !== undefined;
  if (!scripts.some(isRange) && !operands.some(isRange)) return undefined;
  const path = isRange(operands[0]) ? operands[1] : operands[0];
  const sole = scripts.length === 0 ? operands[0] : scripts.length === 1 ? scripts[0] : undefined;
  const range = sole === undefined ? undefined : sedPrintScript(sole);
  const lines = range === undefined ? {} : lineRange(range[0], range[1]);
  return path === undefined ? { lines } : { lines, path };
}

/** `sed -i` (`-i.bak`, `-ni`, `--in-place`) rewrites its file. */
export function editsInPlace(args: readonly string[]): boolean {
  return args.some((arg) => arg.startsWith('--in-place') || (/^-[^-]/.test(arg) && arg.includes('i')));
}

/** nl: numbers its first operand's lines. */
function nl(args: readonly string[]): Summary {
  return read(parseArguments(args, NL_VALUE_FLAGS).operands[0]);
}

function sed(args: readonly string[]): Summary {
  const printed = sedPrint(args);
  return read(printed?.path, printed?.lines);
}

/** `python -c '...os.walk...'` lists files (Codex's heuristic); any other python is not known. */
function python(args: readonly string[]): Summary {
  const c = args.indexOf('-c');
  const script = c >= 0 ? args[c + 1] : undefined;
  return script !== undefined && PYTHON_WALKS.some((walk) => script.includes(walk)) ? list(undefined) : UNKNOWN;
}

const RG_VALUE_FLAGS = [
  '-g',
  '--glob',
  '--iglob',
  '-t',
  '--type',
  '--type-add',
  '--type-not',
  '-m',
  '--max-count',
  '-A',
  '-B',
  '-C',
  '--context',
  '--max-depth',
];
const GREP_VALUE_FLAGS = [
  '-e',
  '--regexp',
  '-f',
  '--file',
  '-m',
  '--max-count',
  '-C',
  '--context',
  '-A',
  '--after-context',
  '-B',
  '--before-context',
];
const AG_VALUE_FLAGS = ['-G', '-g', '--file-search-regex', '--ignore-dir', '--ignore-file', '--path-to-ignore'];
const EZA_VALUE_FLAGS = ['-I', '--ignore-glob', '--color', '--sort', '--time-style', '--time'];
const BAT_VALUE_FLAGS = [
  '--theme',
  '--language',
  '--style',
  '--terminal-width',
  '--tabs',
  '--line-range',
  '--map-syntax',
];
const LESS_VALUE_FLAGS = [
  '-p',
  '-P',
  '-x',
  '-y',
  '-z',
  '-j',
  '--pattern',
  '--prompt',
  '--tabs',
  '--shift',
  '--jump-target',
];
const AWK_VALUE_FLAGS = ['-F', '-v', '-f', '--field-separator', '--assign', '--file'];
const NL_VALUE_FLAGS = ['-s', '-w', '-v', '-i', '-b'];
const SED_SCRIPT_FLAGS = ['-e', '--expression', '-f', '--file'];
const FD_VALUE_FLAGS = ['-t', '--type', '-e', '--extension', '-E', '--exclude', '--search-path'];
const FD_EXEC_FLAGS = ['-x', '--exec', '-X', '--exec-batch'];
const FIND_OPTIONS = ['-H', '-L', '-P'];
const FIND_OPERATORS = ['!', '(', ')'];
const FIND_PATTERNS = ['-name', '-iname', '-path', '-regex'];
const FIND_ACTIONS = ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'];
const PYTHON_WALKS = ['os.walk', 'os.listdir', 'os.scandir', 'glob.glob', 'glob.iglob', 'pathlib.Path', '.rglob('];

/** bat: a read; with one `--line-range`, of those lines (several ranges are not one range). */
function batLines(parsed: Arguments): LineRange {
  const ranges = parsed.values.filter(([flag]) => flag === '--line-range');
  return ranges.length === 1 ? batLineRange(ranges[0][1]) : {};
}

const GIT_SUBCOMMANDS: ReadonlyMap<string, Rule> = new Map([
  ['grep', grep],
  ['ls-files', listing(['--exclude', '--exclude-from', '--pathspec-from-file'])],
]);

const bat = readingOne(BAT_VALUE_FLAGS, batLines);

/** Program name -> its rule. A program not here is not a file operation. */
const PROGRAMS: ReadonlyMap<string, Rule> = new Map([
  ['ls', listing(['-I', '-w', '--block-size', '--format', '--time-style', '--color', '--quoting-style'])],
  ['eza', listing(EZA_VALUE_FLAGS)],
  ['exa', listing(EZA_VALUE_FLAGS)],
  ['tree', listing(['-L', '-P', '-I', '--charset', '--filelimit', '--sort'])],
  ['du', listing(['-d', '--max-depth', '-B', '--block-size', '--exclude', '--time-style'])],
  ['rg', ripgrep],
  ['rga', ripgrep],
  ['ripgrep-all', ripgrep],
  ['grep', grep],
  ['egrep', grep],
  ['fgrep', grep],
  ['ag', searching(AG_VALUE_FLAGS)],
  ['ack', searching(AG_VALUE_FLAGS)],
  ['pt', searching(AG_VALUE_FLAGS)],
  ['git', git],
  ['fd', fd],
  ['find', find],
  ['cat', readingOne([])],
  ['more', readingOne([])],
  ['less', readingOne(LESS_VALUE_FLAGS)],
  ['bat', bat],
  ['batcat', bat],
  ['head', countedRead(HEAD_COUNT, (n) => lineRange(1, Number(n)))],
  ['tail', countedRead(TAIL_COUNT, (n) => (n.startsWith('+') ? lineRange(Number(n.slice(1))) : {}))],
  ['awk', awk],
  ['nl', nl],
  ['sed', sed],
  ['python', python],
  ['python2', python],
  ['python3', python],
]);

/** What `program args...` does. `python3.12` and the like are python. */
export function summarizeProgram(program: string, args: readonly string[]): Summary {
  const rule = PROGRAMS.get(/^python[23]\./.test(program) ? 'python' : program);
  return rule === undefined ? UNKNOWN : rule(args);
}
