/**
 * docs/layout.md: no line over 120 characters in a hand-written file. eslint's max-len holds the TypeScript and
 * JavaScript to it; this holds the files eslint does not read (the shell scripts, the python3 writers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

/** The files under `dir` whose names end in one of `endings`, the captures aside. */
function files(dir: string, endings: readonly string[]): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => endings.some((ending) => name.endsWith(ending)) && !name.startsWith('fixtures/'))
    .map((name) => join(dir, name));
}

test('the shell scripts and python3 writers have no line over 120 characters', () => {
  const checked = ['.ci/run', ...files('scripts', ['.sh']), ...files('test', ['.py'])];
  expect(checked.length).toBeGreaterThan(5);
  const long = checked.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.length > 120 ? [`${file}:${index + 1}`] : [])),
  );
  expect(long).toEqual([]);
});
