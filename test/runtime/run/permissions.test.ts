/**
 * Safe by default, checked on how each CLI is really started: every ACP preset and every command
 * line run on a stand-in program that records its argv, environment and stdin. By default
 * nothing approves (the flag or variable that stops a CLI approving by itself is there, whatever
 * the caller's env says); no prompt is readable as options; with `extendEnv: false` the child's
 * environment is exactly `env` plus what the permissions set.
 */
import { describe, expect, test } from 'vitest';
import { acpAgents } from '../../../lib/harnesses/acp/agents.js';
import { harnesses, type HarnessName } from '../../../lib/index.js';
import { launchRecord, type LaunchRecord } from './launch-record.js';

const prompt = 'fix the tests';
/** A caller's environment that would undo every permission variable, were it to win. */
const undoing = { GOOSE_MODE: 'auto', OPENCODE_CONFIG_CONTENT: '{}', KILO_CONFIG_CONTENT: '{}' };
const base = { PATH: '/nowhere', HOME: '/home/nobody' };
const ask = '{"permission":"ask"}';

describe('ACP presets, started on a stand-in', () => {
  // Measured on the real agents where the live suite runs them (live/scenarios/*: defaults); goose, crush, auggie
  // and cursor from their documentation.
  const byDefault: Record<string, { args: string[]; env?: Record<string, string> }> = {
    copilot: { args: ['--acp', '--no-auto-update'] },
    droid: { args: ['exec', '-o', 'acp'] },
    kilo: { args: ['acp'], env: { KILO_CONFIG_CONTENT: ask } },
    claude: { args: [] },
    'claude-code': { args: [] },
    qwen: { args: ['--acp', '--approval-mode', 'default'] },
    gemini: { args: ['--acp', '--approval-mode', 'default'] },
    opencode: { args: ['acp'], env: { OPENCODE_CONFIG_CONTENT: ask } },
    goose: { args: ['acp'], env: { GOOSE_MODE: 'approve' } },
    crush: { args: ['acp'] },
    auggie: { args: ['--acp'] },
    cursor: { args: ['acp'] },
    codex: { args: ['-c', 'approval_policy="on-request"', '-c', 'sandbox_mode="read-only"'] },
  };
  test('every preset has its row', () => expect(Object.keys(byDefault).sort()).toEqual([...acpAgents.keys()].sort()));

  for (const [agent, expected] of Object.entries(byDefault)) {
    test(
      `${agent}: by default, what makes it ask; ` + "the caller's env undoes none of it; extendEnv false leaks nothing",
      async () => {
        const env = { ...base, ...undoing };
        const record = await launchRecord({ harness: 'acp', agent, prompt, env, extendEnv: false });
        expect(record.argv).toEqual(expected.args);
        expect(record.env).toEqual({ ...env, ...expected.env });
        // The prompt goes in session/prompt, never on the command line.
        expect(record.stdin).toContain('"method":"initialize"');
      },
    );
  }

  const bypass: Record<string, { args?: string[]; env?: Record<string, string> }> = {
    copilot: { args: ['--acp', '--no-auto-update', '--allow-all-tools'] },
    qwen: { args: ['--acp', '--approval-mode', 'yolo'] },
    gemini: { args: ['--acp'] },
    goose: { env: { GOOSE_MODE: 'auto' } },
    codex: { args: ['-c', 'approval_policy="never"', '-c', 'sandbox_mode="danger-full-access"'] },
    kilo: {},
    opencode: {},
  };
  for (const [agent, expected] of Object.entries(bypass)) {
    test(`${agent}, permissions 'bypass': what makes it approve, and no asking config`, async () => {
      const record = await launchRecord({
        harness: 'acp',
        agent,
        prompt,
        env: base,
        extendEnv: false,
        permissions: 'bypass',
      });
      expect(record.argv).toEqual(expected.args ?? byDefault[agent]!.args);
      expect(record.env).toEqual({ ...base, ...expected.env });
    });
  }
});

