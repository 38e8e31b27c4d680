/**
 * require() of every entry point, as a CommonJS user of the built package does it (from the package's own folder,
 * where `harness-events` names the package itself, so package.json's conditions decide): each subpath gives what
 * import() gives wherever Node.js can require an ES module, and one line saying how to load it where it cannot. The
 * view and the report wait for their optional packages with a top-level await, which require() cannot: one line too.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, unknown> };
const names = Object.keys(pkg.exports)
  .filter((subpath) => !subpath.includes('*') && subpath !== './package.json')
  .map((subpath) => `harness-events${subpath.slice(1)}`);
const awaiting = ['harness-events/view', 'harness-events/report'];

/** Each name's exports by require() (or its error's message) and by import(), in a child Node.js given `flags`. */
async function load(flags: string[]): Promise<Record<string, { required: string; imported: string }>> {
  const script = `
    const found = {};
    for (const name of JSON.parse(process.argv[1])) {
      let required;
      try { required = Object.keys(require(name)).sort().join(); } catch (error) { required = error.message; }
      found[name] = { required, imported: Object.keys(await import(name)).sort().join() };
    }
    console.log(JSON.stringify(found));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...flags, '--input-type=commonjs', '-e', `(async () => { ${script} })()`, JSON.stringify(names)],
    { cwd: root },
  );
  return JSON.parse(stdout);
}

const topLevelAwait =
  'harness-events/view and harness-events/report load their optional packages with a top-level await, which ' +
  "require() cannot wait for: use `import { prettyPrint } from 'harness-events/view'`, or `await " +
  "import('harness-events/view')` from CommonJS";

test('every entry point has a require condition', () => {
  expect(names).toEqual([
    'harness-events',
    'harness-events/harness',
    'harness-events/transforms',
    'harness-events/stages',
    'harness-events/jetstream',
    'harness-events/otel',
    'harness-events/otlp',
    'harness-events/view',
    'harness-events/report',
    'harness-events/testing',
  ]);
});

test.runIf((process.features as { require_module?: boolean }).require_module)(
  'where Node.js can require an ES module: each subpath gives what import() gives; the view and the report, one line',
  async () => {
    const found = await load([]);
    for (const name of names) {
      const { required, imported } = found[name]!;
      expect(imported, name).not.toBe('');
      expect(required, name).toBe(awaiting.includes(name) ? topLevelAwait : imported);
    }
  },
  60_000,
);

test(
  'where it cannot (--no-experimental-require-module): one line ' + 'saying to import it, for every subpath',
  async () => {
    const found = await load(['--no-experimental-require-module']);
    const esmOnly =
      "harness-events is an ES module: use `import { createNormalizer } from 'harness-events'`, or " +
      "`await import('harness-events')` from CommonJS, for its subpaths too (require() of it needs Node.js 20.19, " +
      '22.12 or later)';
    for (const name of names)
      expect(found[name]!.required, name).toBe(awaiting.includes(name) ? topLevelAwait : esmOnly);
  },
  60_000,
);
