/** The CLI as users run it: the built bin, as a child process, on real fixtures. */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { fixturePath } from './helpers.js';

const bin = new URL('../bin/harness-events.js', import.meta.url).pathname;
const execFileP = promisify(execFile);

/** Runs the CLI; resolves with its exit code and output, whatever the code. */
async function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-cli-'));

describe('harness-events normalize', () => {
  test('a real capture: exit 0, one JSON event per line on stdout, the metrics file written', async () => {
    const metricsFile = join(tmp, 'metrics.json');
    const { code, stdout, stderr } = await cli(['normalize', '--harness', 'claude-code', '--strict', '--metrics', metricsFile, fixturePath('claude/lab/read.jsonl')]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.endsWith('\n')).toBe(true);
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(events.map((e) => [e.type, e.path ?? e.message])).toEqual([
      ['agent', "I'll start by reading the README."],
      ['read', '/home/user/project/README.md'],
      ['agent', 'Now lines 3-6 of the notes.'],
      ['read', '/home/user/project/notes.txt'],
      ['read', '/home/user/project/missing.txt'],
      ['agent', 'The README says hello world, notes lines 3-6 are gamma to zeta, and missing.txt does not exist.'],
    ]);
    expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({
      harness: 'claude-code',
      session_id: '02d16f6d-0bf7-4aa4-bbd8-ba2366e57ce9',
      ended: true,
      tokens: { input: 480, output: 100 },
      cost: 0.00392,
      input: { bytes: 10565, lines: 11 },
      events: { agent: 3, read: 3 },
    });
  });

  test('reads standard input; --cwd resolves relative paths; warnings and unknown events are normal output (exit 0)', async () => {
    const input = 'banner line\n{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"a.ts"}}]}}\n{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}}\n{"type":"mystery"}\n';
    const { code, stdout } = await cli(['normalize', '--harness', 'claude-code', '--cwd', '/ws'], input);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').map((line) => JSON.parse(line)).map(({ timestamp: _t, ...rest }) => rest)).toEqual([
      { type: 'warning', message: 'banner line', code: 'not_json' },
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'unknown', raw: { type: 'mystery' } },
    ]);
  });

  test('usage errors exit 2 with one line: unknown harness, missing harness, missing file, bad option', async () => {
    const cases: [string[], string][] = [
      [['normalize', '--harness', 'nope', 'x'], 'harness-events: unknown harness "nope" (known: '],
      [['normalize', 'x'], 'harness-events: --harness is required (see harness-events --help)\n'],
      [['normalize', '--harness', 'claude-code', join(tmp, 'missing.jsonl')], `harness-events: cannot read ${join(tmp, 'missing.jsonl')}: ENOENT\n`],
      [['normalize', '--harness', 'claude-code', '--max-line-bytes', 'lots'], 'harness-events: --max-line-bytes takes a positive integer, got "lots"\n'],
      [['normalize', '--harness', 'claude-code', '--frobnicate'], "harness-events: Unknown option '--frobnicate'"],
      [['frobnicate'], 'harness-events: unknown command "frobnicate" (see harness-events --help)\n'],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await cli(args);
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr.startsWith(message), stderr).toBe(true);
      expect(stderr.trimEnd().split('\n').length).toBe(1);
    }
  });

  test('a file that cannot be read (a directory) is a usage error too', async () => {
    expect(await cli(['normalize', '--harness', 'claude-code', tmp])).toEqual({ code: 2, stdout: '', stderr: `harness-events: cannot read ${tmp}: EISDIR\n` });
  });

  test('--help documents every option and exits 0', async () => {
    const { code, stdout } = await cli(['normalize', '--help']);
    expect(code).toBe(0);
    for (const option of ['--harness', '--cwd', '--strict', '--metrics', '--max-line-bytes', '--max-pending-tools', '--max-span-bytes', 'Exit codes']) {
      expect(stdout).toContain(option);
    }
  });

  test('Ctrl-C on live input ends cleanly: held text and waiting calls flushed, exit 130', async () => {
    const child = spawn(process.execPath, [bin, 'normalize', '--harness', 'claude-code']);
    let stdout = '';
    // The held text goes out once stdin idles (200 ms): both lines were read, and Ctrl-C is handled. stdin stays open.
    const read = new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('still typing')) resolve();
      }),
    );
    child.stdin.write('{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a"}}]}}\n');
    child.stdin.write('{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"still typing"}]}}\n');
    await read;
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stdout.trimEnd().split('\n').map((line) => JSON.parse(line)).map(({ timestamp: _t, ...rest }) => rest)).toEqual([
      { type: 'agent', message: 'still typing' },
      { type: 'read', path: '/a' },
    ]);
  });

  test('a reader that goes away early (| head -1) ends the run quietly', async () => {
    // Far more output than a pipe buffers, so the writer really meets EPIPE.
    const big = join(tmp, 'big.jsonl');
    const line = JSON.stringify({ type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: 'x'.repeat(200) }] } });
    writeFileSync(big, Array.from({ length: 20_000 }, (_, i) => line.replace('"m"', `"m${i}"`)).join('\n') + '\n');
    const { stdout, stderr } = await execFileP('bash', ['-o', 'pipefail', '-c', `node ${bin} normalize --harness claude-code ${big} | head -1; echo "exit=\${PIPESTATUS[0]}"`]);
    const [first, exit] = stdout.trimEnd().split('\n');
    expect(JSON.parse(first!).type).toBe('agent');
    expect(exit).toBe('exit=0');
    expect(stderr).toBe('');
  });
});

