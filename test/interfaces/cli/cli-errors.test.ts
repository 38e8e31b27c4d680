/**
 * Issue 30 items 14-17: errors a user must be able to read. The built bin as a child process: one line on stderr, the
 * right exit code, output paths checked before the work starts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { harnessEvents as cli } from '../../cli.js';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { fixturePath } from '../../helpers.js';

const capture = fixturePath('claude-code/lab/parallel.jsonl');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'harness-events-cli-errors-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('issue 30 item 14: output that cannot be written', { timeout: 30_000 }, () => {
  test('normalize --metrics /dev/full: the events, then one line and exit 1', async () => {
    const plain = await cli(['normalize', '--harness', 'claude-code', capture]);
    const full = await cli(['normalize', '--harness', 'claude-code', '--metrics', '/dev/full', capture]);
    expect(full).toEqual({
      code: 1,
      stdout: expect.any(String),
      stderr: 'harness-events: cannot write the metrics to /dev/full: ENOSPC\n',
    });
    const untimed = (jsonl: string) => jsonl.replace(/"timestamp":"[^"]+"/g, '');
    expect(untimed(full.stdout)).toBe(untimed(plain.stdout));
  });

  test("run --metrics /dev/full: one line, and the child's exit code", async () => {
    const ran = await cli([
      'run',
      '--harness',
      'claude-code',
      '--metrics',
      '/dev/full',
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toBe('harness-events: cannot write the metrics to /dev/full: ENOSPC\n');
  });

  test('report -o /nonexistent/x.html: a usage error before the input is read', async () => {
    expect(await cli(['report', capture, '-o', '/nonexistent/x.html'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'harness-events: cannot write the report to /nonexistent/x.html: ENOENT\n',
    });
  });
});

describe('issue 30 item 15: numbers past 2^53', { timeout: 30_000 }, () => {
  test.each(['--max-line-bytes', '--max-pending-tools'])('%s 99999999999999999999: a usage error', async (flag) => {
    expect(await cli(['normalize', '--harness', 'claude-code', flag, '99999999999999999999', capture])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: ${flag} takes a positive integer up to 9007199254740991, got "99999999999999999999"\n`,
    });
  });
});

describe('issue 30 item 16: a kill grace a timer cannot hold', { timeout: 30_000 }, () => {
  test('--kill-grace-ms 3000000000: a usage error, nothing started', async () => {
    expect(await cli(['run', '--harness', 'claude-code', '--kill-grace-ms', '3000000000', '--', 'true'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'harness-events: --kill-grace-ms takes a number of milliseconds up to 2147483647, got "3000000000"\n',
    });
  });

  test('timeoutMs 3000000000: a RangeError, nothing started (a timer would fire it after 1 ms)', () => {
    expect(() => spawnHarness({ harness: 'claude-code', command: 'true', timeoutMs: 3_000_000_000 })).toThrow(
      new RangeError('timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 3000000000'),
    );
  });

  test.each([Infinity, 2 ** 31, -5, NaN, 1.5])('killGraceMs %s: a RangeError, nothing started', (killGraceMs) => {
    expect(() => spawnHarness({ harness: 'claude-code', command: 'true', killGraceMs })).toThrow(
      new RangeError(`killGraceMs must be a whole number of milliseconds from 0 to 2147483647, got ${killGraceMs}`),
    );
  });
});

describe('issue 30 item 17: report FILE -o FILE', { timeout: 30_000 }, () => {
  test('refused, the input left as it was', async () => {
    const input = join(dir, 'events.jsonl');
    const events = await cli(['normalize', '--harness', 'claude-code', capture]);
    writeFileSync(input, events.stdout);
    expect(await cli(['report', input, '-o', input])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: -o ${input} is the input: it would be overwritten\n`,
    });
    expect(readFileSync(input, 'utf8')).toBe(events.stdout);
  });
});
