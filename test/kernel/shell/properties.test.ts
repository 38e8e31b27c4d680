import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyShellCommand, type FileOperation } from '../../../lib/kernel/shell/index.js';

const KEYS = {
  read: ['type', 'path', 'start_line', 'end_line'],
  search: ['type', 'query', 'path'],
  list: ['type', 'path'],
};

/** null, or a non-empty array of operations with only their own keys, none of them undefined. */
function expectWellFormed(result: FileOperation[] | null, cwd: string | undefined): void {
  if (result === null) return;
  expect(Array.isArray(result)).toBe(true);
  expect(result.length).toBeGreaterThan(0);
  for (const op of result) {
    expect(Object.keys(KEYS)).toContain(op.type);
    for (const [key, value] of Object.entries(op)) {
      expect(KEYS[op.type]).toContain(key);
      expect(value).not.toBeUndefined();
    }
    if (op.type === 'search') expect(typeof op.query).toBe('string');
    if (op.type === 'read' || op.path !== undefined) {
      expect(typeof op.path).toBe('string');
      expect(op.path).not.toBe('');
      if (cwd?.startsWith('/')) expect(op.path?.startsWith('/')).toBe(true);
    }
    if (op.type === 'read') {
      if (op.start_line !== undefined) expect(Number.isInteger(op.start_line) && op.start_line >= 1).toBe(true);
      if (op.end_line !== undefined)
        expect(op.start_line !== undefined && Number.isInteger(op.end_line) && op.end_line >= op.start_line).toBe(true);
    }
  }
}

/** Pieces of shell syntax and of the commands the classifier knows, to build plausible scripts. */
const PIECES = [
  ' ',
  ' ',
  ' ',
  '\t',
  '\n',
  "'",
  '"',
  '\\',
  '&&',
  '||',
  '|',
  ';',
  '&',
  '$',
  '$(',
  ')',
  '(',
  '`',
  '${',
  '}',
  '{',
  '{}',
  '>',
  '<',
  '#',
  '~',
  '=',
  'FOO=1',
  '--',
  '-',
  '!',
  '*.ts',
  'cd',
  'cat',
  'sed',
  '-n',
  "'1,5p'",
  '3p',
  'head',
  'tail',
  '-n',
  '5',
  '+3',
  '-n5',
  'ls',
  'rg',
  '--files',
  'grep',
  '-e',
  'find',
  '-name',
  '-delete',
  'fd',
  'bat',
  '--line-range',
  '1:2',
  'nl',
  '-ba',
  'echo',
  'true',
  'xargs',
  'wc',
  '-l',
  'tee',
  'bash',
  '-lc',
  'sh',
  '-c',
  'src',
  'a.ts',
  '..',
  '.',
  '/',
  '/etc',
  'python',
  'os.walk',
  'git',
  'ls-files',
  'awk',
  "'{print $1}'",
  'yes',
  'é',
  '\u{1F600}',
];
const shellLike = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));
const cwd = fc.option(fc.constantFrom('/ws', '/', 'rel/dir', '/a/b/../c'), { nil: undefined });

describe('classifyShellCommand on random input', () => {
  // 3,000 + 2,000 + 4,000 + 1,000 = 10,000 inputs.
  it('never throws on any unicode string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), cwd, (command, dir) => {
        expectWellFormed(classifyShellCommand(command, dir), dir);
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on any ASCII string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), cwd, (command, dir) => {
        expectWellFormed(classifyShellCommand(command, dir), dir);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on strings built from shell syntax and known programs', () => {
    fc.assert(
      fc.property(shellLike, cwd, (command, dir) => {
        expectWellFormed(classifyShellCommand(command, dir), dir);
      }),
      { numRuns: 4000 },
    );
  });

  it('never throws on argv arrays', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...PIECES), shellLike), { maxLength: 12 }), cwd, (argv, dir) => {
        expectWellFormed(classifyShellCommand(argv, dir), dir);
      }),
      { numRuns: 1000 },
    );
  });
});

/** CPU time (user + system, microseconds) this process spends classifying `input` `times` times. */
function cpuTime(input: string | readonly string[], times: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) classifyShellCommand(input, '/ws');
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * 16x the input classified once, against the input classified 16 times: the same work when
 * classification is linear (a ratio near 1), 16x as much when it is quadratic. CPU time, not
 * wall time: a busy machine delays this process but hardly changes the work it does. Each side
 * is repeated to at least 20 ms of CPU, so timer ticks and a stray GC are noise; the smallest
 * ratio of up to 5 tries counts.
 */
