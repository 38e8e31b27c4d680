/**
 * Safe by default, checked on how each CLI is really started: every ACP preset and every command
 * line run on a stand-in program that records its argv, environment and stdin. By default
 * nothing approves (the flag or variable that stops a CLI approving by itself is there, whatever
 * the caller's env says); no prompt is readable as options; with `extendEnv: false` the child's
 * environment is exactly `env` plus what the permissions set.
 */
import { describe, expect, test } from 'vitest';
import { acpAgents } from '../../../lib/harnesses/acp/agents.js';
import { launchRecord } from './launch-record.js';

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
    test(`${agent}: by default, what makes it ask; the caller's env undoes none of it; extendEnv false leaks nothing`, async () => {
      const env = { ...base, ...undoing };
      const record = await launchRecord({ harness: 'acp', agent, prompt, env, extendEnv: false });
      expect(record.argv).toEqual(expected.args);
      expect(record.env).toEqual({ ...env, ...expected.env });
      // The prompt goes in session/prompt, never on the command line.
      expect(record.stdin).toContain('"method":"initialize"');
    });
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
      const record = await launchRecord({ harness: 'acp', agent, prompt, env: base, extendEnv: false, permissions: 'bypass' });
      expect(record.argv).toEqual(expected.args ?? byDefault[agent]!.args);
      expect(record.env).toEqual({ ...base, ...expected.env });
    });
  }
});
