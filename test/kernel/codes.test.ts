/**
 * Every warning and error the library itself creates carries a code from the contract's table
 * (lib/kernel/contract.ts), and docs/events.md lists each one with its meaning.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { errorCodes, warningCodes } from '../../lib/kernel/codes.js';

const root = new URL('../..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The codes written as literals where the library makes its own warnings and errors. */
function codesInSource(): Set<string> {
  const found = new Set<string>();
  // The harnesses' own codes are their pages'; the ACP client, in acp's folder, is the library's.
  const own = (file: string) =>
    !file.endsWith('validators.ts') && (!file.startsWith('lib/harnesses/') || file.endsWith('/client.ts'));
  for (const file of sources('lib').filter(own)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(
      /\bcode: '([a-z_]+)'|warn\([^;]*, '([a-z_]+)'\);$|new TailNotice\('([a-z_]+)'/gm,
    )) {
      found.add(match[1] ?? match[2] ?? match[3]!);
    }
  }
  return found;
}

test('every code the library writes is in the contract table', () => {
  const known = new Set([...Object.keys(warningCodes), ...Object.keys(errorCodes)]);
  const used = codesInSource();
  expect([...used].filter((code) => !known.has(code))).toEqual([]);
  // And the table holds no code nothing writes.
  expect([...known].filter((code) => !used.has(code))).toEqual([]);
});

test('docs/events.md lists every code with its meaning', () => {
  const readme = readFileSync(join(root, 'docs/events.md'), 'utf8');
  for (const code of [...Object.keys(warningCodes), ...Object.keys(errorCodes)])
    expect(readme, code).toContain(`| \`${code}\` |`);
});
