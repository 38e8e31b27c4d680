/**
 * The command lines spawnHarness builds from a prompt (lib/runtime/command-lines.ts): for each
 * harness the exact argv, checked against the command lines of the lab captures (LAB.md), and one
 * real child found on PATH the way a user's agent CLI is.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { harnesses, spawnHarness, type HarnessEvent, type HarnessName } from '../../lib/index.js';
import type { SpawnHarnessOptions } from '../../lib/runtime/run/spawn.js';
import { argsOf, docOf, permissionDoc, type CommandLine } from '../../lib/kernel/command-line.js';
import { commandLines } from '../../lib/runtime/registry.js';
import { permissionModes } from '../../lib/kernel/permissions.js';
import { onPath } from '../helpers.js';
import { harnessEvents } from '../cli.js';

const prompt = 'fix the tests';

function launched(harness: HarnessName, options: Partial<SpawnHarnessOptions> = {}) {
  const { command, args } = harnesses.get(harness)!.launch!({ harness, prompt, ...options });
  return [command, ...(args ?? [])];
}

/** The README's row for a harness: its command line, then what default, bypass and the other modes add. */
export function readmeRow(name: string, row: CommandLine): string {
  const cell = (text: string | undefined) =>
    text === undefined ? 'no such mode' : text === '' ? 'nothing' : `\`${text}\``;
  const others = (['read-only', 'plan'] as const)
    .filter((mode) => permissionDoc(row, mode) !== undefined)
    .map((mode) => `${mode}: ${cell(permissionDoc(row, mode))}`);
  const modes = [cell(permissionDoc(row, 'default')), cell(permissionDoc(row, 'bypass')), others.join('; ') || '—'];
  return `| \`${name}\` | \`${docOf(row)}\` | ${modes.join(' | ')} |`;
}

// acp's command line comes from its `agent` presets (test/harnesses/acp/client.test.ts).
type CliHarness = Exclude<HarnessName, 'gg' | 'acp'>;

