/**
 * Shell commands that are file operations: line ranges, cd, paths with and without a working directory, quoting,
 * shell wrappers, the fixtures' real commands. What stays a command, several operations in one, program rules, argv
 * arrays, unwrapping and the final search: operations.test.ts.
 */
import { cases, list, read, search } from './cases.js';

cases('line ranges', [
  ["sed -n '2,4p' notes.txt", [read('notes.txt', 2, 4)]],
  ["sed -n '7p' notes.txt", [read('notes.txt', 7, 7)]],
  ['sed -n -e 3,9p notes.txt', [read('notes.txt', 3, 9)]],
  ['sed -n 3,9p -- notes.txt', [read('notes.txt', 3, 9)]],
  ['head -n 3 notes.txt', [read('notes.txt', 1, 3)]],
  ['head -n3 notes.txt', [read('notes.txt', 1, 3)]],
  ['tail -n +5 notes.txt', [read('notes.txt', 5)]],
  ['tail -n+5 notes.txt', [read('notes.txt', 5)]],
  ["cat notes.txt | sed -n '2,3p'", [read('notes.txt', 2, 3)]],
  ["nl -ba notes.txt | sed -n '2,3p'", [read('notes.txt', 2, 3)]],
  ["cat notes.txt | sed -n '4p' | wc -l", [read('notes.txt', 4, 4)]],
  ['bat --line-range 3:9 notes.txt', [read('notes.txt', 3, 9)]],
  ['bat --line-range=3:9 notes.txt', [read('notes.txt', 3, 9)]],
  ['bat --line-range 3: notes.txt', [read('notes.txt', 3)]],
  ['bat --line-range :9 notes.txt', [read('notes.txt', 1, 9)]],
  ['bat --line-range 4 notes.txt', [read('notes.txt', 4, 4)]],
  // Reads with no range: the whole file, or lines we cannot place.
  ['cat notes.txt', [read('notes.txt')]],
  ['head notes.txt', [read('notes.txt')]],
  ['tail -n 30 notes.txt', [read('notes.txt')]],
  ['tail notes.txt', [read('notes.txt')]],
  ['less notes.txt', [read('notes.txt')]],
  ['nl -ba notes.txt', [read('notes.txt')]],
  ["awk '{print $1}' notes.txt", [read('notes.txt')]],
  ['bat --line-range 1:2 --line-range 5:6 notes.txt', [read('notes.txt')]],
  ['sed -n -e 1p -e 5p notes.txt', [read('notes.txt')]],
  ["head -n 5 notes.txt | sed -n '2,3p'", [read('notes.txt', 1, 5)]],
  ["ls -la | sed -n '1,120p'", [list()]],
  // Nonsense ranges: still reads, without a range.
  ["sed -n '0p' notes.txt", [read('notes.txt')]],
  ["sed -n '5,2p' notes.txt", [read('notes.txt')]],
  ["sed -n '0,2p' notes.txt", [read('notes.txt')]],
  ['head -n 0 notes.txt', [read('notes.txt')]],
  ['tail -n +0 notes.txt', [read('notes.txt')]],
  ['bat --line-range 9:3 notes.txt', [read('notes.txt')]],
  ["sed -n '99999999999999999999p' notes.txt", [read('notes.txt')]],
  // A sed with its own file is its own read.
  ["cat a.txt | sed -n '1,5p' b.txt", [read('a.txt'), read('b.txt', 1, 5)]],
]);

cases('cd joins paths', [
  ['cd src && cat a.ts', [read('src/a.ts')]],
  ['cd /etc && cat hosts', [read('/etc/hosts')]],
  ['cd a && cd b && cat f', [read('a/b/f')]],
  ['cd a && cd ../b && cat f', [read('b/f')]],
  ['cd a && cd /abs && cat f', [read('/abs/f')]],
  ['cd a && cat /etc/hosts', [read('/etc/hosts')]],
  ['cd ./src/ && cat ./a.ts', [read('src/a.ts')]],
  ['cd src && ls', [list('src')]],
  ['cd src && ls lib', [list('src/lib')]],
  ['cd src && rg foo', [search('foo', 'src')]],
  ['cd src && rg foo lib', [search('foo', 'src/lib')]],
  ['cd src && cat a.ts && cd .. && cat b.ts', [read('src/a.ts'), read('b.ts')]],
  // A cd alone does nothing to files; to an unknown directory, nothing can be placed.
  ['cd src', null],
  ['cd && cat f', null],
  ['cd - && cat f', null],
]);

