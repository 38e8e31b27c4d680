/**
 * `harness-events run` as users run it: the built bin, as a child process, running scripted children. Signals are
 * sent only after a handshake: the CLI has printed an event, so its handlers are in place.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { fixturePath } from '../../helpers.js';
import { groupGone, groupOf } from '../../processes.js';
import { bin, harnessEvents as cli, jsonLines as lines, startCli as start } from '../../cli.js';
import { children, stopSignals, untimed, violation, withBrokenHarness } from './commands.js';

const execFileP = promisify(execFile);

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-cli-run-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('harness-events run', () => {
  const script = (steps: unknown[]) => [process.execPath, join(children, 'script.mjs'), JSON.stringify(steps)];

  test(
    'runs a harness: its events as JSONL, stderr as ' + 'warnings, the metrics file, the exit code mirrored',
    async () => {
      const metricsFile = join(tmp, 'run-metrics.json');
      const { code, stdout, stderr } = await cli([
        'run',
        '--harness',
        'claude-code',
        '--metrics',
        metricsFile,
        '--',
        process.execPath,
        join(children, 'replay.mjs'),
        fixturePath('claude-code/lab/errors-max-turns.jsonl'),
        '0',
        '1',
      ]);
      expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
      const events = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line))
        .map(({ timestamp: _t, session_id: _s, ...rest }) => rest);
      expect(events).toEqual([
        { type: 'agent', message: 'Reading.' },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'error', message: 'Reached maximum number of turns (1)', code: 'error_max_turns' },
        { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
      ]);
      expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({
        harness: 'claude-code',
        exit_code: 1,
        ended: true,
        is_error: true,
      });
    },
  );

  test(
    'a child killed by a signal exits 128 + its ' + 'number; a command that cannot start exits 127, saying so',
    async () => {
      expect((await cli(['run', '--harness', 'gg', '--', ...script([{ kill: 'SIGTERM' }])])).code).toBe(143);
      const missing = await cli(['run', '--harness', 'gg', '--', 'harness-events-no-such-command']);
      expect({ code: missing.code, stderr: missing.stderr }).toEqual({
        code: 127,
        stderr: 'harness-events: could not start harness-events-no-such-command: ENOENT\n',
      });
      expect(JSON.parse(missing.stdout)).toMatchObject({ type: 'error', code: 'spawn_failed' });
    },
  );

  test('--timeout: a child that never ends is stopped: the timeout event, one line on stderr, exit 124', async () => {
    const { code, stdout, stderr } = await cli([
      'run',
      '--harness',
      'gg',
      '--timeout',
      '300',
      '--',
      ...script([{ hang: true }]),
    ]);
    const message = `${process.execPath} ran for longer than timeoutMs (300 ms) and was stopped`;
    expect({ code, stderr }).toEqual({ code: 124, stderr: `harness-events: ${message}\n` });
    expect(JSON.parse(stdout)).toMatchObject({ type: 'error', code: 'timeout', message });
    expect((await cli(['run', '--harness', 'gg', '--timeout', '0', '--', 'x'])).stderr).toBe(
      'harness-events: --timeout takes a positive number of milliseconds up to 2147483647, got "0"\n',
    );
    // Past a timer's range Node would fire the timeout after 1 ms.
    expect((await cli(['run', '--harness', 'gg', '--timeout', '3000000000', '--', 'x'])).stderr).toBe(
      'harness-events: --timeout takes a positive number of milliseconds up to 2147483647, got "3000000000"\n',
    );
  });

  test('--max-tokens: the usage event that passes the budget stops the run as a timeout does, exit 124', async () => {
    // A real OpenCode capture's first two steps (2,530 and 2,730 tokens), then the child hangs as an agent going on.
    const capture = readFileSync(fixturePath('opencode/lab/read.jsonl'), 'utf8')
      .split(/(?<=\n)/)
      .slice(0, 7);
    const steps = [...capture.map((out) => ({ out })), { hang: true }];
    const { code, stdout, stderr } = await cli([
      'run',
      '--harness',
      'opencode',
      '--max-tokens',
      '5000',
      '--',
      ...script(steps),
    ]);
    const message = `${process.execPath} used 5260 tokens, past its budget of 5000, and was stopped`;
    expect({ code, stderr }).toEqual({ code: 124, stderr: `harness-events: ${message}\n` });
    expect(lines(stdout).at(-1)).toMatchObject({ type: 'error', code: 'budget', message });
  });

  test.each([
    [['--max-cost', '1', '--', 'x'], '--max-cost needs --model (with --prompt): the model whose prices count'],
    [['--max-cost', '$1', '--', 'x'], '--max-cost takes an amount of USD (0.50), got "$1"'],
    [['--max-tokens', '1e3', '--', 'x'], '--max-tokens takes a whole number of tokens, got "1e3"'],
    [['--prices', 'p.json', '--', 'x'], '--prices goes with --max-cost'],
    [
      ['--max-cost', '0.5', '--prompt', 'hi', '--model', 'fake-model'],
      "spawnHarness: a budget in USD needs the cost of the run's model (fake-model), and it is unknown: give model " +
        'and budget.prices (loadPriceTable(), with an overrides file for a model it misses), or a budget in tokens',
    ],
  ])('a budget that cannot be kept is a usage error before anything starts: %j', async (args, message) => {
    const { code, stderr } = await cli(['run', '--harness', 'opencode', ...args]);
    expect({ code, stderr }).toEqual({ code: 2, stderr: `harness-events: ${message}\n` });
  });

  // The child has started a grandchild that ignores SIGTERM; the grandchild prints once its handler is in place.
  const stubbornRun = (metricsFile: string, grace: number, steps: unknown[] = []) =>
    start([
      'run',
      '--harness',
      'gg',
      '--metrics',
      metricsFile,
      '--kill-grace-ms',
      String(grace),
      '--',
      ...script([
        { spawn: [process.execPath, join(children, 'stubborn.mjs')], inherit: true },
        ...steps,
        { out: '{"n":1}\n' },
        { hang: true },
      ]),
    ]);
  const stubbornPid = (stdout: string) =>
    (lines(stdout).find((line) => (line.event as { stubborn?: string }).stubborn) as { event: { pid: number } }).event
      .pid;
  /** Waits until the child and the grandchild are both in place; the child's process group. */
  const stubbornGroup = async (cli: ReturnType<typeof start>) => {
    await cli.line((line) => (line.event as { stubborn?: string }).stubborn === 'ready');
    await cli.line((line) => (line.event as { n?: number }).n === 1);
    return groupOf(stubbornPid(cli.output()));
  };
  const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));

  test.each(stopSignals)(
    '%s stops the child and what it started (SIGKILL for what ignores SIGTERM) before exiting %i; what it printed ' +
      'and the metrics are written',
    async (signal, exitCode) => {
      const metricsFile = join(tmp, `run-${signal}.json`);
      const cli = stubbornRun(metricsFile, 300);
      const group = await stubbornGroup(cli);
      cli.child.kill(signal);
      const { code, stdout, stderr } = await cli.closed;
      expect({ code, stderr }).toEqual({ code: exitCode, stderr: '' });
      const pid = stubbornPid(stdout);
      // Two writers share the pipe: the child's line and the grandchild's first may come in either order.
      expect(
        untimed(stdout)
          .map((e) => e.event)
          .sort(byJson),
      ).toEqual([{ n: 1 }, { stubborn: 'ready', pid }, { stubborn: 'SIGTERM', pid }].sort(byJson));
      expect(await groupGone(group)).toEqual([]);
      expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({
        harness: 'gg',
        signal: 'SIGTERM',
        events: { gg: 3 },
      });
    },
  );

  test('a second Ctrl-C during the grace period: SIGKILL at once, then the same clean exit 130', async () => {
    const metricsFile = join(tmp, 'run-twice.json');
    // The child reports the SIGTERM it ignores: that is when the first Ctrl-C has been handled.
    const cli = stubbornRun(metricsFile, 600_000, [{ trap: 'SIGTERM' }]);
    const group = await stubbornGroup(cli);
    cli.child.kill('SIGINT');
    await cli.line((line) => (line.event as { trapped?: string }).trapped === 'SIGTERM');
    cli.child.kill('SIGINT');
    // Ten minutes of grace: only the second Ctrl-C lets this end within the test's time.
    expect((await cli.closed).code).toBe(130);
    expect(await groupGone(group)).toEqual([]);
    expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({ signal: 'SIGKILL' });
  });

  test(
    'a reader that goes away early (| head -1) stops ' + 'the child and ends the run quietly, like normalize',
    async () => {
      // Writes without end, waiting for 'drain' when its pipe is full: a child that never yields
      // would queue its writes in its own memory once the pipe is full and send nothing more,
      // and a run that is sent nothing writes nothing, so it never learns its reader has gone.
      const flood =
        `let i = 0; const more = () => { while (process.stdout.write(JSON.stringify({ i: i++ }) + ` +
        `'\\n')); process.stdout.once('drain', more); }; more()`;
      const metricsFile = join(tmp, 'run-head.json');
      const { stdout, stderr } = await execFileP('bash', [
        '-o',
        'pipefail',
        '-c',
        `"$0" ${bin} run --harness gg --metrics "$2" -- "$0" -e "$1" | head -1; echo "exit=\${PIPESTATUS[0]}"`,
        process.execPath,
        flood,
        metricsFile,
      ]);
      const [first, exit] = stdout.trimEnd().split('\n');
      expect(JSON.parse(first!)).toMatchObject({ type: 'gg', event: { i: 0 } });
      expect(exit).toBe('exit=0');
      expect(stderr).toBe('');
      expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({ harness: 'gg', signal: 'SIGTERM' });
    },
  );

  test(
    'a stage that throws (a --strict schema violation) stops the child: exit 1, one line saying why, the ' +
      'metrics written',
    async () => {
      const metricsFile = join(tmp, 'run-strict.json');
      const { code, stdout, stderr } = await cli(
        [
          'run',
          '--harness',
          'broken',
          '--strict',
          '--metrics',
          metricsFile,
          '--',
          ...script([{ out: '{"n":1}\n' }, { hang: true }]),
        ],
        { entry: withBrokenHarness },
      );
      expect({ code, stderr }).toEqual({ code: 1, stderr: violation });
      // The stream's last event says it too (the run contract: events report, the exit code sums up).
      expect(JSON.parse(stdout)).toMatchObject({
        type: 'error',
        code: 'stage_failed',
        message: violation.replace('harness-events: ', '').trimEnd(),
      });
      expect(JSON.parse(readFileSync(metricsFile, 'utf8'))).toMatchObject({
        harness: 'broken',
        signal: 'SIGTERM',
        input: { lines: 1 },
      });
    },
  );

  test('a --metrics path that cannot be written: exit 2 with one line, before the child starts', async () => {
    const marker = join(tmp, 'started');
    const unwritable = join(tmp, 'no-such-dir', 'metrics.json');
    const result = await cli([
      'run',
      '--harness',
      'gg',
      '--metrics',
      unwritable,
      '--',
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
    ]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: cannot write the metrics to ${unwritable}: ENOENT\n`,
    });
    expect(existsSync(marker)).toBe(false);
  });

  test(
    'a usage error found once --metrics is open (a bad --publish) leaves no metrics file behind, and an ' +
      'existing one as it was',
    async () => {
      const fresh = join(tmp, 'never-written.json');
      const existing = join(tmp, 'kept.json');
      writeFileSync(existing, 'earlier metrics\n');
      const refusal = {
        code: 2,
        stdout: '',
        stderr: 'harness-events: --publish takes nats://HOST:PORT (several comma-separated), got "bogus"\n',
      };
      for (const metricsFile of [fresh, existing]) {
        expect(
          await cli(['run', '--harness', 'gg', '--metrics', metricsFile, '--publish', 'bogus', '--', 'true']),
        ).toEqual(refusal);
        expect(
          await cli(['normalize', '--harness', 'gg', '--metrics', metricsFile, '--publish', 'bogus'], {
            stdin: '{}\n',
          }),
        ).toEqual(refusal);
      }
      expect(existsSync(fresh)).toBe(false);
      expect(readFileSync(existing, 'utf8')).toBe('earlier metrics\n');
    },
  );

  test(
    'usage errors exit 2: neither --prompt nor a command, --model without --prompt, --prompt for a harness ' +
      'without a command line, unknown harness, a --cwd that is not a directory, a bad --kill-grace-ms',
    async () => {
      expect(await cli(['run', '--harness', 'gg'])).toMatchObject({
        code: 2,
        stderr: 'harness-events: run needs --prompt, or the command to run after -- (see harness-events --help)\n',
      });
      expect(await cli(['run', '--harness', 'codex', '--model', 'o4', '--', 'codex'])).toMatchObject({
        code: 2,
        stderr: 'harness-events: --model goes with --prompt (with a command after --, put it there)\n',
      });
      expect(await cli(['run', '--harness', 'gg', '--prompt', 'hi'])).toMatchObject({
        code: 2,
        stderr:
          'harness-events: spawnHarness: gg needs a command (it has no command line of its own to build from a ' +
          'prompt)\n',
      });
      expect((await cli(['run', '--harness', 'nope', '--', 'true'])).code).toBe(2);
      const missing = join(tmp, 'no-such-dir');
      expect(await cli(['run', '--harness', 'gg', '--cwd', missing, '--', 'true'])).toEqual({
        code: 2,
        stdout: '',
        stderr: `harness-events: --cwd ${missing} is not a directory\n`,
      });
      expect(await cli(['run', '--harness', 'gg', '--kill-grace-ms', 'soon', '--', 'true'])).toEqual({
        code: 2,
        stdout: '',
        stderr: 'harness-events: --kill-grace-ms takes a number of milliseconds up to 2147483647, got "soon"\n',
      });
    },
  );
});
