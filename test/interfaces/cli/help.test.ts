/**
 * Issue 39 item 6: each command answers --help and -h with its own usage, options and an example (exit 0), and
 * `sessions --home` names a home that is not there. The built bin, as a child process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_MAX_PENDING_TOOLS } from '../../../lib/transforms/correlate.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../../lib/transforms/split-lines.js';
import { DEFAULT_KILL_GRACE_MS } from '../../../lib/runtime/run/spawn-options.js';
import { commandOptions } from '../../../lib/interfaces/cli/options.js';
import { harnessEvents } from '../../cli.js';

/** Each command, and options its help must list. */
const commands = {
  normalize: ['--harness', '--cwd', '--strict', '--metrics', '--format', '--session', '--max-line-bytes', '--publish'],
  run: ['--harness', '--prompt', '--model', '--agent', '--permissions', '--kill-grace-ms', '--timeout', '--metrics'],
  view: ['--cwd', '--color', '--from', '--since', '--follow', '--session'],
  report: ['--harness', '-o, --output', '--format', '--metrics', '--session'],
  replay: ['--from', '--run', '--harness', '--since', '--follow', '--stream', '--metrics'],
  sessions: ['--home', '--harness', '--json'],
  usage: [
    '--home',
    '--harness',
    '--since',
    '--until',
    '--by',
    '--json',
    '--csv',
    '--tz',
    '--watch',
    '--ledger',
    '--prices',
  ],
  follow: ['--harness', '--session', '--latest', '--home', '--new', '--format', '--otlp'],
  otel: ['--otlp'],
};

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-help-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('<command> --help', { timeout: 60_000 }, () => {
  test.each(
    Object.entries(commands).flatMap(([name, options]) => ['--help', '-h'].map((flag) => [name, flag, options])),
  )('%s %s: its own usage, options and example; exit 0', async (name, flag, options) => {
    const { code, stdout, stderr } = await harnessEvents([name as string, flag as string]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.startsWith(`Usage:\n  harness-events ${name} `)).toBe(true);
    for (const option of options as string[]) expect(stdout).toMatch(new RegExp(`^  ${option} `, 'm'));
    expect(stdout).toMatch(/^Examples?:\n {2}harness-events /m);
    expect(stdout).toContain('Exit codes: ');
    // Its own usage, not every command's.
    const usage = stdout.slice(0, stdout.indexOf('\nOptions:'));
    for (const other of Object.keys(commands).filter((other) => other !== name))
      expect(usage).not.toMatch(new RegExp(`^  harness-events ${other} `, 'm'));
  });

  // The help's options and the parser's are two lists: a flag added to one only is a help that lies.
  test.each(Object.keys(commandOptions))(
    '%s --help lists exactly the options the command takes (and --help)',
    async (name) => {
      const { stdout } = await harnessEvents([name, '--help']);
      const shown = [...stdout.matchAll(/^ {2}(?:-\w, )?--([\w-]+)/gm)].map((match) => match[1]);
      expect(shown.sort()).toEqual([...commandOptions[name as keyof typeof commandOptions], 'help'].sort());
    },
  );

  test('--help: every command, and the defaults the library runs with', async () => {
    const { code, stdout } = await harnessEvents(['--help']);
    expect(code).toBe(0);
    for (const name of Object.keys(commands)) expect(stdout).toMatch(new RegExp(`^  harness-events ${name} `, 'm'));
    expect(stdout).toContain(`(default ${DEFAULT_MAX_LINE_BYTES})`);
    expect(stdout).toContain(`(default ${DEFAULT_MAX_PENDING_TOOLS})`);
    expect(stdout).toContain(`(default ${DEFAULT_KILL_GRACE_MS})`);
  });
});

describe('sessions --home', { timeout: 30_000 }, () => {
  test('a home that does not exist: one line, exit 2 (not an empty listing)', async () => {
    const home = join(tmp, 'nonexistent');
    expect(await harnessEvents(['sessions', '--home', home])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: --home ${home} does not exist\n`,
    });
  });

  test('a home that is a file: one line, exit 2; follow --latest says the same', async () => {
    const file = join(tmp, 'file');
    writeFileSync(file, '');
    const expected = { code: 2, stdout: '', stderr: `harness-events: --home ${file} is not a directory\n` };
    expect(await harnessEvents(['sessions', '--home', file])).toEqual(expected);
    expect(await harnessEvents(['follow', '--latest', '--home', file])).toEqual(expected);
  });
});
