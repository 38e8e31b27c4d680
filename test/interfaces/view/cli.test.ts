/**
 * `harness-events view` and `--format pretty` as users run them, output to a pipe (not a
 * terminal): plain text, exact. The terminal side (color, wrapping, the status line) is in
 * tmux.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import type { HarnessName } from '../../../lib/index.js';
import { fixturePath, runFixture } from '../../helpers.js';
import { bin, harnessEvents } from '../../cli.js';
import { readJsonlLines as readLines, retimed } from './fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-view-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const children = new URL('../../children/', import.meta.url).pathname;

/** A real capture's events as JSONL, observed 200 ms apart from a fixed time (so the summary's duration is known). */
async function timedJsonl(fixture: string, harness: HarnessName): Promise<string> {
  const { events } = await runFixture(fixture, { harness, cwd: '/home/user/project' });
  return retimed(events, 200)
    .map((event) => JSON.stringify(event) + '\n')
    .join('');
}

describe('harness-events view', { timeout: 60_000 }, () => {
  test(
    'a file of normalized events: one line per event, ' + 'paths relative to --cwd, a summary line; no escape codes',
    async () => {
      const file = join(tmp, 'read.events.jsonl');
      writeFileSync(file, await timedJsonl('claude-code/lab/read.jsonl', 'claude-code'));
      const result = await harnessEvents(['view', '--cwd', '/home/user/project', file]);
      expect(result).toEqual({
        code: 0,
        stderr: '',
        stdout: [...readLines, '■ 6 events in 1.0s · 2 files read · 0 written · 0 commands failed', ''].join('\n'),
      });
    },
  );

  test('standard input; tokens and cost from usage events; the default cwd is the current directory', async () => {
    const result = await harnessEvents(['view'], {
      stdin: await timedJsonl('opencode/lab/shell.jsonl', 'opencode'),
      cwd: '/home',
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => !line.startsWith('Σ'))).toEqual([
      '◂ read user/project/README.md',
      '◂ read user/project/notes.txt:2-4',
      '⌕ search "hello" in user/project',
      '≡ list user/project/src',
      '◂ read user/project/src/a.ts',
      '$ false · in user/project · exit 1',
      '$ echo hi > out.txt · in user/project · exit 0',
      '$ pwd && ls · in user/project/src · exit 0',
      '● Done looking around; `false` exited with status 1.',
      '■ 18 events in 3.4s · 11,160 tokens · $0.0000 · 3 files read · 0 written · 1 command failed',
    ]);
    expect(lines.filter((line) => line.startsWith('Σ'))).toEqual(
      Array(9).fill('Σ usage 1,200 input · 40 output · $0.0000'),
    );
  });

  test(
    'lines that are not events are shown, not dropped: a ' + 'line that is not JSON, a value that breaks the contract',
    async () => {
      const stdin = [
        'banner text',
        '{"type":"agent","timestamp":"2026-01-01T00:00:00.000Z","session_id":"s","message":"hi"}',
        '',
        '{"type":"read"}',
        '{"type":"agent","timestamp":"2026-01-01T00:00:02.500Z","session_id":"s","message":"bye"}',
      ].join('\n');
      const result = await harnessEvents(['view'], { stdin });
      expect(result).toEqual({
        code: 0,
        stderr: '',
        stdout: [
          '! not_json: banner text',
          '● hi',
          "! invalid_event: read event breaks its schema: read must have required property 'timestamp'",
          '? unknown {"type":"read"}',
          '● bye',
          '■ 5 events in 2.5s · 0 files read · 0 written · 0 commands failed',
          '',
        ].join('\n'),
      });
    },
  );

  test('--color forces color on a pipe', async () => {
    const file = join(tmp, 'read.color.jsonl');
    writeFileSync(file, await timedJsonl('claude-code/lab/read.jsonl', 'claude-code'));
    const { stdout } = await harnessEvents(['view', '--color', '--cwd', '/home/user/project', file]);
    expect(stdout.split('\n')[1]).toBe('\x1b[34m◂\x1b[39m read README.md');
    expect(stdout.split('\n')[4]).toBe('\x1b[31m◂\x1b[39m \x1b[31mread missing.txt · failed\x1b[39m');
  });

  test('usage errors exit 2: an option view does not take, two files, a missing file', async () => {
    expect(await harnessEvents(['view', '--harness', 'claude-code'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'harness-events: view takes --harness only with --session\n',
    });
    expect((await harnessEvents(['view', 'a', 'b'])).stderr).toBe('harness-events: one input file at most, got 2\n');
    expect(await harnessEvents(['view', join(tmp, 'missing.jsonl')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: cannot read ${join(tmp, 'missing.jsonl')}: ENOENT\n`,
    });
  });

  test('a reader that goes away (| head -1) ends it quietly', async () => {
    const big = join(tmp, 'big.jsonl');
    const line = JSON.stringify({ type: 'agent', timestamp: '2026-01-01T00:00:00.000Z', message: 'x'.repeat(200) });
    writeFileSync(big, Array(20_000).fill(line).join('\n') + '\n');
    const { stdout, stderr } = await promisify(execFile)('bash', [
      '-c',
      `node ${bin} view ${big} | head -1; echo "exit=\${PIPESTATUS[0]}"`,
    ]);
    expect(stdout).toBe(`● ${'x'.repeat(200)}\nexit=0\n`);
    expect(stderr).toBe('');
  });
});

describe('--format pretty on normalize and run', { timeout: 60_000 }, () => {
  test(
    'normalize: the same lines as view, the duration the ' + 'harness reported, tokens and cost from the run metrics',
    async () => {
      const metrics = join(tmp, 'metrics.json');
      const result = await harnessEvents([
        'normalize',
        '--harness',
        'claude-code',
        '--cwd',
        '/home/user/project',
        '--format',
        'pretty',
        '--metrics',
        metrics,
        fixturePath('claude-code/lab/read.jsonl'),
      ]);
      expect(result).toEqual({
        code: 0,
        stderr: '',
        stdout: [
          ...readLines,
          '■ 6 events in 613ms · 580 tokens · $0.0039 · 2 files read · 0 written · 0 commands failed',
          '',
        ].join('\n'),
      });
    },
  );

  test('run: the harness ending as events, its exit code mirrored', async () => {
    const result = await harnessEvents([
      'run',
      '--harness',
      'claude-code',
      '--format',
      'pretty',
      '--',
      process.execPath,
      join(children, 'replay.mjs'),
      fixturePath('claude-code/lab/errors-max-turns.jsonl'),
      '0',
      '1',
    ]);
    expect(result).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        '● Reading.',
        '◂ read /home/user/project/README.md',
        '✖ error_max_turns: Reached maximum number of turns (1)',
        `✖ exit_code: ${process.execPath} exited with code 1`,
        '■ 4 events in 249ms · 145 tokens · $0.0010 · 1 file read · 0 written · 0 commands failed',
        '',
      ].join('\n'),
    });
  });

  test('--format takes jsonl, pretty or trace; report options are refused', async () => {
    expect((await harnessEvents(['normalize', '--harness', 'gg', '--format', 'html'])).stderr).toBe(
      'harness-events: --format takes jsonl or pretty or trace, got "html"\n',
    );
    expect((await harnessEvents(['run', '--harness', 'gg', '--format', 'md', '--', 'true'])).code).toBe(2);
    expect(await harnessEvents(['normalize', '--harness', 'gg', '-o', 'x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'harness-events: normalize does not take --output (see harness-events --help)\n',
    });
  });
});
