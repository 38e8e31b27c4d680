import { parseArguments } from './operands.js';
import { editsInPlace, HEAD_COUNT, summarizeProgram, TAIL_COUNT } from './programs.js';

/**
 * Codex's `is_small_formatting_command`: stages that only reshape what another stage prints
 * (`| head -n 5`, `| wc -l`), dropped from a script before it is classified. Ours differs in
 * what may write: `tee FILE`, `sed -i`, and `xargs` running anything but a reader are kept,
 * so the script stays a command.
 */
type Check = (args: readonly string[]) => boolean;

const always: Check = () => true;

/** `head`, `head -5`, `head -n 40`: a count, and no file operand. */
function countOnly(count: RegExp): Check {
  return (args) =>
    args.length === 0 ||
    (args.length === 1 && args[0].startsWith('-')) ||
    (args.length === 2 && (args[0] === '-n' || args[0] === '-c') && count.test(args[1]));
}

/** Programs `xargs` may run on what it reads without writing anything. */
const XARGS_READERS = new Set([
  'cat',
  'bat',
  'batcat',
  'less',
  'more',
  'head',
  'tail',
  'nl',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'rga',
  'ripgrep-all',
  'ag',
  'ack',
  'pt',
  'ls',
  'eza',
  'exa',
  'tree',
  'du',
  'wc',
  'echo',
]);
const XARGS_VALUE_FLAGS = ['-E', '-e', '-I', '-L', '-n', '-P', '-s'];

/** Whether `xargs` runs only a reader (or nothing); its command starts at its first operand. */
function xargsRunsOnlyReaders(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && args[i] !== '--' && args[i].startsWith('-')) {
    i += XARGS_VALUE_FLAGS.includes(args[i]) ? 2 : 1;
  }
  const program = args[i] === '--' ? args[i + 1] : args[i];
  return program === undefined || XARGS_READERS.has(program);
}

/** Program -> whether this invocation of it is a formatting helper. */
const FORMATTING: ReadonlyMap<string, Check> = new Map([
  ['wc', always],
  ['tr', always],
  ['cut', always],
  ['sort', always],
  ['uniq', always],
  ['column', always],
  ['yes', always],
  ['printf', always],
  ['tee', (args) => parseArguments(args, []).operands.length === 0],
  ['xargs', xargsRunsOnlyReaders],
  ['awk', (args) => summarizeProgram('awk', args).type !== 'read'],
  ['head', countOnly(HEAD_COUNT)],
  ['tail', countOnly(TAIL_COUNT)],
  ['sed', (args) => !editsInPlace(args) && summarizeProgram('sed', args).type !== 'read'],
]);

export function isSmallFormattingCommand(tokens: readonly string[]): boolean {
  const check = tokens.length === 0 ? undefined : FORMATTING.get(tokens[0]);
  return check !== undefined && check(tokens.slice(1));
}