describe('harness-events run', () => {
  const children = new URL('./children/', import.meta.url).pathname;
  const script = (steps: unknown[]) => [process.execPath, join(children, 'script.mjs'), JSON.stringify(steps)];

  test('runs a harness: its events as JSONL, stderr as warnings, the metrics file, the exit code mirrored', async () => {
    const metricsFile = join(tmp, 'run-metrics.json');
    const { code, stdout, stderr } = await cli([
      'run', '--harness', 'claude-code', '--metrics', metricsFile, '--',
      process.execPath, join(children, 'replay.mjs'), fixturePath('claude/lab/errors-max-turns.jsonl'), '0', '1',
    ]);
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line)).map(({ timestamp: _t, session_id: _s, ...rest }) => rest);
    expect(events).toEqual([
      { type: 'agent', message: 'Reading.' },
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'error', message: 'Reached maximum number of turns (1)', code: 'error_max_turns' },
      { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
    ]);
    expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({ harness: 'claude-code', exit_code: 1, ended: true, is_error: true });
  });

  test('a child killed by a signal exits 128 + its number; a command that cannot start exits 127', async () => {
    expect((await cli(['run', '--harness', 'gg', '--', ...script([{ kill: 'SIGTERM' }])])).code).toBe(143);
    const missing = await cli(['run', '--harness', 'gg', '--', 'harness-events-no-such-command']);
    expect(missing.code).toBe(127);
    expect(JSON.parse(missing.stdout)).toMatchObject({ type: 'error', code: 'spawn_failed' });
  });

  test('Ctrl-C stops the child, writes what was read, exits 130', async () => {
    const child = spawn(process.execPath, [bin, 'run', '--harness', 'gg', '--', ...script([{ out: '{"n":1}\n' }, { hang: true }])]);
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n')) child.kill('SIGINT');
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stdout.trimEnd().split('\n').map((line) => JSON.parse(line).type)).toEqual(['gg']);
  });

  test('usage errors exit 2: neither --prompt nor a command, --model without --prompt, --prompt for a harness without a command line, unknown harness', async () => {
    expect(await cli(['run', '--harness', 'gg'])).toMatchObject({ code: 2, stderr: 'harness-events: run needs --prompt, or the command to run after -- (see harness-events --help)\n' });
    expect(await cli(['run', '--harness', 'codex', '--model', 'o4', '--', 'codex'])).toMatchObject({ code: 2, stderr: 'harness-events: --model goes with --prompt (with a command after --, put it there)\n' });
    expect(await cli(['run', '--harness', 'gg', '--prompt', 'hi'])).toMatchObject({ code: 2, stderr: 'harness-events: spawnHarness: gg needs a command (it has no command line of its own to build from a prompt)\n' });
    expect((await cli(['run', '--harness', 'nope', '--', 'true'])).code).toBe(2);
  });
});
