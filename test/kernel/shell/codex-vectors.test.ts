import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyShellCommand, isSmallFormattingCommand, type FileOperation } from '../../../lib/kernel/shell/index.js';

// Codex's own test suite as data (test/fixtures/vectors/codex, see its README and SOURCES).
interface CodexEntry {
  type: 'read' | 'list_files' | 'search' | 'unknown';
  path?: string | null;
  query?: string | null;
}
interface ParseCase {
  name: string;
  case?: number;
  command: string | string[];
  command_via: 'vec_str' | 'shlex_split_safe';
  argv: string[];
  expected: CodexEntry[];
}
interface FormattingCase {
  name: string;
  case?: number;
  tokens: string[];
  expected_is_small_formatting: boolean;
}

function vectors<T>(file: string): T[] {
  return JSON.parse(readFileSync(new URL(`../../fixtures/vectors/codex/${file}`, import.meta.url), 'utf8')) as T[];
}

const parseCases = vectors<ParseCase>('parse-command.json');
const formattingCases = vectors<FormattingCase>('is-small-formatting.json');
const label = (c: { name: string; case?: number }) => (c.case === undefined ? c.name : `${c.name} #${c.case}`);

/** Codex's display shortening (`short_display_path`): the last segment that says something. */
function shortDisplayPath(path: string): string {
  const trimmed = path.replaceAll('\\', '/').replace(/\/+$/, '');
  const meaningful = trimmed
    .split('/')
    .filter((part) => part !== '' && !['build', 'dist', 'node_modules', 'src'].includes(part));
  return meaningful.at(-1) ?? trimmed;
}

const TYPES = { read: 'read', list_files: 'list', search: 'search' } as const;

/**
 * The vectors' comparison rule: same events in order; `search.query` exactly; `read.path` as
 * Codex gives it (we are called without a cwd); for list/search paths, Codex's short form of
 * ours. An `unknown` means the command stays a command: null. Returns what differs, or null.
 */
function mismatch(ours: FileOperation[] | null, expected: CodexEntry[]): string | null {
  if (expected.some((entry) => entry.type === 'unknown')) return ours === null ? null : 'expected null';
  if (ours === null || ours.length !== expected.length) return `expected ${expected.length} operations`;
  for (const [i, entry] of expected.entries()) {
    const op = ours[i];
    if (entry.type === 'unknown' || op.type !== TYPES[entry.type]) return `#${i}: type`;
    if (op.type === 'search' && op.query !== entry.query) return `#${i}: query`;
    if (op.type === 'read' && op.path !== entry.path) return `#${i}: read path`;
    if (op.type !== 'read' && (op.path === undefined ? null : shortDisplayPath(op.path)) !== entry.path)
      return `#${i}: path`;
  }
  return null;
}

/** Cases we decide differently on purpose, each with our actual output. */
const DECIDED_DIFFERENTLY: Record<string, { reason: string; ours: FileOperation[] | null }> = {
  supports_cd_and_rg_files: {
    reason:
      'Codex joins a `cd` only onto read paths, so `cd codex-rs && rg --files` lists path null; ' +
      'docs/contract.md joins every path onto the cd, and a list with no operand after a cd lists the cd target',
    ours: [{ type: 'list', path: 'codex-rs' }],
  },
};

/**
 * Cases given to Codex as `shlex_split_safe(string)`: the string read as a shell script means
 * the same, except where shell syntax and shlex disagree.
 */
const SCRIPT_DIFFERS: Record<string, { reason: string; ours: FileOperation[] | null }> = {
  supports_grep_weird_backtick_in_query: {
    reason: 'in a shell script an unquoted backtick starts a command substitution (shlex keeps it as a character)',
    ours: null,
  },
};

describe('Codex parse_command vectors (parse-command.json)', () => {
  it('holds all 97 cases', () => {
    expect(parseCases).toHaveLength(97);
  });

  for (const c of parseCases) {
    const different = DECIDED_DIFFERENTLY[label(c)];
    if (different === undefined) {
      it(`${label(c)}: ${JSON.stringify(c.argv)}`, () => {
        expect(mismatch(classifyShellCommand(c.argv), c.expected)).toBeNull();
      });
    } else {
      it(`${label(c)} is decided differently: ${different.reason}`, () => {
        const ours = classifyShellCommand(c.argv);
        expect(ours).toEqual(different.ours);
        expect(mismatch(ours, c.expected)).not.toBeNull();
      });
    }
  }

  it('at least 95 of 97 match, and every other one is listed', () => {
    const failing = parseCases.filter((c) => mismatch(classifyShellCommand(c.argv), c.expected) !== null).map(label);
    expect(failing).toEqual(Object.keys(DECIDED_DIFFERENTLY));
    expect(parseCases.length - failing.length).toBeGreaterThanOrEqual(95);
  });

  describe('the same commands given as script strings', () => {
    for (const c of parseCases.filter((c) => typeof c.command === 'string')) {
      const differs = SCRIPT_DIFFERS[label(c)];
      it(`${label(c)}: ${String(c.command)}`, () => {
        const ours = classifyShellCommand(c.command);
        expect(ours).toEqual(differs === undefined ? classifyShellCommand(c.argv) : differs.ours);
      });
    }
  });
});

describe('Codex is_small_formatting_command vectors (is-small-formatting.json)', () => {
  it('holds all 40 cases', () => {
    expect(formattingCases).toHaveLength(40);
  });

  for (const c of formattingCases) {
    it(`${label(c)}: ${JSON.stringify(c.tokens)} -> ${c.expected_is_small_formatting}`, () => {
      expect(isSmallFormattingCommand(c.tokens)).toBe(c.expected_is_small_formatting);
    });
  }
});
