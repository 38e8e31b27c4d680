/**
 * The import check of scripts/check-layers.ts (npm run check:layers, in CI): on lib/ it finds
 * nothing; on a tree that imports upward, sideways or in a circle (of files or of folders) it says so.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkLayers } from '../scripts/check-layers.js';

const scratch = mkdtempSync(join(tmpdir(), 'harness-events-layers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, 'src-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('lib/: no file imports a layer above its own, and no two files load each other', () => {
  const report = checkLayers(new URL('../lib/', import.meta.url).pathname);
  expect(report.violations).toEqual([]);
  expect(report.cycles).toEqual([]);
  expect(report.files).toBeGreaterThan(90);
});

test('an upward import, a sideways one between stages and harnesses, and a value cycle are reported', () => {
  const root = tree({
    'kernel/a.ts': "import { run } from '../runtime/run.js';\nexport const a = run;\n",
    'kernel/b.ts': "import type { C } from './c.js';\nexport type B = C;\n",
    'kernel/c.ts': "import type { B } from './b.js';\nexport type C = B | 1;\n",
    'stages/s.ts': "import { h } from '../harnesses/x/h.js';\nexport const s = h;\n",
    'harnesses/x/h.ts': "import { k } from '../../kernel/k.js';\nexport const h = k;\n",
    'kernel/k.ts': 'export const k = 1;\n',
    'runtime/run.ts': "import { again } from './again.js';\nexport const run = again;\n",
    'runtime/again.ts': "export { run as again } from './run.js';\n",
    'interfaces/view/v.ts': "import { cli } from '../cli/cli.js';\nexport const v = cli;\n",
    'interfaces/cli/cli.ts': "import { run } from '../../runtime/run.js';\nexport const cli = run;\n",
    'index.ts': "export { cli } from './interfaces/cli/cli.js';\n",
  });
  const report = checkLayers(root);
  expect(report.violations.sort()).toEqual([
    'interfaces/view/v.ts -> interfaces/cli/cli.ts',
    'kernel/a.ts -> runtime/run.ts',
    'stages/s.ts -> harnesses/x/h.ts',
  ]);
  // Types only (b <-> c) load nothing; run <-> again does.
  expect(report.cycles).toEqual([['runtime/again.ts', 'runtime/run.ts']]);
});

test('folders that import each other are a circle at any depth, even when no two files are', () => {
  const root = tree({
    // kernel's own files and kernel/shell: a type one way, a value the other.
    'kernel/rules.ts': "import type { Line } from './shell/types.js';\nexport type Rule = Line;\n",
    'kernel/shell/types.ts': 'export type Line = string;\n',
    'kernel/shell/classify.ts': "import { join } from '../paths.js';\nexport const classify = join;\n",
    'kernel/paths.ts': 'export const join = 1;\n',
    // harnesses/a <-> harnesses/b, through files in a subfolder of one of them.
    'harnesses/a/sig.ts': "import { tell } from '../b/deep/tell.js';\nexport const sig = tell;\n",
    'harnesses/b/deep/tell.ts': 'export const tell = 1;\n',
    'harnesses/b/use.ts': "import { other } from '../a/other.js';\nexport const use = other;\n",
    'harnesses/a/other.ts': 'export const other = 1;\n',
    // Siblings one way only: no circle.
    'runtime/run/r.ts': "import { s } from '../sessions/s.js';\nexport const r = s;\n",
    'runtime/sessions/s.ts': "import { tell } from '../../harnesses/b/deep/tell.js';\nexport const s = tell;\n",
  });
  const report = checkLayers(root);
  expect(report.violations).toEqual([]);
  expect(report.cycles).toEqual([]);
  expect(report.folderCycles).toEqual([
    ['harnesses/a', 'harnesses/b'],
    ['kernel', 'kernel/shell'],
  ]);
});

test('lib/: no two folders import each other', () => {
  expect(checkLayers(new URL('../lib/', import.meta.url).pathname).folderCycles).toEqual([]);
});
