/**
 * The command lines spawnHarness builds from a prompt (src/runtime/command-lines.ts): for each
 * harness the exact argv, checked against the command lines of the lab captures (LAB.md), and one
 * real child found on PATH the way a user's agent CLI is.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { harnesses, spawnHarness, type HarnessEvent, type HarnessName } from '../src/index.js';
import type { SpawnHarnessOptions } from '../src/runtime/spawn.js';
import { commandLines, docOf } from '../src/runtime/command-lines.js';
import { onPath } from './helpers.js';
import { harnessEvents } from './view/cli-run.js';

const prompt = 'fix the tests';

function launched(harness: HarnessName, options: Partial<SpawnHarnessOptions> = {}) {
  const { command, args } = harnesses.get(harness)!.launch!({ harness, prompt, ...options });
  return [command, ...(args ?? [])];
}

describe('the command line built for a prompt', () => {
  // acp's command line comes from its `agent` presets (test/acp/client.test.ts).
  const expected: Record<Exclude<HarnessName, 'gg' | 'acp'>, string[]> = {
    'claude-code': [
      'claude',
      '--print',
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      prompt,
    ],
    codex: ['codex', 'exec', '--json', '--dangerously-bypass-approvals-and-sandbox', prompt],
    copilot: ['copilot', '-p', prompt, '--output-format', 'json', '--allow-all-tools', '--no-color'],
    gemini: ['gemini', '-p', prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo'],
    goose: ['goose', 'run', '--quiet', '--output-format', 'stream-json', '--text', prompt],
    kilo: ['kilo', 'run', '--format', 'json', '--auto', prompt],
    opencode: ['opencode', 'run', '--format', 'json', prompt],
    pi: ['pi', '--mode', 'json', prompt],
    qwen: ['qwen', '--approval-mode', 'yolo', '--output-format', 'stream-json', prompt],
    // Cline approves every tool unless told not to: the default line turns that off.
    cline: ['cline', '--json', '--auto-approve', 'false', prompt],
  };
  for (const [harness, argv] of Object.entries(expected) as [HarnessName, string[]][]) {
    test(harness, () => expect(launched(harness)).toEqual(argv));
  }

  test('every harness but gg has one (gg is not a CLI of its own; acp launches its agent presets)', () => {
    expect(
      [...harnesses]
        .filter(([, harness]) => harness.launch)
        .map(([name]) => name)
        .sort(),
    ).toEqual([...Object.keys(expected), 'acp'].sort());
  });

  test("model and extraArgs go before the prompt (or after it where the prompt is a flag's value)", () => {
    expect(launched('claude-code', { model: 'opus', extraArgs: ['--max-turns', '3'] })).toEqual([
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
      prompt,
    ]);
    expect(launched('gemini', { model: 'gemini-3-pro', extraArgs: ['--sandbox'] })).toEqual([
      'gemini',
      '-p',
      prompt,
      '--output-format',
      'stream-json',
      '--approval-mode',
      'yolo',
      '--model',
      'gemini-3-pro',
      '--sandbox',
    ]);
  });

  test('docs/library.md shows every row as the code builds it', () => {
    const readme = readFileSync(new URL('../docs/library.md', import.meta.url), 'utf8');
    for (const [harness, row] of Object.entries(commandLines))
      expect(readme).toContain(`| \`${harness}\` | \`${docOf(row)}\` |`);
  });

  test('command replaces the program, not the arguments', () => {
    expect(launched('codex', { command: '/opt/codex/bin/codex' })).toEqual([
      '/opt/codex/bin/codex',
      'exec',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      prompt,
    ]);
  });

  test('without a prompt, command and args run as given; mixing the two forms is a TypeError', () => {
    expect(
      harnesses.get('codex')!.launch!({ harness: 'codex', command: 'codex', args: ['exec', '--json', 'hi'] }),
    ).toMatchObject({ command: 'codex', args: ['exec', '--json', 'hi'] });
    expect(() => spawnHarness({ harness: 'codex', prompt, args: ['exec'] })).toThrow(TypeError);
    expect(() => spawnHarness({ harness: 'codex', command: 'codex', model: 'o4' })).toThrow(
      'model and extraArgs go with a prompt',
    );
    expect(() => spawnHarness({ harness: 'gg' })).toThrow(
      'spawnHarness: gg needs a command (it has no command line of its own to build from a prompt)',
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
      const run = spawnHarness({ harness: 'pi', prompt, model: 'lab', cwd: bin, env });
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      expect(events.filter((event) => event.type === 'warning').map((event) => event.message)).toEqual([
        JSON.stringify(['--mode', 'json', '--model', 'lab', prompt]),
      ]);
      expect(await run.done).toMatchObject({ exit_code: 0 });
    },
  );

  test(
    'harness-events run --harness pi --prompt P --model M -- EXTRA: the same command line, the words after -- ' +
      'before the prompt',
    async () => {
      const result = await harnessEvents(
        ['run', '--harness', 'pi', '--prompt', prompt, '--model', 'lab', '--', '--thinking', 'high'],
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
      ).toEqual([JSON.stringify(['--mode', 'json', '--model', 'lab', '--thinking', 'high', prompt])]);
    },
  );
});
