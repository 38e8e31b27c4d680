/**
 * lib/kernel/shell/directory.ts: where a script's shell ends (docs/harnesses/claude-code.md "Shell directory"), for the
 * shell syntax the rules turn on; a pure function, so one row per case.
 */
import { describe, expect, test } from 'vitest';
import { scriptDirectory } from '../../../lib/kernel/shell/directory.js';

const cases: Array<[script: string, end: string | null]> = [
  // No move at all (and the fast path for scripts naming no cd/pushd/popd).
  ['ls -la', '/ws'],
  ['echo "cd docs"', '/ws'],
  ['ls # cd docs', '/ws'],
  // Top-level moves, in order, whatever joins them.
  ['cd docs', '/ws/docs'],
  ['cd docs\ncd ..', '/ws'],
  ['cd a || cd b', '/ws/a/b'],
  ['{ cd docs; }', '/ws/docs'],
  ['X=1 cd docs', '/ws/docs'],
  ['builtin cd docs', '/ws/docs'],
  ['cd -P -- docs 2>/dev/null', '/ws/docs'],
  ['cd "a b"', '/ws/a b'],
  ["cd 'l'\\''été'", "/ws/l'été"],
  ['cd /abs/../x', '/x'],
  ['cd', '/home/u'],
  ['cd ~/p', '/home/u/p'],
  // Elsewhere than the script's own shell.
  ['(cd docs)', '/ws'],
  ['cd docs && (cd ..)', '/ws/docs'],
  ['echo "$(cd docs)"', '/ws'],
  ['echo `cd docs`', '/ws'],
  ['function g { cd x; }', '/ws'],
  ['cd docs | cat', '/ws'],
  ['cat x |& cd docs', '/ws'],
  ['cd docs &', '/ws'],
  ['cat <<EOF\ncd docs\nEOF\n', '/ws'],
  ["cat <<-'EOF'\n\tcd docs\n\tEOF\ncd b", '/ws/b'],
  // The stack and OLDPWD are the script's.
  ['pushd a; pushd b; pushd', '/ws/a'],
  ['pushd a && popd', '/ws'],
  ['popd', '/ws'],
  ['cd -', '/ws'],
  ['cd a && cd -', '/ws'],
  ['cd a b', '/ws'],
  // Targets the words do not say.
  ['cd $HOME', null],
  ['cd "$X"', null],
  ['cd d*', null],
  ['cd ~bob', null],
  ['pushd +1', null],
  ['if true; then cd docs; fi', null],
  ['case x in a) cd y;; esac', null],
  ['cd "unterminated', null],
];

describe('scriptDirectory', () => {
  test.each(cases)('%j ends in %s', (script, end) => {
    expect(scriptDirectory(script, '/ws', '/home/u')).toBe(end);
  });

  test('an unknown start stays unknown for a relative move, not for an absolute one', () => {
    expect(scriptDirectory('cd docs', null, '/home/u')).toBe(null);
    expect(scriptDirectory('cd /opt', null, '/home/u')).toBe('/opt');
  });
});
