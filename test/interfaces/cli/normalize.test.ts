/**
 * `harness-events normalize` as users run it: the built bin, as a child process, on real fixtures. Signals are
 * sent only after a handshake: the CLI has printed an event, so its handlers are in place.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { fixturePath } from '../../helpers.js';
import { bin, harnessEvents as cli, jsonLines as lines, startCli as start } from '../../cli.js';
import { stopSignals, untimed, violation, withBrokenHarness } from './commands.js';

const execFileP = promisify(execFile);

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-cli-normalize-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('harness-events normalize', () => {
  test('a real capture: exit 0, one JSON event per line on stdout, the metrics file written', async () => {
    const metricsFile = join(tmp, 'metrics.json');
    const { code, stdout, stderr } = await cli([
      'normalize',
      '--harness',
      'claude-code',
      '--strict',
      '--metrics',
      metricsFile,
      fixturePath('claude-code/lab/read.jsonl'),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.endsWith('\n')).toBe(true);
    const events = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
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

  test(
    'reads standard input; --cwd resolves relative paths; ' + 'warnings and unknown events are normal output (exit 0)',
    async () => {
      const input =
        'banner ' +
        'line\n{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Read",' +
        '"input":{"file_path":"a.ts"}}]}}\n{"type":"user","message":{"content":[{"type":"tool_result",' +
        '"tool_use_id":"t","content":"x"}]}}\n{"type":"mystery"}\n';
      const { code, stdout } = await cli(['normalize', '--harness', 'claude-code', '--cwd', '/ws'], { stdin: input });
      expect(code).toBe(0);
      expect(
        stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line))
          .map(({ timestamp: _t, ...rest }) => rest),
      ).toEqual([
        { type: 'warning', message: 'banner line', code: 'not_json' },
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'unknown', raw: { type: 'mystery' } },
      ]);
    },
  );

  test('usage errors exit 2 with one line: unknown harness, missing harness, missing file, bad option', async () => {
    const cases: [string[], string][] = [
      [['normalize', '--harness', 'nope', 'x'], 'harness-events: unknown harness "nope" (known: '],
      [['normalize', 'x'], 'harness-events: --harness is required (see harness-events --help)\n'],
      [
        ['normalize', '--harness', 'claude-code', join(tmp, 'missing.jsonl')],
        `harness-events: cannot read ${join(tmp, 'missing.jsonl')}: ENOENT\n`,
      ],
      [
        ['normalize', '--harness', 'claude-code', '--max-line-bytes', 'lots'],
        'harness-events: --max-line-bytes takes a positive integer up to 9007199254740991, got "lots"\n',
      ],
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
    expect(await cli(['normalize', '--harness', 'claude-code', tmp])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: cannot read ${tmp}: EISDIR\n`,
    });
  });

  test('harness-events --help documents every option and exits 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const option of [
      '--harness',
      '--cwd',
      '--strict',
      '--metrics',
      '--kill-grace-ms',
      '--timeout',
      '--permissions',
      '--max-line-bytes',
      '--max-pending-tools',
      '--max-span-bytes',
      'Exit codes',
    ]) {
      expect(stdout).toContain(option);
    }
  });

  test.each(stopSignals)(
    '%s on live input ends cleanly: waiting calls flushed, metrics written, exit %i',
    async (signal, exitCode) => {
      const metricsFile = join(tmp, `normalize-${signal}.json`);
      const cli = start(['normalize', '--harness', 'claude-code', '--metrics', metricsFile]);
      cli.child.stdin.write(
        '{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read",' +
          '"input":{"file_path":"/a"}}]}}\n',
      );
      cli.child.stdin.write(
        '{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"still typing"}]}}\n',
      );
      // The held text comes out when the input pauses: both lines are read. Standard input stays open.
      await cli.line((line) => line.message === 'still typing');
      cli.child.kill(signal);
      const { code, stdout, stderr } = await cli.closed;
      expect({ code, stderr }).toEqual({ code: exitCode, stderr: '' });
      expect(untimed(stdout)).toEqual([
        { type: 'agent', message: 'still typing' },
        { type: 'read', path: '/a' },
      ]);
      expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({
        input: { lines: 2 },
        events: { agent: 1, read: 1 },
      });
    },
  );

  test('Ctrl-C on a FIFO whose writer is idle ends at once, without waiting for the writer', async () => {
    const fifo = join(tmp, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const cli = start(['normalize', '--harness', 'claude-code', fifo]);
    // A writer that writes one line and then keeps the FIFO open, idle, until the test ends it.
    const writer = spawn(process.execPath, [
      '-e',
      `const fs = require('fs'); fs.writeSync(fs.openSync(process.argv[1], 'w'), process.argv[2]); setInterval(() ` +
        `=> {}, 1 << 30)`,
      fifo,
      '{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read",' +
        '"input":{"file_path":"/a"}}]}}\n{"type":"mystery"}\n',
    ]);
    try {
      await cli.line((line) => line.type === 'unknown');
      cli.child.kill('SIGINT');
      const { code, stdout } = await cli.closed;
      expect(code).toBe(130);
      expect(untimed(stdout)).toEqual([
        { type: 'unknown', raw: { type: 'mystery' } },
        { type: 'read', path: '/a' },
      ]);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  test('Ctrl-C ends follow on a session nobody is writing, with the events read so far', async () => {
    const source = fixturePath(
      'claude-code/transcripts/bash/home/.claude/projects/-home-user-project/' +
        'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl',
    );
    // The session without its last lines (no cost-state): following it would wait for its quiet period.
    const session = join(tmp, 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl');
    writeFileSync(session, readFileSync(source, 'utf8').split('\n').slice(0, 31).join('\n') + '\n');
    const cli = start(['follow', '--harness', 'claude-code', '--session', session]);
    await cli.line((line) => line.path === '/home/user/project/notes.txt');
    cli.child.kill('SIGINT');
    const { code, stdout } = await cli.closed;
    expect(code).toBe(130);
    expect(lines(stdout).map((line) => [line.type, line.path])).toEqual([
      ['read', '/home/user/project/README.md'],
      ['read', '/home/user/project/notes.txt'],
    ]);
  });

  test('--metrics naming the input is a usage error, and the input is left as it was', async () => {
    const input = join(tmp, 'input.jsonl');
    writeFileSync(input, '{"type":"mystery"}\n');
    expect(await cli(['normalize', '--harness', 'claude-code', '--metrics', input, input])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: --metrics ${input} is the input: it would be overwritten\n`,
    });
    const viaStdin = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn('sh', [
        '-c',
        `exec "$0" "$1" normalize --harness claude-code --metrics "$2" < "$2"`,
        process.execPath,
        bin,
        input,
      ]);
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(viaStdin).toEqual({
      status: 2,
      stderr: `harness-events: --metrics ${input} is the input: it would be overwritten\n`,
    });
    expect(readFileSync(input, 'utf8')).toBe('{"type":"mystery"}\n');
  });

  test('a --metrics path that cannot be written is a usage error before anything is read', async () => {
    const unwritable = join(tmp, 'no-such-dir', 'metrics.json');
    expect(
      await cli([
        'normalize',
        '--harness',
        'claude-code',
        '--metrics',
        unwritable,
        fixturePath('claude-code/lab/read.jsonl'),
      ]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: cannot write the metrics to ${unwritable}: ENOENT\n`,
    });
  });

  test('a --strict schema violation: exit 1, one line saying why, the metrics written', async () => {
    const metricsFile = join(tmp, 'normalize-strict.json');
    expect(
      await cli(['normalize', '--harness', 'broken', '--strict', '--metrics', metricsFile], {
        stdin: '{}\n{}\n',
        entry: withBrokenHarness,
      }),
    ).toEqual({ code: 1, stdout: '', stderr: violation });
    expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({ harness: 'broken', input: { lines: 1 } });
  });

  test('a reader that goes away early (| head -1) ends the run quietly, the metrics still written', async () => {
    // Far more output than a pipe buffers, so the writer really meets EPIPE.
    const big = join(tmp, 'big.jsonl');
    const line = JSON.stringify({
      type: 'assistant',
      message: { id: 'm', content: [{ type: 'text', text: 'x'.repeat(200) }] },
    });
    writeFileSync(big, Array.from({ length: 20_000 }, (_, i) => line.replace('"m"', `"m${i}"`)).join('\n') + '\n');
    const metricsFile = join(tmp, 'normalize-head.json');
    const { stdout, stderr } = await execFileP('bash', [
      '-o',
      'pipefail',
      '-c',
      `node ${bin} normalize --harness claude-code --metrics ${metricsFile} ${big} | head -1; echo ` +
        `"exit=\${PIPESTATUS[0]}"`,
    ]);
    const [first, exit] = stdout.trimEnd().split('\n');
    expect(JSON.parse(first!).type).toBe('agent');
    expect(exit).toBe('exit=0');
    expect(stderr).toBe('');
    expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({
      harness: 'claude-code',
      events: { agent: expect.any(Number) },
    });
  });
});
