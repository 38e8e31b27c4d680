/**
 * The test files `npm run test:unit` runs: those that start nothing outside the test's own process. A file is left
 * out when it, or a helper under test/ that it imports (transitively), names what starts a process or needs the
 * build: child_process, spawnHarness, createRunStream, nats, Chromium, tmux, python3 (the SQLite writer), the built
 * CLI. Read from the files at every run, so a new or split test file is placed without a list to keep. Also left out,
 * though they start nothing: the slow ones by design, property tests (`*properties.test.ts`, thousands of generated
 * inputs), test/hostile/ (hostile input at scale) and test/live/ (the live suite's own checks).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const starts = [
  'child_process',
  'spawnHarness',
  'createRunStream',
  'nats-server',
  '@nats-io',
  'playwright-core',
  'chromium',
  'tmux',
  'python3',
  'dist/lib',
  'bin/harness-events',
];
const slowByDesign = /(^|\/)(hostile|live)\/|properties\.test\.ts$/;
const relativeImport = /from\s+'(\.{1,2}\/[^']+)'/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Whether the file, or a helper under `root` it imports, names something that starts a process. */
function startsProcesses(file: string, root: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (starts.some((name) => text.includes(name))) return true;
  for (const [, specifier] of text.matchAll(relativeImport)) {
    const helper = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    if (helper.startsWith(root + '/') && existsSync(helper) && startsProcesses(helper, root, seen)) return true;
  }
  return false;
}

/** The unit test files under `root` (test/), relative to `base` (the repository). */
export function unitTestFiles(base: string, root = join(base, 'test')): string[] {
  return testFiles(root)
    .filter((file) => !startsProcesses(file, root))
    .map((file) => relative(base, file))
    .filter((file) => !slowByDesign.test(file))
    .sort();
}
