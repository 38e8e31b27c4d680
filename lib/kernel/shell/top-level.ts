/**
 * The commands of a script that run in the script's own shell, in order: what a `cd` among them does outlives the
 * command. Anything in a subshell (`( )`), a command substitution, a pipeline, a function body or a background job
 * runs elsewhere and is left out; a command inside control flow (`if`, `for`, `while`, `case`, ...) may or may not
 * run, and is marked so. One pass over the script, linear in its length; it never fails (a script it cannot read
 * gives what it read, the rest as `uncertain`).
 */

/** A command of the script's own shell. */
interface TopCommand {
  /** Its words, quotes removed; a word that expands (`$X`, `` `x` ``, a glob, `~user`) is null. */
  readonly words: readonly (string | null)[];
  /** Inside control flow, or after what could not be read: it may not have run as written. */
  readonly uncertain: boolean;
}

const SEPARATORS = new Set([';', '\n', '&', '|']);
const OPENS_FLOW = new Set(['if', 'for', 'while', 'until', 'case', 'select']);
const CLOSES_FLOW = new Set(['fi', 'done', 'esac']);
const GLOB = /[*?[]/;
/** Words before a command that are syntax, not the command. */
const LEADING = new Set([...OPENS_FLOW, ...CLOSES_FLOW, 'then', 'do', 'else', 'elif', '!', 'time', '{', '}']);

export function topLevelCommands(script: string): TopCommand[] {
  const commands: TopCommand[] = [];
  let words: (string | null)[] = [];
  let word = '';
  let inWord = false;
  let expands = false;
  let flow = 0;
  // The command is piped into the next, or follows a pipe: it runs in a subshell.
  let piped = false;
  // The next word is a redirection's target, not an argument.
  let redirect = false;
  // `name()` or `function name` was read: the next compound command is a function body.
  let functionBody = false;
  // Here-document delimiters waiting for the end of their line.
  const pendingDocs: string[] = [];

  const endWord = () => {
    if (!inWord) return;
    if (redirect) redirect = false;
    else if (words.length === 0 && !expands && LEADING.has(word)) {
      // Syntax before a command of this shell (a brace group's braces, `then`, `do`, ...): left out.
      if (OPENS_FLOW.has(word)) flow++;
      else if (CLOSES_FLOW.has(word)) flow = Math.max(0, flow - 1);
    } else {
      words.push(expands ? null : word);
      if (words.length === 1 && word === 'function') functionBody = true;
    }
    word = '';
    inWord = false;
    expands = false;
  };
  const endCommand = (kept: boolean) => {
    endWord();
    if (words.length > 0 && kept && !piped) commands.push({ words, uncertain: flow > 0 });
    words = [];
  };

  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === ' ' || c === '\t') endWord();
    else if (SEPARATORS.has(c)) {
      const next = script[i + 1];
      if (c === '|' && next === '|') {
        endCommand(true);
        piped = false;
        i++;
      } else if (c === '|') {
        piped = true;
        endCommand(false);
        if (next === '&') i++;
      } else if (c === '&' && next === '&') {
        endCommand(true);
        piped = false;
        i++;
      } else if (c === '&') {
        // A background job: its own process.
        endCommand(false);
        piped = false;
      } else {
        endCommand(true);
        piped = false;
        if (c === '\n') i = skipHereDocuments(script, i, pendingDocs.splice(0));
      }
    } else if (c === '\\') {
      if (script[i + 1] !== '\n') word += script[i + 1] ?? '';
      inWord = true;
      i++;
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end < 0) return lose(commands);
      word += script.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      const end = doubleQuoted(script, i + 1);
      if (end < 0) return lose(commands);
      const text = script.slice(i + 1, end);
      if (/[$`]/.test(text)) expands = true;
      word += text.replace(/\\([$`"\\\n])/g, '$1');
      inWord = true;
      i = end;
    } else if (c === '`') {
      const end = closing(script, i, '`');
      if (end < 0) return lose(commands);
      expands = inWord = true;
      i = end;
    } else if (c === '$') {
      const next = script[i + 1];
      const end = next === '(' || next === '{' ? closing(script, i + 1, next) : i;
      if (end < 0) return lose(commands);
      expands = inWord = true;
      i = end;
    } else if (c === '(') {
      endWord();
      if (words.length === 1 && script[i + 1] === ')') {
        // `name()`: a function's definition.
        functionBody = true;
        i++;
        continue;
      }
      // A subshell (or a function's body in parentheses): nothing in it outlives it.
      const end = closing(script, i, '(');
      if (end < 0) return lose(commands);
      functionBody = false;
      i = end;
    } else if (c === '{' && functionBody && !inWord) {
      const end = closing(script, i, '{');
      if (end < 0) return lose(commands);
      functionBody = false;
      words = [];
      i = end;
    } else if (c === '#' && !inWord) {
      const end = script.indexOf('\n', i);
      i = (end < 0 ? script.length : end) - 1;
    } else if (c === '<' || c === '>') {
      // `2>`: the digits before a redirection are its file descriptor.
      if (inWord && /^\d+$/.test(word) && !expands) {
        word = '';
        inWord = false;
      }
      endWord();
      if (c === '<' && script[i + 1] === '<' && script[i + 2] !== '<') {
        const doc = hereDocument(script, i + 2);
        if (doc === undefined) return lose(commands);
        pendingDocs.push(doc.delimiter);
        i = doc.end - 1;
        continue;
      }
      while (script[i + 1] === '<' || script[i + 1] === '>' || script[i + 1] === '&') i++;
      redirect = true;
    } else {
      if (!inWord && c === '~') {
        // `~` and `~/...` are the home directory, kept as written for the caller; `~user` is not known.
        const rest = /^~[^\s;&|/]*/.exec(script.slice(i))![0];
        if (rest !== '~') expands = true;
      }
      if (GLOB.test(c)) expands = true;
      word += c;
      inWord = true;
    }
  }
  endCommand(true);
  return commands;
}

