/**
 * Shell commands that stay commands, several operations in one command, program rules beyond the vectors, plain argv
 * arrays; unwrapShellCommand, and the search whose exit status is the whole command's.
 */
import { describe, expect, it } from 'vitest';
import { shellOperations, unwrapShellCommand } from '../../../lib/kernel/shell/index.js';
import { cases, list, read, search } from './cases.js';

cases('stays a command', [
  ['cat a && npm test', null],
  ['git status', null],
  ['npm run build', null],
  ['rg --version', null],
  ['grep', null],
  ['cat a b', null],
  ['cat', null],
  ['wc -l notes.txt', null],
  ['head -c 10 notes.txt', null],
  ['cat f && echo done', null],
  ['echo hi', null],
  ['true', null],
  ['true && true', null],
  ['nl -ba', null],
  ['', null],
  ['   ', null],
  // Writes, or runs other programs.
  ["sed -i 's/a/b/' f", null],
  ["cat a && sed -i 's/a/b/' f", null],
  ["sed -n -i '1,5p' f", null],
  ["find . -name '*.tmp' -delete", null],
  ["find . -name '*.ts' -exec cat {} \\;", null],
  ['fd -e ts -x wc -l', null],
  ['cat a | tee b', null],
  ['rg -l foo | xargs rm', null],
  ["rg -l foo | xargs sed -i 's/foo/bar/'", null],
  // Shell syntax beyond plain words.
  ['FOO=1 cat f', null],
  ['cat $HOME/f', null],
  ['cat "$f"', null],
  ['cat "${f}"', null],
  ['cat $(ls)', null],
  ['cat `ls`', null],
  ['(cat f)', null],
  ['{ cat f; }', null],
  ['cat {a,b}.txt', null],
  ['cat ~/f', null],
  ['cat f &', null],
  ['cat f 2>&1', null],
  ['cat f >> out', null],
  ['cat < f', null],
  ['cat <<EOF\nx\nEOF', null],
  ['cat <<< x', null],
  ['cat f |& wc', null],
  ['if true; then cat f; fi', null],
  ['for f in a b; do cat $f; done', null],
  ['! cat f', null],
  ['time cat f', null],
  ['cat f # show it', null],
  ['# cat f', null],
  ['ls | | wc', null],
  ['&& ls', null],
  ['ls &&', null],
  ['ls |', null],
  ['ls ;; pwd', null],
  ['; ls', null],
  ["cat 'unterminated", null],
  ['cat "unterminated', null],
  ['cat f\\', null],
]);

cases('several operations in one command', [
  ['cat a && cat b', [read('a'), read('b')]],
  ['cat a; ls src; rg foo', [read('a'), list('src'), search('foo')]],
  ['cat a\ncat b', [read('a'), read('b')]],
  ['cat a || cat b', [read('a'), read('b')]],
  ['cat a && cat a', [read('a')]],
  ['cat a && cat b && cat a', [read('a'), read('b'), read('a')]],
  ['echo hi && cat f', [read('f')]],
  ['echo one; echo two; cat f', [read('f')]],
  ['cat a || true', [read('a')]],
  ['true && cat a', [read('a')]],
  ['rg --files | nl -ba', [list()]],
  ['yes | rg --files', [list()]],
  ["printf 'x\\n'; cat a", [read('a')]],
  ['rg -l foo | xargs cat', [search('foo')]],
  ["find . -name '*.ts' | xargs wc -l", [search('*.ts', '.')]],
]);

cases('program rules beyond the vectors', [
  ['grep --regexp=TODO src', [search('TODO', 'src')]],
  ['grep -eTODO src', [search('TODO', 'src')]],
  ['grep -f patterns.txt src', [search('patterns.txt', 'src')]],
  ['grep -A 3 TODO src', [search('TODO', 'src')]],
  ['rg -- -foo src', [search('-foo', 'src')]],
  ['rg --files', [list()]],
  ['fd main', [search('main')]],
  ['fd', [list()]],
  ['fd --search-path src main', [search('main', 'src')]],
  ['find -name x', [search('x')]],
  ['find -L src -type f', [list('src')]],
  ['find', [list()]],
  ['git ls-files', [list()]],
  ['git grep -e TODO src', [search('TODO', 'src')]],
  ['git log', null],
  ['tree -L 2', [list()]],
  ['du -sh node_modules', [list('node_modules')]],
  ['awk -f prog.awk data.csv', [read('data.csv')]],
  ["awk -F, '{print $2}' data.csv", [read('data.csv')]],
  ['less -N notes.txt', [read('notes.txt')]],
  ['more notes.txt', [read('notes.txt')]],
  ['batcat notes.txt', [read('notes.txt')]],
  ['nl -s : notes.txt', [read('notes.txt')]],
  ['cat -- -x', [read('-x')]],
  [`python3.12 -c "import pathlib; print(list(pathlib.Path('.').iterdir()))"`, [list()]],
  ['python3 script.py', null],
  ['/bin/cat notes.txt', null],
]);