describe('the command line built for a prompt', () => {
  // The lab's command lines (LAB.md), exactly: what the live suite runs.
  const bypass: Record<CliHarness, string[]> = {
    'claude-code': [
      'claude',
      '--print',
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
    ],
    codex: ['codex', 'exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--', prompt],
    copilot: ['copilot', `--prompt=${prompt}`, '--output-format', 'json', '--allow-all-tools', '--no-color'],
    gemini: ['gemini', `--prompt=${prompt}`, '--output-format', 'stream-json', '--approval-mode', 'yolo'],
    goose: ['goose', 'run', '--quiet', '--output-format', 'stream-json', `--text=${prompt}`],
    kilo: ['kilo', 'run', '--format', 'json', '--auto', '--', prompt],
    opencode: ['opencode', 'run', '--format', 'json', '--', prompt],
    pi: ['pi', '--mode', 'json'],
    qwen: ['qwen', '--approval-mode', 'yolo', '--output-format', 'stream-json'],
    cline: ['cline', '--json', '--auto-approve', 'true', '--', prompt],
  };
  for (const [harness, argv] of Object.entries(bypass) as [HarnessName, string[]][]) {
    test(`${harness}, permissions: 'bypass': the lab's command line`, () =>
      expect(launched(harness, { permissions: 'bypass' })).toEqual(argv));
  }

  // Checked against each CLI's page (docs/harnesses/): the mode that approves nothing, said explicitly where the
  // CLI has a flag for it (a settings file may choose another).
  const byDefault: Record<Exclude<CliHarness, 'pi'>, string[]> = {
    'claude-code': ['claude', '--print', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'default'],
    codex: ['codex', 'exec', '--json', '--sandbox', 'read-only', '--', prompt],
    copilot: ['copilot', `--prompt=${prompt}`, '--output-format', 'json', '--no-color'],
    gemini: ['gemini', `--prompt=${prompt}`, '--output-format', 'stream-json', '--approval-mode', 'default'],
    goose: ['goose', 'run', '--quiet', '--output-format', 'stream-json', `--text=${prompt}`],
    kilo: ['kilo', 'run', '--format', 'json', '--', prompt],
    opencode: ['opencode', 'run', '--format', 'json', '--', prompt],
    qwen: ['qwen', '--approval-mode', 'default', '--output-format', 'stream-json'],
    // Cline approves every tool unless told not to: the default line turns that off.
    cline: ['cline', '--json', '--auto-approve', 'false', '--', prompt],
  };
  for (const [harness, argv] of Object.entries(byDefault) as [HarnessName, string[]][]) {
    test(`${harness}, by default: approves nothing`, () => {
      expect(launched(harness)).toEqual(argv);
      // undefined is the default, as for every option.
      expect(launched(harness, { permissions: undefined })).toEqual(argv);
      expect(launched(harness, { permissions: 'default' })).toEqual(argv);
    });
  }

  test('no default command line holds an approving flag or variable, for any row of the table', () => {
    const approving = [
      '--dangerously-skip-permissions',
      '--dangerously-bypass-approvals-and-sandbox',
      'yolo',
      '--yolo',
      '--allow-all-tools',
      '--auto',
      'bypassPermissions',
    ];
    for (const [name, row] of Object.entries(commandLines) as [string, CommandLine][]) {
      const flags = row.permissions.default;
      if (flags === undefined) continue;
      const argv = argsOf(row, { prompt });
      expect(
        argv.filter((arg) => approving.includes(arg)),
        name,
      ).toEqual([]);
      // Nor any flag of its own bypass, nor its bypass environment.
      const bypassFlags = row.permissions.bypass ?? [];
      expect(
        argv.filter((arg) => bypassFlags.includes(arg) && !flags.includes(arg)),
        name,
      ).toEqual([]);
      const env = row.permissionEnv?.default ?? {};
      for (const [variable, value] of Object.entries(row.permissionEnv?.bypass ?? {}))
        expect(env[variable], `${name} ${variable}`).not.toBe(value);
    }
  });

  test("where the CLI has the mode, read-only and plan; elsewhere a TypeError naming the CLI's modes", () => {
    expect(launched('codex', { permissions: 'read-only' })).toEqual([
      'codex',
      'exec',
      '--json',
      '--sandbox',
      'read-only',
      '--',
      prompt,
    ]);
    expect(launched('claude-code', { permissions: 'plan' })).toContain('plan');
    expect(launched('qwen', { permissions: 'plan' }).slice(1, 3)).toEqual(['--approval-mode', 'plan']);
    expect(() => launched('kilo', { permissions: 'plan' })).toThrow(
      new TypeError(
        `spawnHarness: kilo has no "plan" mode (${permissionModes.plan}); its permissions: default, read-only, bypass`,
      ),
    );
  });

  test('pi cannot refuse a tool call (it has no approvals): only an explicit bypass runs it', () => {
    expect(() => launched('pi')).toThrow(/^spawnHarness: pi has no "default" mode .*; its permissions: bypass$/);
    expect(() => spawnHarness({ harness: 'pi', prompt })).toThrow(TypeError);
  });

  test("a mode a CLI takes from its environment: added over the caller's env, which cannot undo it", () => {
    const goose = harnesses.get('goose')!.launch!;
    expect(goose({ harness: 'goose', prompt }).env).toEqual({ GOOSE_MODE: 'approve' });
    expect(goose({ harness: 'goose', prompt, permissions: 'bypass' }).env).toEqual({ GOOSE_MODE: 'auto' });
    expect(goose({ harness: 'goose', prompt, env: { GOOSE_MODE: 'auto', X: '1' } }).env).toEqual({
      GOOSE_MODE: 'approve',
      X: '1',
    });
    expect(harnesses.get('opencode')!.launch!({ harness: 'opencode', prompt }).env).toEqual({
      OPENCODE_CONFIG_CONTENT: '{"permission":"ask"}',
    });
  });

  test('every harness but gg has one (gg is not a CLI of its own; acp launches its agent presets)', () => {
    expect(
      [...harnesses]
        .filter(([, harness]) => harness.launch)
        .map(([name]) => name)
        .sort(),
    ).toEqual([...Object.keys(bypass), 'acp'].sort());
  });

  test(
    "model and extraArgs go before the prompt (or after it where the prompt is a flag's value; " +
      'Claude Code reads it on stdin)',
    () => {
      expect(
        launched('claude-code', { model: 'opus', extraArgs: ['--max-turns', '3'], permissions: 'bypass' }),
      ).toEqual([
        'claude',
        '--print',
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
        '--model',
        'opus',
        '--max-turns',
        '3',
      ]);
      expect(launched('gemini', { model: 'gemini-3-pro', extraArgs: ['--sandbox'], permissions: 'bypass' })).toEqual([
        'gemini',
        `--prompt=${prompt}`,
        '--output-format',
        'stream-json',
        '--approval-mode',
        'yolo',
        '--model',
        'gemini-3-pro',
        '--sandbox',
      ]);
    },
  );

  test('docs/library.md shows every row as the code builds it: the command line and what each value adds', () => {
    const readme = readFileSync(new URL('../../docs/library.md', import.meta.url), 'utf8');
    for (const [harness, row] of Object.entries(commandLines)) expect(readme).toContain(readmeRow(harness, row));
  });

  test('command replaces the program, not the arguments', () => {
    expect(launched('codex', { command: '/opt/codex/bin/codex', permissions: 'bypass' })).toEqual([
      '/opt/codex/bin/codex',
      'exec',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      '--',
      prompt,
    ]);
  });

  test('without a prompt, command and args run as given; mixing the two forms is a TypeError', () => {
    expect(
      harnesses.get('codex')!.launch!({ harness: 'codex', command: 'codex', args: ['exec', '--json', 'hi'] }),
    ).toMatchObject({ command: 'codex', args: ['exec', '--json', 'hi'] });
    expect(() => spawnHarness({ harness: 'codex', prompt, args: ['exec'] })).toThrow(TypeError);
    expect(() => spawnHarness({ harness: 'codex', command: 'codex', model: 'o4' })).toThrow(
      'model, extraArgs and permissions go with a prompt',
    );
    expect(() => spawnHarness({ harness: 'codex', command: 'codex', permissions: 'bypass' })).toThrow(
      'model, extraArgs and permissions go with a prompt',
    );
    expect(() => spawnHarness({ harness: 'gg' } as SpawnHarnessOptions)).toThrow(
      'spawnHarness: gg needs a command (it has no command line of its own to build from a prompt)',
    );
    expect(() => spawnHarness({ harness: 'claude-code' })).toThrow(
      'spawnHarness: claude-code needs a prompt (its command line is built around it) or a command',
    );
  });
});

