/**
 * The built bin, as a child process: `run --harness acp` driving the test ACP agent, and
 * `normalize --harness acp` reading a saved agent stdout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { harnessEvents, type CliOptions } from '../../cli.js';
import { onPath } from '../../helpers.js';

const agentScript = new URL('../../children/acp-agent.mjs', import.meta.url).pathname;
const fixture = (name: string) => new URL(`../../fixtures/acp/${name}`, import.meta.url).pathname;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-cli-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with the test agent playing `scenario`; `onLine` sees each line of its stdout as it comes. */
async function cli(scenario: string, args: string[], onLine?: CliOptions['onLine'], env: NodeJS.ProcessEnv = {}) {
  const { code, stdout, stderr } = await harnessEvents(args, {
    cwd: dir,
    env: { ...process.env, ACP_AGENT_SCENARIO: scenario, ACP_AGENT_LOG: join(dir, 'agent.log'), ...env },
    onLine,
  });
  const events = stdout
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { code, events: events.map(({ timestamp: _t, session_id: _s, ...rest }) => rest), stderr };
}
const agentLog = () =>
  readFileSync(join(dir, 'agent.log'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('harness-events run --harness acp', { timeout: 30_000 }, () => {
  test(
    '-- <command> --permissions bypass: the handshake, the prompt, ' + 'the permission allowed, the events, exit 0',
    async () => {
      const { code, events, stderr } = await cli('turn', [
        'run',
        '--harness',
        'acp',
        '--prompt',
        'Clean the build.',
        '--permissions',
        'bypass',
        '--',
        process.execPath,
        agentScript,
      ]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(events.map((event) => event.type)).toEqual(['reasoning', 'agent', 'read', 'command', 'agent', 'usage']);
      expect(events[4]).toEqual({
        type: 'agent',
        message: 'permission: {"outcome":{"outcome":"selected","optionId":"once"}}',
      });
      expect(agentLog()[3].received.params).toEqual({
        sessionId: 'sess-1',
        prompt: [{ type: 'text', text: 'Clean the build.' }],
      });
    },
  );

  test('by default the permission is rejected; --model', async () => {
    const { code, events } = await cli('turn', [
      'run',
      '--harness',
      'acp',
      '--prompt',
      'p',
      '--model',
      'm1',
      '--',
      process.execPath,
      agentScript,
    ]);
    expect(code).toBe(0);
    // The test agent refuses every model: an error event, and the run goes on.
    expect(events[0]).toEqual({ type: 'error', message: 'Unknown model: m1', code: '-32602' });
    // The rejection is a permission_denied warning (docs/contract.md "Refused tool calls").
    expect(events[4]).toEqual({
      type: 'warning',
      code: 'permission_denied',
      message: 'Permission denied: rm -rf build: permissions "default": the library chose no',
    });
    expect(events[6]).toEqual({
      type: 'agent',
      message: 'permission: {"outcome":{"outcome":"selected","optionId":"no"}}',
    });
    expect(
      agentLog()
        .map((entry) => entry.received?.method)
        .filter(Boolean),
    ).toEqual(['initialize', 'session/new', 'session/set_model', 'session/prompt']);
  });

  test('--agent: a known agent from PATH, no command needed', async () => {
    const path = onPath(dir, 'gemini', `exec "${process.execPath}" "${agentScript}" "$@"`);
    const { code, events } = await cli(
      'model',
      ['run', '--harness', 'acp', '--agent', 'gemini', '--prompt', 'hi'],
      undefined,
      path,
    );
    expect(code).toBe(0);
    expect(events).toEqual([{ type: 'agent', message: 'Hello.' }]);
    expect(agentLog()[0]).toEqual({ argv: ['--acp', '--approval-mode', 'default'] });
  });

  test("Ctrl-C cancels the turn: session/cancel, the agent's `cancelled` answer written, exit 130", async () => {
    let interrupted = false;
    const { code, events } = await cli(
      'cancel',
      ['run', '--harness', 'acp', '--prompt', 'Run the slow build.', '--', process.execPath, agentScript],
      (line, child) => {
        if (!interrupted && JSON.parse(line).type === 'agent') interrupted = child.kill('SIGINT');
      },
    );
    expect(code).toBe(130);
    expect(events.at(-1)).toEqual({ type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' });
    expect(agentLog().some((entry) => entry.received?.method === 'session/cancel')).toBe(true);
  });

  test(
    'usage errors (exit 2): no --prompt, an unknown agent, neither an agent nor a command, --agent for another ' +
      'harness, --permissions without --prompt, outside the vocabulary, or with no ACP meaning',
    async () => {
      const usage = async (args: string[]) => {
        const { code, stderr } = await cli('turn', args);
        return { code, stderr: stderr.trim() };
      };
      expect(await usage(['run', '--harness', 'acp', '--', process.execPath, agentScript])).toEqual({
        code: 2,
        stderr: 'harness-events: acp: the prompt option is required (a string)',
      });
      expect((await usage(['run', '--harness', 'acp', '--agent', 'vim', '--prompt', 'p'])).stderr).toMatch(
        /^harness-events: acp: unknown agent "vim"/,
      );
      expect(await usage(['run', '--harness', 'acp', '--prompt', 'p'])).toEqual({
        code: 2,
        stderr:
          "harness-events: run --harness acp needs --agent or the agent's command after -- (see harness-events --help)",
      });
      expect(await usage(['run', '--harness', 'claude-code', '--agent', 'qwen', '--prompt', 'p'])).toEqual({
        code: 2,
        stderr: 'harness-events: --agent is for --harness acp',
      });
      expect(await usage(['run', '--harness', 'auto', '--permissions', 'bypass', '--', 'claude'])).toEqual({
        code: 2,
        stderr: 'harness-events: --permissions goes with --prompt (with a command after --, its arguments are yours)',
      });
      expect(await usage(['run', '--harness', 'acp', '--prompt', 'p', '--permissions', 'reject'])).toEqual({
        code: 2,
        stderr:
          'harness-events: --permissions takes one of "default", "read-only", "plan", "bypass", "ask", got "reject"',
      });
      expect(await usage(['run', '--harness', 'acp', '--permissions', 'plan', '--prompt', 'p', '--', 'agent'])).toEqual(
        {
          code: 2,
          stderr:
            'harness-events: acp: permissions must be "default" (reject the agent\'s requests), "bypass" (allow ' +
            'them) or "ask" (onPermission decides), got "plan"',
        },
      );
    },
  );
});

describe('harness-events normalize --harness acp', { timeout: 30_000 }, () => {
  // Checked by hand against acp.md and the lines of Kilo's cancel capture (see fixtures.test.ts).
  test('a saved agent stdout: the events the live run gave, the session id from session/new, exit 0', async () => {
    const { code, events, stderr } = await cli('turn', [
      'normalize',
      '--harness',
      'acp',
      '--cwd',
      '/home/user/project',
      '--metrics',
      join(dir, 'metrics.json'),
      fixture('kilo/cancel.jsonl'),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(events).toEqual([
      { type: 'agent', message: 'Starting the slow build.' },
      // Killed by the abort: `metadata.exit: null`, no exit code, failed though `completed`.
      {
        type: 'command',
        command: 'sleep 30 && echo built',
        working_directory: '/home/user/project',
        is_success: false,
      },
      { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8'))).toMatchObject({
      harness: 'acp',
      session_id: 'ses_dd0c35d41ffeBRza0ux25V7kjn',
      ended: true,
      is_error: true,
      turns: 1,
    });
  });
});
