/** mergeLines on real files: time order across files, long lines in pieces but never cut by another file's line. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { LONG_LINE_BYTES, mergeLines } from '../../../lib/runtime/sessions/merge-lines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function write(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-merge-'));
  dirs.push(dir);
  return Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}

const timeOf = (record: unknown) => (record as { t?: string }).t;

/** The merged stream's chunks, and its text. */
async function read(paths: string[]): Promise<{ chunks: Buffer[]; text: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of mergeLines(paths, timeOf)) chunks.push(chunk as Buffer);
  return { chunks, text: Buffer.concat(chunks).toString('utf8') };
}

test('lines in time order; a line without a time keeps its file’s; equal times: the earlier file first', async () => {
  const paths = write({
    main: '{"t":"1","n":"m1"}\n{"n":"m2"}\n{"t":"3","n":"m3"}\n',
    agent: '{"t":"1","n":"a1"}\n{"t":"2","n":"a2"}\nnot json\n{"t":"4","n":"a4"}',
  });
  const { text } = await read(paths);
  expect(text.split('\n').map((line) => (line.startsWith('{') ? JSON.parse(line).n : line))).toEqual([
    'm1',
    'm2',
    'a1',
    'a2',
    'not json',
    'm3',
    'a4',
    '',
  ]);
});

test('a line longer than LONG_LINE_BYTES passes in pieces, whole before any other line', async () => {
  const long = `{"t":"2","text":"${'x'.repeat(3 * LONG_LINE_BYTES)}"}`;
  const paths = write({
    main: `{"t":"1","n":"m1"}\n${long}\n{"t":"5","n":"m5"}\n`,
    agent: '{"t":"1.5","n":"a1"}\n{"t":"3","n":"a3"}\n',
  });
  const { chunks, text } = await read(paths);
  // The long line takes its file's last time ("1"), so it follows m1 and comes before a1.
  expect(text).toBe(`{"t":"1","n":"m1"}\n${long}\n{"t":"1.5","n":"a1"}\n{"t":"3","n":"a3"}\n{"t":"5","n":"m5"}\n`);
  // No piece is much larger than the limit (a read chunk past it at most): the line was never held whole.
  expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(LONG_LINE_BYTES + (1 << 16) + 2);
});

test('once one file is left, its bytes pass as they are read: the same text, in chunks of the read size', async () => {
  const main = Array.from({ length: 4000 }, (_, n) => `{"t":"2","n":${n},"pad":"${'p'.repeat(100)}"}\n`).join('');
  const paths = write({ main, agent: '{"t":"1","n":"a1"}\n' });
  const { chunks, text } = await read(paths);
  expect(text).toBe(`{"t":"1","n":"a1"}\n${main}`);
  // After the agent's line, the main file alone: whole 64 KiB reads, not a chunk per line.
  expect(chunks.length).toBeLessThan(20);
});