function growth(make: (n: number) => string | readonly string[], n: number): number {
  const small = make(n / 4);
  const large = make(4 * n);
  const repeat = Math.ceil(20_000 / Math.max(cpuTime(large, 1), 1));
  let best = Infinity;
  for (let attempt = 0; attempt < 5 && best >= 4; attempt++) {
    best = Math.min(best, cpuTime(large, repeat) / Math.max(cpuTime(small, 16 * repeat), 1));
  }
  return best;
}

// The 4n inputs: the brief's `'` x 200k, `\\` x 200k, `a && ` x 100k, `"$` x 100k, and 70 KB
// to 250 KB of each other shape.
const SHAPES: Array<[string, (n: number) => string | readonly string[], number]> = [
  ["'", (n) => "'".repeat(n), 50_000],
  ['\\', (n) => '\\'.repeat(n), 50_000],
  ['a && ', (n) => 'a && '.repeat(n), 25_000],
  ['"$', (n) => '"$'.repeat(n), 25_000],
  ['a "b" ', (n) => 'a "b" '.repeat(n), 10_000],
  ['unterminated "', (n) => `"${'a'.repeat(n)}`, 60_000],
  ['one long word', (n) => 'x'.repeat(n), 60_000],
  ['long assignment-like first word', (n) => `${'A'.repeat(n)} f`, 60_000],
  ['cat a && ', (n) => `${'cat a && '.repeat(n)}cat b`, 4_000],
  ['cat a && cat b && ', (n) => `${'cat a && cat b && '.repeat(n)}true`, 2_000],
  ['true && ', (n) => `${'true && '.repeat(n)}ls`, 8_000],
  ['echo && ', (n) => `${'echo && '.repeat(n)}ls`, 8_000],
  ['cd a && ', (n) => `${'cd a && '.repeat(n)}cat f`, 8_000],
  ['cd a && cat f && ', (n) => `${'cd a && cat f && '.repeat(n)}ls`, 4_000],
  ['one deep cd, then reads', (n) => `cd ${'d/'.repeat(1000)} && ${'cat f && cat g && '.repeat(n)}ls`, 4_000],
  ['cd a && cd .. && ', (n) => `${'cd a && cd .. && '.repeat(n)}cat f`, 4_000],
  ['cat with many operands', (n) => `cat ${'a '.repeat(n)}`, 30_000],
  ['grep with many -e', (n) => `grep ${'-e x '.repeat(n)}src`, 12_000],
  ['find with many filters', (n) => `find . ${'-name x '.repeat(n)}`, 8_000],
  ['long grep query', (n) => `grep '${'q'.repeat(n)}' src`, 60_000],
  ['long sed script digits', (n) => `sed -n ${'1'.repeat(n)} f`, 60_000],
  ['long bat range', (n) => `bat --line-range ${'1'.repeat(n)}x f`, 60_000],
  ['wrapped script', (n) => `bash -lc '${'cat a; '.repeat(n)}'`, 3_000],
  [
    'argv of connectors',
    (n) => Array.from({ length: n }, (_, i) => (i % 3 === 2 ? '&&' : i % 3 === 0 ? 'cat' : 'a')),
    6_000,
  ],
  ['newlines', (n) => `${'\n'.repeat(n)}cat f`, 60_000],
];

describe('classifyShellCommand runs in linear time', () => {
  for (const [name, make, n] of SHAPES) {
    it(`${name}: 16x the input once costs well under 16x the input 16 times (CPU time)`, () => {
      expect(growth(make, n)).toBeLessThan(4);
    });
  }

  it('classifies a 1 MB script', () => {
    const script = `${'cat a.txt && cat b.txt && '.repeat(40_000)}cat a.txt`;
    expect(script.length).toBeGreaterThan(1_000_000);
    const pairs = Array.from({ length: 40_000 }, () => [
      { type: 'read', path: '/ws/a.txt' },
      { type: 'read', path: '/ws/b.txt' },
    ]);
    expect(classifyShellCommand(script, '/ws')).toStrictEqual([...pairs.flat(), { type: 'read', path: '/ws/a.txt' }]);
  });
});