describe('a run started from a prompt', () => {
  const bin = mkdtempSync(join(tmpdir(), 'harness-events-command-lines-'));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  // A stand-in named like the real CLI: it reports its arguments as a stderr line, then ends pi's way.
  writeFileSync(
    join(bin, 'pi.mjs'),
    `process.stderr.write(JSON.stringify(process.argv.slice(2)) + '\\n');\nconsole.log(JSON.stringify({ type: ` +
      `'agent_end', messages: [] }));\n`,
  );
  const env = { ...process.env, ...onPath(bin, 'pi', `exec "${process.execPath}" "${join(bin, 'pi.mjs')}" "$@"`) };

  test(
    'finds the program on the PATH it is given and ' + 'passes the built argv (a stand-in `pi` prints its argv)',
    async () => {
      const run = spawnHarness({ harness: 'pi', prompt, model: 'lab', permissions: 'bypass', cwd: bin, env });
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      expect(events.filter((event) => event.type === 'warning').map((event) => event.message)).toEqual([
        JSON.stringify(['--mode', 'json', '--model', 'lab']),
      ]);
      expect(await run.done).toMatchObject({ exitCode: 0 });
    },
  );

  // A stand-in goose: its argv and the GOOSE_MODE it was given, as a stderr line.
  writeFileSync(
    join(bin, 'goose.mjs'),
    `process.stderr.write(JSON.stringify([process.argv.slice(2), process.env.GOOSE_MODE]) + '\\n');\n`,
  );
  const goosePath = onPath(bin, 'goose', `exec "${process.execPath}" "${join(bin, 'goose.mjs')}" "$@"`);

  test("by default a mode taken from the environment reaches the child over this process's own", async () => {
    const inherited = process.env.GOOSE_MODE;
    process.env.GOOSE_MODE = 'auto';
    try {
      const run = spawnHarness({ harness: 'goose', prompt, cwd: bin, env: goosePath });
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      expect(events.filter((event) => event.type === 'warning' && event.code === 'stderr')).toMatchObject([
        {
          message: JSON.stringify([
            ['run', '--quiet', '--output-format', 'stream-json', `--text=${prompt}`],
            'approve',
          ]),
        },
      ]);
    } finally {
      if (inherited === undefined) delete process.env.GOOSE_MODE;
      else process.env.GOOSE_MODE = inherited;
    }
  });

  test(
    'harness-events run --harness pi --prompt P without --permissions ' + 'bypass: a usage error, nothing started',
    async () => {
      const result = await harnessEvents(['run', '--harness', 'pi', '--prompt', prompt], { env, cwd: bin });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^harness-events: spawnHarness: pi has no "default" mode/);
    },
  );

  test(
    'harness-events run --harness pi --prompt P --model M -- EXTRA: the same command line, the words after -- ' +
      'before the prompt',
    async () => {
      const result = await harnessEvents(
        [
          'run',
          '--harness',
          'pi',
          '--prompt',
          prompt,
          '--model',
          'lab',
          '--permissions',
          'bypass',
          '--',
          '--thinking',
          'high',
        ],
        { env, cwd: bin },
      );
      expect(result.code).toBe(0);
      expect(
        result.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line))
          .filter((event) => event.type === 'warning')
          .map((event) => event.message),
      ).toEqual([JSON.stringify(['--mode', 'json', '--model', 'lab', '--thinking', 'high'])]);
    },
  );
});
