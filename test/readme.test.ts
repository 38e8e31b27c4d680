/**
 * The README's quick start prints what the README says it prints (the timestamps aside), and its library examples
 * compile against the package's published types (dist/, as a user's project resolves `harness-events`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = (lang: string, within: string) =>
  [...within.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
const section = (title: string) => readme.slice(readme.indexOf(`## ${title}\n`)).split(/\n## /)[0]!;
// Inside the repository, so that `harness-events` resolves to the package itself (its exports, dist/).
const tmp = mkdtempSync(join(root, 'test', '.readme-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const untimed = (jsonl: string) =>
  jsonl
    .trimEnd()
    .split('\n')
    .map((line) => ({ ...JSON.parse(line), timestamp: 'T' }));

test('the quick start prints the events the README shows', async () => {
  const quickStart = section('Quick start');
  const [command] = blocks('sh', quickStart);
  const [shown] = blocks('json', quickStart);
  expect(command).toContain('| npx harness-events normalize');
  const cli = `${process.execPath} ${join(root, 'bin/harness-events.js')}`;
  const { stdout } = await promisify(execFile)('bash', ['-c', command!.replace('npx harness-events', cli)]);
  expect(untimed(stdout)).toEqual(untimed(shown!));
  expect(untimed(shown!).map((event) => event.type)).toEqual(['agent', 'read']);
});

test('the six library examples compile against the published types', async () => {
  const examples = blocks('ts', section('The library in six examples'));
  expect(examples).toHaveLength(6);
  const files = examples.map((code, index) => {
    const file = join(tmp, `example-${index + 1}.mts`);
    writeFileSync(file, code + 'export {};\n');
    return file;
  });
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node'];
  await expect(promisify(execFile)(process.execPath, [tsc, ...flags, ...files], { cwd: root })).resolves.toBeDefined();
}, 120_000);