describe('command lines, started on a stand-in', () => {
  // What each row adds to the environment by default (cline: its local session backend, lib/harnesses/cline/launch.ts).
  const addedEnv: Record<string, Record<string, string>> = {
    'claude-code': {},
    codex: {},
    copilot: {},
    gemini: {},
    goose: { GOOSE_MODE: 'approve' },
    kilo: { KILO_CONFIG_CONTENT: ask },
    opencode: { OPENCODE_CONFIG_CONTENT: ask },
    qwen: {},
    cline: { CLINE_SESSION_BACKEND_MODE: 'local' },
  };
  // The row's own approving flag, as a prompt: it must stay the task.
  const bypassFlag: Record<string, string> = {
    'claude-code': '--dangerously-skip-permissions',
    codex: '--dangerously-bypass-approvals-and-sandbox',
    copilot: '--allow-all-tools',
    gemini: '--approval-mode=yolo',
    goose: '--no-session',
    kilo: '--auto',
    opencode: '--dangerously-skip-permissions',
    pi: '--mode',
    qwen: '--yolo',
    cline: '-y',
  };
  const rows = Object.keys(bypassFlag);
  test('every command line is here', () =>
    expect(rows.sort()).toEqual(
      [...harnesses]
        .filter(([name, harness]) => harness.launch && name !== 'acp')
        .map(([name]) => name)
        .sort(),
    ));

  /** Where the prompt went: stdin, after `--`, or as `--flag=` (then the argv with it taken out). */
  function placed(record: LaunchRecord, text: string): { via: string; rest: string[] } {
    const { argv, stdin } = record;
    if (stdin === text) return { via: 'stdin', rest: argv };
    if (argv.at(-1) === text && argv.at(-2) === '--') return { via: '--', rest: argv.slice(0, -2) };
    const flag = argv.findIndex((arg) => arg.endsWith(`=${text}`) && arg.startsWith('--'));
    if (flag >= 0) return { via: argv[flag]!.slice(0, -text.length), rest: argv.filter((_, i) => i !== flag) };
    return { via: 'an option parser', rest: argv };
  }

  for (const harness of rows) {
    const permissions = harness === 'pi' ? 'bypass' : 'default';
    test(`${harness}: the prompt reaches no option parser (\`- item\`, its own ${bypassFlag[harness]})`, async () => {
      const start = (text: string) =>
        launchRecord({ harness: harness as HarnessName, prompt: text, permissions, env: base, extendEnv: false });
      const plain = placed(await start(prompt), prompt);
      expect(plain.via).not.toBe('an option parser');
      // Cline's one-word prompt gets a newline (lib/harnesses/cline/launch.ts).
      for (const text of ['- item: fix the tests', bypassFlag[harness]!]) {
        const sent = harness === 'cline' && !/\s/.test(text) ? `${text}\n` : text;
        const record = await start(text);
        expect(placed(record, sent), JSON.stringify(record.argv)).toEqual(plain);
      }
    });
  }

  for (const harness of rows.filter((name) => name !== 'pi')) {
    test(
      `${harness}: by default the caller's env undoes no permission variable; ` + 'extendEnv false leaks nothing',
      async () => {
        const env = { ...base, ...undoing, SECRET: 'not for the agent' };
        const record = await launchRecord({ harness: harness as HarnessName, prompt, env, extendEnv: false });
        expect(record.env).toEqual({ ...env, ...addedEnv[harness] });
        // The same run with the environment extended: this process's variables, the permission's still winning.
        const extended = await launchRecord({ harness: harness as HarnessName, prompt, env: undoing });
        for (const [name, value] of Object.entries(addedEnv[harness]!)) expect(extended.env[name]).toBe(value);
        // No env at all: only what the row adds (Cline's launch once spread this process's environment in).
        const bare = await launchRecord({ harness: harness as HarnessName, prompt, extendEnv: false });
        expect(bare.env).toEqual(addedEnv[harness]);
      },
    );
  }
});
