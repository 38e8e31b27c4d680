/**
 * The code examples of docs/library.md, docs/processes.md and docs/run-contract.md compile against the published
 * types and run as a user's would (against the built package), with the agent CLIs they start replaced on PATH by
 * real captured streams; and what an example's comment says `await run.done` gives is what it gives.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
const docs = ['docs/library.md', 'docs/processes.md', 'docs/run-contract.md'];
// Inside the repository, so that `harness-events` resolves to the package itself (its exports, dist/); made when
// the tests run, not when the file is collected (`vitest list` runs no afterAll).
let tmp: string;
let bin: string;
beforeAll(() => {
  tmp = mkdtempSync(join(root, 'test', '.docs-'));
  // The CLIs the examples start: each prints a real captured stream of its harness.
  bin = join(tmp, 'bin');
  mkdirSync(bin);
  for (const [name, fixture] of [
    ['claude', 'claude-code/lab/bash.jsonl'],
    ['codex', 'codex/openai-docs-exec-sample.jsonl'],
  ]) {
    writeFileSync(join(bin, name!), `#!/bin/sh\nexec cat ${join(root, 'test/fixtures', fixture!)}\n`);
    chmodSync(join(bin, name!), 0o755);
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// What the examples leave to the reader, and the probe that reports what `await run.done` gave.
const prelude = `
const render = (event: unknown) => console.log(JSON.stringify(event));
const show = render;
const report = (...fields: unknown[]) => console.log(JSON.stringify({ report: fields }));
const cwd = process.cwd();
const seen = <T extends object>(value: T): T => {
  const fields = Object.entries(value).map(([key, field]) => [key, typeof field === 'object' ? typeof field : field]);
  console.log('DONE ' + JSON.stringify({ keys: Object.keys(value), fields: Object.fromEntries(fields) }));
  return value;
};
`;

interface Example {
  doc: string;
  code: string;
  /** What its comment says `await run.done` gives: `key` or `key: value`. */
  said?: [string, string | undefined][];
}

const examples: Example[] = docs.flatMap((doc) =>
  [...readFileSync(join(root, doc), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code]) => {
    const comment = /await run\.done\)?;.*\/\/ \{ (.*) \}/.exec(code!)?.[1];
    const said = comment
      ?.split(', ')
      .filter((field) => field !== '...')
      .map((field) => field.split(': ') as [string, string | undefined]);
    return { doc, code: code!, said };
  }),
);

test('the docs hold the examples this test runs', () => {
  expect(examples.map(({ doc, said }) => [doc, said !== undefined])).toEqual([
    ['docs/library.md', false],
    ['docs/library.md', true],
    ['docs/library.md', false],
    ['docs/run-contract.md', true],
  ]);
});

test('they compile against the published types', async () => {
  const files = examples.map(({ code }, index) => {
    const file = join(tmp, `compile-${index + 1}.mts`);
    writeFileSync(file, prelude + code + 'export {};\n');
    return file;
  });
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node'];
  await expect(run(process.execPath, [tsc, ...flags, ...files], { cwd: root })).resolves.toBeDefined();
}, 120_000);

for (const [index, { doc, code, said }] of examples.entries()) {
  test(`${doc}, example ${index + 1}, runs; what its comment says run.done gives, it gives`, async () => {
    const file = join(tmp, `run-${index + 1}.mts`);
    const probed = code.replace('await run.done', 'seen(await run.done)').replace("'/path/to/repo'", 'cwd');
    writeFileSync(file, prelude + probed + 'export {};\n');
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: tmp, env });
    // Every example prints the events it was given.
    expect(stdout.split('\n').length).toBeGreaterThan(3);
    if (said === undefined) return;
    const done = JSON.parse(/^DONE (.*)$/m.exec(stdout)![1]!) as { keys: string[]; fields: Record<string, unknown> };
    for (const [key, value] of said) {
      expect(done.keys, `run.done has ${key}`).toContain(key);
      if (value !== undefined) expect(String(done.fields[key]), key).toBe(value);
    }
  }, 60_000);
}