/** What was read, then a command that may have done anything: every later directory is unknown. */
function lose(commands: TopCommand[]): TopCommand[] {
  commands.push({ words: [null], uncertain: true });
  return commands;
}

/** The index of the `"` closing a double-quoted string from `start`, -1 without one. */
function doubleQuoted(script: string, start: number): number {
  for (let i = start; i < script.length; i++) {
    if (script[i] === '\\') i++;
    else if (script[i] === '"') return i;
    else if (script[i] === '$' && (script[i + 1] === '(' || script[i + 1] === '{')) {
      const end = closing(script, i + 1, script[i + 1]);
      if (end < 0) return -1;
      i = end;
    }
  }
  return -1;
}

const PAIRS: Readonly<Record<string, string>> = { '(': ')', '{': '}', '`': '`' };

/** The index of what closes the `open` at `start` (nesting, quotes and escapes skipped), -1 without one. */
function closing(script: string, start: number, open: string): number {
  const close = PAIRS[open];
  let depth = 1;
  for (let i = start + 1; i < script.length; i++) {
    const c = script[i];
    if (c === '\\') i++;
    else if (c === close && --depth === 0) return i;
    else if (c === open && open !== '`') depth++;
    else if (c === "'" && open !== '`') {
      i = script.indexOf("'", i + 1);
      if (i < 0) return -1;
    } else if (c === '"' && open !== '`') {
      i = doubleQuoted(script, i + 1);
      if (i < 0) return -1;
    }
  }
  return -1;
}

/** `<<WORD` / `<<-WORD` / `<<'WORD'`: the delimiter, and where the operator's word ends. */
function hereDocument(script: string, start: number): { delimiter: string; end: number } | undefined {
  const match = /^-?[ \t]*(?:'([^']*)'|"([^"]*)"|([^\s;&|<>()]+))/.exec(script.slice(start));
  if (match === null) return undefined;
  return { delimiter: match[1] ?? match[2] ?? match[3], end: start + match[0].length };
}

/** From the newline at `at`, past the bodies of the here-documents opened on its line: the index to go on from. */
function skipHereDocuments(script: string, at: number, delimiters: readonly string[]): number {
  let i = at;
  for (const delimiter of delimiters) {
    for (;;) {
      const end = script.indexOf('\n', i + 1);
      const line = script.slice(i + 1, end < 0 ? script.length : end);
      i = end < 0 ? script.length : end;
      if (line.replace(/^\t+/, '') === delimiter || end < 0) break;
    }
  }
  return i;
}