cases('plain argv arrays (Codex: connector tokens split, formatting helpers kept)', [
  [['cat', 'a.txt'], [read('a.txt')]],
  [['cat', 'a b.txt'], [read('a b.txt')]],
  [['cat', '$HOME'], [read('$HOME')]],
  [['cd', 'src', '&&', 'cat', 'a.ts'], [read('src/a.ts')]],
  [['rg', '--files', '|', 'head', '-n', '5'], null],
  [['sed', '-n', '2,3p', 'f', '|', 'nl', '-ba'], [read('f', 2, 3)]],
  [['yes', '|', 'rg', 'foo'], [search('foo')]],
  [['cat', 'a', '&&', 'npm', 'test'], null],
  [[], null],
]);

describe('unwrapShellCommand', () => {
  const unwraps: Array<[string, string]> = [
    // codex/lab/read.jsonl, codex/lab/shell.jsonl, codex/agentcmd-stream-output-2-bash-ls.jsonl, -5-zsh-ls-stderr.jsonl
    ["/bin/bash -lc 'cat README.md'", 'cat README.md'],
    [`/bin/bash -lc "nl -ba src/a.ts | sed -n '1,2p'"`, "nl -ba src/a.ts | sed -n '1,2p'"],
    ["/bin/bash -lc 'echo hi > out.txt'", 'echo hi > out.txt'],
    ['/bin/bash -lc false', 'false'],
    ['bash -lc ls', 'ls'],
    ['zsh -lc ls', 'ls'],
    [`/bin/bash -lc 'nl -ba src/a.ts | sed -n '"'"'1,2p'"'"''`, "nl -ba src/a.ts | sed -n '1,2p'"],
    // Not exactly one wrapper: as given.
    ['cat README.md', 'cat README.md'],
    ["bash -lc 'ls' && ls", "bash -lc 'ls' && ls"],
    ["/tmp/bash -lc 'ls'", "/tmp/bash -lc 'ls'"],
    ['echo $HOME', 'echo $HOME'],
  ];
  for (const [command, script] of unwraps) {
    it(`${JSON.stringify(command)} -> ${JSON.stringify(script)}`, () => {
      expect(unwrapShellCommand(command)).toBe(script);
    });
  }
});

describe("finalSearch: the search whose exit status is the whole command's (contract.md: exit 1 is no match)", () => {
  const cases: [string, number | undefined][] = [
    ['rg foo src', 0],
    ['grep -rn foo .', 0],
    ['egrep foo a', 0],
    ['ag foo', 0],
    ['ack foo', 0],
    ['git grep foo', 0],
    ["bash -lc 'rg foo'", 0],
    // The last command runs whatever came before: its status is the script's.
    ['cat a; rg foo', 1],
    ['cat a\nrg foo', 1],
    ['grep foo a; grep foo b', 1],
    // A pipeline's status is its last stage's.
    ['cat f | grep x', 1],
    ['rg foo | head', undefined],
    ['grep -r foo . | wc -l', undefined],
    // After && or ||, an exit code 1 may be an earlier command's (cd, cat): not the search's.
    ['cat a && rg foo', undefined],
    ['cd src && rg foo', undefined],
    ['rg foo || true', undefined],
    // The search does not end the script.
    ['rg foo; cat a', undefined],
    // Programs whose exit 1 does not mean "no match".
    ['find . -name x', undefined],
    ['fd x', undefined],
  ];
  for (const [command, expected] of cases) {
    it(`${JSON.stringify(command)} -> ${expected}`, () => {
      expect(shellOperations(command)?.finalSearch).toBe(expected);
    });
  }
});
