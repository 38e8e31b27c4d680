/**
 * `run --publish`, `normalize --publish` and `replay --from`: the built bin as a child process, against a real
 * nats-server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bin, harnessEvents as cli } from '../../cli.js';
import { fixturePath, floodProgress } from '../../helpers.js';
import { startNatsServer, type NatsServer } from '../../nats-server.js';
import { children } from './publish.js';

const untimed = (jsonl: string) =>
  jsonl
    .trimEnd()
    .split('\n')
    .map((line) => ({ ...JSON.parse(line), timestamp: undefined }));

let server: NatsServer;
let tmp: string;
beforeAll(async () => {
  server = await startNatsServer();
  tmp = mkdtempSync(join(tmpdir(), 'harness-events-nats-cli-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('--publish', { timeout: 60_000 }, () => {
  test(
    'run: the events printed and published, the ' + 'metrics as the final message; replay prints the same JSONL',
    async () => {
      const capture = fixturePath('claude-code/lab/parallel.jsonl');
      const metricsFile = join(tmp, 'run-metrics.json');
      const ran = await cli([
        'run',
        '--harness',
        'claude-code',
        '--publish',
        server.url,
        '--run',
        'cli-run',
        '--metrics',
        metricsFile,
        '--',
        process.execPath,
        join(children, 'replay.mjs'),
        capture,
        '0',
      ]);
      expect(ran).toMatchObject({
        code: 0,
        stderr:
          `harness-events: publishing run cli-run to ${server.url}, stream HARNESS_EVENTS, subjects ` +
          `harness.claude-code.cli-run.<type>\n`,
      });
      expect(ran.stdout.split('\n').length).toBeGreaterThan(5);

      const replayedMetrics = join(tmp, 'replayed-metrics.json');
      const replayed = await cli(['replay', '--from', server.url, '--run', 'cli-run', '--metrics', replayedMetrics]);
      expect(replayed).toEqual({ code: 0, stdout: ran.stdout, stderr: '' });
      expect(readFileSync(replayedMetrics, 'utf8')).toBe(readFileSync(metricsFile, 'utf8'));
    },
  );

  test('normalize --quiet: nothing printed, everything published; the same events as without --publish', async () => {
    const capture = fixturePath('codex/lab/shell.jsonl');
    const plain = await cli(['normalize', '--harness', 'codex', '--cwd', '/ws', capture]);
    const quiet = await cli([
      'normalize',
      '--harness',
      'codex',
      '--cwd',
      '/ws',
      '--publish',
      server.url,
      '--run',
      'quiet',
      '--quiet',
      capture,
    ]);
    expect(quiet).toEqual({
      code: 0,
      stdout: '',
      stderr:
        `harness-events: publishing run quiet to ${server.url}, stream HARNESS_EVENTS, subjects ` +
        `harness.codex.quiet.<type>\n`,
    });
    const replayed = await cli(['replay', '--from', server.url, '--run', 'quiet', '--harness', 'codex']);
    expect(replayed.code).toBe(0);
    expect(untimed(replayed.stdout)).toEqual(untimed(plain.stdout));
  });

  test('--format pretty with --publish: printed as without it, published as JSONL', async () => {
    const capture = fixturePath('claude-code/lab/read.jsonl');
    const plain = await cli(['normalize', '--harness', 'claude-code', '--format', 'pretty', capture]);
    const published = await cli([
      'normalize',
      '--harness',
      'claude-code',
      '--format',
      'pretty',
      '--publish',
      server.url,
      '--run',
      'pretty',
      capture,
    ]);
    expect(published.stdout).toBe(plain.stdout);
    expect(plain.stdout.split('\n').length).toBe(8);
    const replayed = await cli(['replay', '--from', server.url, '--run', 'pretty']);
    expect(
      replayed.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['agent', 'read', 'agent', 'read', 'read', 'agent']);
  });

  test(
    'a stream that does not take the run: exit 1 ' + 'with the reason, the child stopped, nothing half-done',
    async () => {
      const connection = await connect({ servers: server.url });
      try {
        await (await jetstreamManager(connection)).streams.add({ name: 'NOT_OURS', subjects: ['theirs.>'] });
      } finally {
        await connection.close();
      }
      const ran = await cli([
        'run',
        '--harness',
        'claude-code',
        '--publish',
        server.url,
        '--stream',
        'NOT_OURS',
        '--run',
        'refused',
        '--',
        process.execPath,
        join(children, 'flood.mjs'),
        String(64 * 1024 * 1024),
        join(tmp, 'progress'),
      ]);
      expect(ran.code).toBe(1);
      expect(ran.stderr.split('\n').slice(1)).toEqual([
        'harness-events: stream NOT_OURS does not take subject harness.claude-code.refused.agent (stream ' +
          'HARNESS_EVENTS does): add "harness.>" to its subjects or choose another stream',
        '',
      ]);
      // Held back until the sink was refused, then stopped: far from done.
      const progress = join(tmp, 'progress');
      expect(floodProgress(progress).bytes).toBeLessThan(64 * 1024 * 1024);
    },
  );

  test(
    'view --from shows a stored run as view shows its ' + 'JSONL; Ctrl-C ends replay --follow cleanly (exit 130)',
    async () => {
      const capture = fixturePath('claude-code/lab/read.jsonl');
      expect(
        (
          await cli([
            'normalize',
            '--harness',
            'claude-code',
            '--publish',
            server.url,
            '--run',
            'viewed',
            '--quiet',
            capture,
          ])
        ).code,
      ).toBe(0);
      const stored = await cli(['replay', '--from', server.url, '--run', 'viewed']);
      const file = join(tmp, 'viewed.jsonl');
      writeFileSync(file, stored.stdout);
      const fromFile = await cli(['view', '--cwd', '/home/user/project', file]);
      expect(fromFile.code).toBe(0);
      expect(await cli(['view', '--cwd', '/home/user/project', '--from', server.url, '--run', 'viewed'])).toEqual(
        fromFile,
      );

      // Following: everything stored is printed, then it waits for more until Ctrl-C.
      const follower = spawn(process.execPath, [bin, 'replay', '--from', server.url, '--run', 'viewed', '--follow'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      await new Promise<void>((resolve) =>
        follower.stdout.on('data', (data) => {
          stdout += data;
          if (stdout === stored.stdout) resolve();
        }),
      );
      const code = new Promise((resolve) => follower.on('close', resolve));
      follower.kill('SIGINT');
      expect(await code).toBe(130);
      expect(stdout).toBe(stored.stdout);
    },
  );

  test('replay of a stream that is not there: exit 1, named', async () => {
    expect(await cli(['replay', '--from', server.url, '--stream', 'NOPE'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `harness-events: no JetStream stream NOPE on ${server.url}\n`,
    });
  });

  test('usage errors: exit 2 and a one-line reason', async () => {
    const cases: [string[], string][] = [
      [
        ['normalize', '--harness', 'codex', '--quiet', fixturePath('codex/lab/shell.jsonl')],
        '--quiet goes with --publish (see harness-events --help)',
      ],
      [
        ['run', '--harness', 'codex', '--publish', 'http://127.0.0.1:4222', '--', 'true'],
        '--publish takes nats://HOST:PORT (several comma-separated), got "http://127.0.0.1:4222"',
      ],
      [
        ['run', '--harness', 'codex', '--publish', server.url, '--run', 'a.b', '--', 'true'],
        'run "a.b" cannot be a NATS subject token (no ".", "*", ">" or whitespace)',
      ],
      [['replay', '--run', 'x'], 'replay needs --from nats://HOST:PORT (see harness-events --help)'],
      [
        ['replay', '--from', server.url, '--metrics', 'm.json'],
        '--metrics needs --run: one run has one metrics message',
      ],
      [
        ['replay', '--from', server.url, '--since', 'yesterday'],
        '--since takes a date and time, e.g. 2026-11-30T12:00:00Z, got "yesterday"',
      ],
      [['view', '--run', 'x'], '--run goes with --from (see harness-events --help)'],
      [['view', '--from', server.url, 'events.jsonl'], 'view reads --from or a file, not both (got events.jsonl)'],
      [['replay', '--from', server.url, '--quiet'], "Unknown option '--quiet'"],
    ];
    for (const [args, message] of cases)
      expect(await cli(args)).toEqual({ code: 2, stdout: '', stderr: `harness-events: ${message}\n` });
  });
});
