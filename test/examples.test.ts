/** The documented examples run as users would run them. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

test("examples/custom-harness.ts is docs/custom-harness.md's, and prints the events it says", async () => {
  const example = readFileSync(new URL('../examples/custom-harness.ts', import.meta.url), 'utf8');
  expect(readFileSync(new URL('../docs/custom-harness.md', import.meta.url), 'utf8')).toContain(
    '```ts\n' + example + '```',
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/custom-harness.ts'], {
    cwd: root,
  });
  expect(
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line)),
  ).toEqual([
    { type: 'agent', message: 'Looking at the notes.' },
    { type: 'read', path: '/work/notes.md', is_success: true },
    { type: 'search', query: 'TODO', path: '/work/src', is_success: true },
  ]);
}, 60_000);