cases(
  'cd with a working directory',
  [
    ['cd src && cat a.ts', [read('/ws/src/a.ts')]],
    ['cd /etc && cat hosts', [read('/etc/hosts')]],
    ['cd a && cd b && cat f', [read('/ws/a/b/f')]],
    ['cd .. && ls', [list('/')]],
    ['cd src && rg foo', [search('foo', '/ws/src')]],
  ],
  '/ws',
);

cases('paths without a working directory stay as written', [
  ['cat ./a/../b.txt', [read('./a/../b.txt')]],
  ['cat /etc/../etc/hosts', [read('/etc/hosts')]],
  ['ls src/', [list('src/')]],
  ['grep -R X -n core/src/spawn.rs', [search('X', 'core/src/spawn.rs')]],
  ['ls', [list()]],
  ["cat ''", null],
  // Longer than PATH_MAX (4096): names no file.
  [`cat ${'d/'.repeat(2100)}f`, null],
  [`cd ${'d/'.repeat(2100)} && cat f`, null],
  // Paths built from cds add up to at most 1 MiB: 400 or 600 reads of a 2,001-character path.
  [`cd ${'d/'.repeat(1000)} && ${'cat f && '.repeat(399)}cat f`, [read(`${'d/'.repeat(1000)}f`)]],
  [`cd ${'d/'.repeat(1000)} && ${'cat f && '.repeat(599)}cat f`, null],
]);

cases(
  'paths with a working directory are absolute and normalized',
  [
    ['cat ./a/../b.txt', [read('/ws/b.txt')]],
    ['cat /etc/hosts', [read('/etc/hosts')]],
    ['ls .', [list('/ws')]],
    ['ls src/', [list('/ws/src')]],
    ['grep -R X -n core/src/spawn.rs', [search('X', '/ws/core/src/spawn.rs')]],
    ['rg --files webview/src', [list('/ws/webview/src')]],
    // No operand, no cd: the harness did not say where, so neither do we.
    ['ls', [list()]],
    ['rg foo', [search('foo')]],
  ],
  '/ws',
);

cases('quoting', [
  ["cat 'my file.txt'", [read('my file.txt')]],
  ['cat "my file.txt"', [read('my file.txt')]],
  ['cat my\\ file.txt', [read('my file.txt')]],
  [`cat 'a'"b"c`, [read('abc')]],
  ['rg -n "foo" -g"*.py"', [search('foo')]],
  [`grep -e"x y" src`, [search('x y', 'src')]],
  ['cat "a\\"b"', [read('a"b')]],
  ['cat "a\\b"', [read('a\\b')]],
  ["cat 'a\\b'", [read('a\\b')]],
  ['cat "it\'s"', [read("it's")]],
  ['cat \'say "hi"\'', [read('say "hi"')]],
  ["cat '$HOME'", [read('$HOME')]],
  ['cat \\$HOME', [read('$HOME')]],
  ["cat '~/notes'", [read('~/notes')]],
  ['cat a\\\nb', [read('ab')]],
  ['cat a.txt;', [read('a.txt')]],
  ['\n  cat a.txt \n\n', [read('a.txt')]],
  ['grep -rn "hello world" .', [search('hello world', '.')]],
  // Only a command's first word can be an assignment or a reserved word.
  ['cat FOO=bar', [read('FOO=bar')]],
  ['cat if', [read('if')]],
  ["'FOO'=1 cat f", null],
]);

