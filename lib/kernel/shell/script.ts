/** One simple command of a script: its words, and how it follows the one before. */
export interface Segment {
  readonly words: readonly string[];
  /** Its input is piped from the command before (`a | b`). */
  readonly piped: boolean;
  /** It runs only depending on how the command before ended (`a && b`, `a || b`). */
  readonly conditional: boolean;
}

/** Words that start shell syntax (control flow, negation, tests) when they open a command. */
const RESERVED = new Set([
  '!',
  '[[',
  ']]',
  'case',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'esac',
  'fi',
  'for',
  'function',
  'if',
  'in',
  'select',
  'then',
  'time',
  'until',
  'while',
]);

/** `NAME=` or `NAME+=` opening a command: an assignment, not a program. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** Expansions, substitutions, subshells and redirections: the script is more than plain words. */
const NOT_PLAIN = new Set(['$', '`', '(', ')', '<', '>', '}']);

/** Characters that end a run of plain word characters (`#` and `~` only matter at a word's start). */
const BREAKS_WORD = new Set([' ', '\t', '\n', ';', '&', '|', '\\', "'", '"', '{', ...NOT_PLAIN]);

/** Characters that end a run of literal text inside double quotes. */
const BREAKS_DOUBLE_QUOTED = new Set(['"', '$', '`', '\\']);

/** The index of the first character from `start` on that is in `breaks` (or the end). */
function runEnd(script: string, start: number, breaks: ReadonlySet<string>): number {
  let end = start;
  while (end < script.length && !breaks.has(script[end])) end++;
  return end;
}

/**
 * Reads a script the way Codex's tree-sitter check does: plain commands of words joined by
 * `&&`, `||`, `;`, `|` and newlines. Quotes, backslash escapes and adjacent pieces make words
 * (`-g"*.py"` is `-g*.py`). Anything else (redirections, `&`, `$`, backticks, subshells,
 * groups, brace and tilde expansion, assignments, control flow, comments, empty commands)
 * gives null. One pass over the script, so linear in its length.
 */
export function parseScript(script: string): Segment[] | null {
  const segments: Segment[] = [];
  let words: string[] = [];
  let piped = false;
  let conditional = false;
  // After `&&`, `||` or `|` a command must follow (newlines may come first).
  let needCommand = false;
  let pieces: string[] = [];
  let inWord = false;
  // How many leading characters of the word were neither quoted nor escaped.
  let bare = 0;
  let allBare = true;

  const addBare = (text: string) => {
    pieces.push(text);
    inWord = true;
    if (allBare) bare += text.length;
  };
  const addQuoted = (text: string) => {
    pieces.push(text);
    inWord = true;
    allBare = false;
  };
  const endWord = (): boolean => {
    if (!inWord) return true;
    const word = pieces.join('');
    if (words.length === 0 && isSyntax(word, allBare, bare)) return false;
    words.push(word);
    pieces = [];
    inWord = false;
    bare = 0;
    allBare = true;
    return true;
  };
  const endCommand = (nextPiped: boolean, nextNeeded: boolean): boolean => {
    if (!endWord() || words.length === 0) return false;
    segments.push({ words, piped, conditional });
    words = [];
    piped = nextPiped;
    conditional = nextNeeded && !nextPiped;
    needCommand = nextNeeded;
    return true;
  };

  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    const next = script[i + 1];
    if (c === ' ' || c === '\t') {
      if (!endWord()) return null;
    } else if (c === '\n') {
      if (!endWord()) return null;
      if (words.length > 0) endCommand(false, false);
    } else if (c === ';') {
      if (next === ';' || !endCommand(false, false)) return null;
    } else if (c === '&') {
      if (next !== '&' || !endCommand(false, true)) return null;
      i++;
    } else if (c === '|') {
      if (next === '&' || !endCommand(next !== '|', true)) return null;
      if (next === '|') i++;
    } else if (c === '\\') {
      if (next === undefined) return null;
      // Backslash-newline joins lines.
      if (next !== '\n') addQuoted(next);
      i++;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end < 0) return null;
      addQuoted(script.slice(i + 1, end));
      i = end;
    } else if (c === '"') {
      const end = readDoubleQuoted(script, i + 1, addQuoted);
      if (end < 0) return null;
      i = end;
    } else if ((c === '#' || c === '~') && !inWord) {
      // A comment, or a home directory we cannot know.
      return null;
    } else if (c === '{') {
      // `{}` (find's placeholder) is a literal word; any other brace groups or expands.
      if (next !== '}') return null;
      addBare('{}');
      i++;
    } else if (NOT_PLAIN.has(c)) {
      return null;
    } else {
      const end = runEnd(script, i + 1, BREAKS_WORD);
      addBare(script.slice(i, end));
      i = end - 1;
    }
  }
  if (!endWord()) return null;
  if (words.length > 0) segments.push({ words, piped, conditional });
  else if (needCommand) return null;
  return segments;
}

/** A command's first word that is shell syntax, not a program: an unquoted reserved word, or an assignment. */
function isSyntax(word: string, allBare: boolean, bare: number): boolean {
  if (allBare && RESERVED.has(word)) return true;
  const assignment = ASSIGNMENT.exec(word);
  return assignment !== null && assignment[0].length <= bare;
}

/**
 * Reads a double-quoted string from `start` (just after the opening quote) to its closing
 * quote, whose index it returns; -1 if the string expands something or never ends.
 */
function readDoubleQuoted(script: string, start: number, add: (text: string) => void): number {
  add('');
  for (let i = start; i < script.length; i++) {
    const c = script[i];
    if (c === '"') return i;
    if (c === '$' || c === '`') return -1;
    if (c !== '\\') {
      const end = runEnd(script, i + 1, BREAKS_DOUBLE_QUOTED);
      add(script.slice(i, end));
      i = end - 1;
      continue;
    }
    const next = script[i + 1];
    // Inside double quotes a backslash escapes only these; before anything else it stays.
    if (next === '$' || next === '`' || next === '"' || next === '\\') {
      add(next);
      i++;
    } else if (next === '\n') {
      i++;
    } else {
      add('\\');
    }
  }
  return -1;
}