cases('shell wrappers', [
  // claude-code/lab/bash.jsonl (a Bash call)
  ["bash -lc 'ls'", [list()]],
  // codex/agentcmd-stream-output-2-bash-ls.jsonl, -4-bash-cat-read.jsonl, -5-zsh-ls-stderr.jsonl
  ['bash -lc ls', [list()]],
  ["bash -lc 'cat test.js'", [read('test.js')]],
  ['zsh -lc ls', [list()]],
  // codex/lab/read.jsonl
  ["/bin/bash -lc 'cat README.md'", [read('README.md')]],
  [`/bin/bash -lc "sed -n '2,3p' notes.txt"`, [read('notes.txt', 2, 3)]],
  [`/bin/bash -lc "nl -ba src/a.ts | sed -n '1,2p'"`, [read('src/a.ts', 1, 2)]],
  ["/bin/bash -lc 'cat missing.txt'", [read('missing.txt')]],
  // codex/lab/shell.jsonl
  [`/bin/bash -lc "sed -n '2,4p' notes.txt"`, [read('notes.txt', 2, 4)]],
  ["/bin/bash -lc 'grep -rn hello .'", [search('hello', '.')]],
  ["/bin/bash -lc 'ls -la src'", [list('src')]],
  ["/bin/bash -lc 'cd src && cat a.ts'", [read('src/a.ts')]],
  ['/bin/bash -lc false', null],
  ["/bin/bash -lc 'echo hi > out.txt'", null],
  ["/bin/bash -lc 'pwd && ls'", null],
  ["/bin/bash -lc 'cat out.txt'", [read('out.txt')]],
  ["/bin/bash -lc 'git status --short'", null],
  // codex/lab/error-tool-args.jsonl
  ['/bin/bash -lc ls', [list()]],
  // Not from a fixture: the shlex quoting of a script holding single quotes.
  [`/bin/bash -lc 'nl -ba src/a.ts | sed -n '"'"'1,2p'"'"''`, [read('src/a.ts', 1, 2)]],
  ['sh -c "cat a.txt"', [read('a.txt')]],
  ['/usr/bin/zsh -c "cat a.txt"', [read('a.txt')]],
  [
    ['bash', '-lc', 'cat a.txt && cat b.txt'],
    [read('a.txt'), read('b.txt')],
  ],
  [['/bin/sh', '-c', "sed -n '2,3p' notes.txt"], [read('notes.txt', 2, 3)]],
  // Not one of Codex's exact shell names, not exactly three words, nested: not unwrapped.
  ["/tmp/bash -lc 'cat a.txt'", null],
  ["bash -l -c 'cat a.txt'", null],
  ["bash -lc 'cat a.txt' && cat b.txt", null],
  [`bash -lc "bash -lc 'cat a.txt'"`, null],
  [['fish', '-c', 'cat a.txt'], null],
  // PowerShell: Codex never classifies it.
  ["pwsh -c 'Get-Content a.txt'", null],
  [['powershell', '-Command', 'Get-ChildItem'], null],
  // A wrapper whose script is not plain words.
  ["bash -lc 'cat $F'", null],
]);

cases(
  'real commands from the Claude Code and OpenCode fixtures',
  [
    // claude-code/lab/bash.jsonl (opencode/lab/shell.jsonl has the same cat, sed, grep, ls, cd, echo and false)
    ['cat README.md', [read('/home/user/project/README.md')]],
    ["sed -n '2,4p' notes.txt", [read('/home/user/project/notes.txt', 2, 4)]],
    ['grep -rn hello .', [search('hello', '/home/user/project')]],
    ['ls -la src', [list('/home/user/project/src')]],
    ['cd src && cat a.ts', [read('/home/user/project/src/a.ts')]],
    ['head -n 3 notes.txt | wc -l', [read('/home/user/project/notes.txt', 1, 3)]],
    ['false', null],
    ['echo hi > out.txt', null],
    ["bash -lc 'ls'", [list()]],
    ['pwd', null],
    // claude-code/lab/parallel.jsonl, claude-code/lab/hooks.jsonl
    ['ls src', [list('/home/user/project/src')]],
    ['echo after', null],
    ['ls', [list()]],
    // opencode/lab/shell.jsonl
    ['pwd && ls', null],
  ],
  '/home/user/project',
);
