/**
 * The library as an ACP client (acp.md "The client side"), against a real peer (peer.ts): what the library
 * sends, and the known agents (the `agent` option). Each test names the row of the page's tables it covers.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { acpAgents, launch } from '../../../lib/harnesses/acp/agents.js';
import { spawnHarness, type SpawnHarnessOptions } from '../../../lib/runtime/run/spawn.js';
import { bodies, onPath } from '../../helpers.js';
import { buildReport } from '../../../lib/interfaces/report/index.js';
import {
  freshDirEachTest,
  agentScript,
  prompt,
  dir,
  agent,
  collect,
  initialize,
  sessionNew,
  promptRequest,
} from './peer.js';

freshDirEachTest();

describe('what the library sends', { timeout: 30_000 }, () => {
  test(
    'steps 1, 2, 4 and the end: initialize (no fs, no terminal), session/new with the absolute cwd, ' +
      'session/prompt with the session id; the prompt response ends the run and stdin is closed',
    async () => {
      const { run, log, sent } = agent('turn', { permissions: 'bypass' });
      const events = await collect(run);
      expect(events.every((event) => event.session_id === 'sess-1')).toBe(true);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'Planning.' },
        { type: 'agent', message: 'Reading notes.' },
        { type: 'read', path: join(dir, 'notes.md'), is_success: true },
        { type: 'command', command: 'rm -rf build', exit_code: 0, is_success: true },
        { type: 'agent', message: 'permission: {"outcome":{"outcome":"selected","optionId":"once"}}' },
        { type: 'usage', tokens: { input: 100, output: 10 } },
      ]);
      expect(sent()).toEqual([
        initialize,
        sessionNew(),
        promptRequest(3),
        { jsonrpc: '2.0', id: 100, result: { outcome: { outcome: 'selected', optionId: 'once' } } },
      ]);
      expect(log().at(-1)).toEqual({ end: true });
      const outcome = await run.done;
      expect(outcome).toMatchObject({
        failed: false,
        exitCode: 0,
        isCanceled: false,
        metrics: {
          harness: 'acp',
          session_id: 'sess-1',
          ended: true,
          is_error: false,
          turns: 1,
          final_output: 'permission: {"outcome":{"outcome":"selected","optionId":"once"}}',
        },
      });
      expect(run.child!.exitCode).toBe(0);
    },
  );

  test(
    'step 3: session/set_model with the model option, before the prompt; its error response is an error event ' +
      'and the run goes on',
    async () => {
      const records: unknown[] = [];
      const { run, sent } = agent('model', { model: 'custom:Lab-Fake-0', onRecord: (record) => records.push(record) });
      expect(bodies(await collect(run))).toEqual([
        { type: 'error', message: 'Unknown model: custom:Lab-Fake-0', code: '-32602' },
        { type: 'agent', message: 'Hello.' },
      ]);
      expect(sent()).toEqual([
        initialize,
        sessionNew(),
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'session/set_model',
          params: { sessionId: 'sess-1', modelId: 'custom:Lab-Fake-0' },
        },
        promptRequest(4),
      ]);
      expect((await run.done).metrics).toMatchObject({ ended: true, is_error: false });
      // The caller's onRecord still sees every message the agent wrote, beside the client.
      expect(
        records.map((record) =>
          Object.keys(record as object).filter((key) => key === 'result' || key === 'error' || key === 'method'),
        ),
      ).toEqual([['result'], ['result'], ['error'], ['method'], ['result']]);
    },
  );

  const refusals = [
    [
      'an error response to session/new ends the run there: an error event',
      'auth',
      { type: 'error', message: 'Authentication required', code: '-32000' },
    ],
    [
      "a session/new result without a sessionId: an error of the library's own (protocol_error)",
      'nosession',
      {
        type: 'error',
        code: 'protocol_error',
        message: 'the ACP agent answered session/new without a sessionId: no prompt can be sent',
      },
    ],
  ] as const;
  for (const [name, scenario, error] of refusals) {
    test(`${name}, no prompt, the agent stopped, exit code 1 (acp.md "How the run ends")`, async () => {
      const { run, log, sent } = agent(scenario);
      expect(bodies(await collect(run))).toEqual([
        error,
        {
          type: 'warning',
          code: 'incomplete',
          message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
        },
      ]);
      expect(sent()).toEqual([initialize, sessionNew()]);
      expect(log().at(-1)).toEqual({ end: true });
      // The agent exited 0 on its stdin's end: the conversation's ending decides the run's code.
      await expect(run.done).rejects.toMatchObject({
        name: 'HarnessRunError',
        reason: 'exit_code',
        exitCode: 1,
        isCanceled: false,
        metrics: { ended: false, exit_code: 1 },
      });
      expect(run.child!.exitCode).toBe(0);
    });
  }

  test(
    'a turn that ended with another stop reason (refusal): the ' +
      'stop-reason warning, no exit_code error, exit code 1',
    async () => {
      const { run } = agent('refuse');
      expect(bodies(await collect(run))).toEqual([
        { type: 'warning', code: 'refusal', message: 'ACP turn ended: refusal' },
      ]);
      await expect(run.done).rejects.toMatchObject({
        reason: 'exit_code',
        exitCode: 1,
        message: `the conversation with ${process.execPath} ended with exit code 1`,
        metrics: { exit_code: 1 },
      });
    },
  );

  test(
    'a turn that ended end_turn, whose agent ignores the end of its stdin (claude-agent-acp, codex-acp), gets ' +
      "SIGTERM after exitGraceMs: the library's own ending, so the run exits 0 and reports no signal",
    async () => {
      const { run, log } = agent('linger', { exitGraceMs: 50 });
      expect(bodies(await collect(run))).toEqual([{ type: 'agent', message: 'Done.' }]);
      const result = await run.done;
      expect(result).toMatchObject({
        failed: false,
        exitCode: 0,
        signal: undefined,
        metrics: { ended: true, is_error: false, exit_code: 0 },
      });
      expect(result.metrics.signal).toBeUndefined();
      // The report's outcome follows the metrics.
      expect(buildReport([], { metrics: result.metrics, cwd: dir }).summary).toMatchObject({
        exit: 'exit 0',
        outcome: 'succeeded',
      });
      // The agent really died of the client's SIGTERM.
      expect(run.child!.signalCode).toBe('SIGTERM');
      expect(log().at(-1)).toEqual({ end: true });
    },
  );
});

describe('known agents (the `agent` option)', { timeout: 30_000 }, () => {
  /** `name` on PATH runs the test agent, as the real CLI would be found. */
  const agentOnPath = (name: string) => onPath(dir, name, `exec "${process.execPath}" "${agentScript}" "$@"`);

  test(
    'agent: "copilot" with `permissions: "bypass"` runs `copilot --acp --no-auto-update --allow-all-tools` from ' +
      'PATH, without command or args',
    async () => {
      const { run, log } = agent('turn', {
        command: undefined,
        args: undefined,
        agent: 'copilot',
        permissions: 'bypass',
        env: agentOnPath('copilot'),
      });
      expect(bodies(await collect(run)).map((event) => event.type)).toEqual([
        'reasoning',
        'agent',
        'read',
        'command',
        'agent',
        'usage',
      ]);
      expect(log()[0]).toEqual({ argv: ['--acp', '--no-auto-update', '--allow-all-tools'] });
    },
  );

  test(
    'by default a preset leaves out its auto-approve flags and ' + "asks instead; `args` follow the preset's",
    async () => {
      const { run, log } = agent('turn', {
        command: undefined,
        args: ['--auth-type', 'openai'],
        agent: 'qwen',
        env: agentOnPath('qwen'),
      });
      await collect(run);
      expect(log()[0]).toEqual({ argv: ['--acp', '--approval-mode', 'default', '--auth-type', 'openai'] });
    },
  );

  test("`extraArgs` (as for the other harnesses), then `args`, follow the preset's", () => {
    expect(
      launch({
        harness: 'acp',
        agent: 'qwen',
        prompt,
        permissions: 'bypass',
        extraArgs: ['--auth-type', 'openai'],
        args: ['--debug'],
      }),
    ).toMatchObject({
      command: 'qwen',
      args: ['--acp', '--approval-mode', 'yolo', '--auth-type', 'openai', '--debug'],
    });
  });

  test("the presets are acp.md's launch table (with `permissions: 'bypass'`, as the page runs them)", () => {
    const commandLine = (agent: string) => {
      const { command, args } = launch({ harness: 'acp' as const, agent, prompt, permissions: 'bypass' as const });
      return [command, ...args!].join(' ');
    };
    expect(Object.fromEntries([...acpAgents.keys()].map((agent) => [agent, commandLine(agent)]))).toEqual({
      copilot: 'copilot --acp --no-auto-update --allow-all-tools',
      droid: 'droid exec -o acp',
      kilo: 'kilo acp',
      claude: 'claude-agent-acp',
      'claude-code': 'claude-code-acp',
      qwen: 'qwen --acp --approval-mode yolo',
      gemini: 'gemini --acp',
      opencode: 'opencode acp',
      goose: 'goose acp',
      crush: 'crush acp',
      auggie: 'auggie --acp',
      cursor: 'cursor-agent acp',
      codex: 'codex-acp -c approval_policy="never" -c sandbox_mode="danger-full-access"',
    });
    // The nine captured (test/fixtures/acp/LAB.md), with their versions.
    expect(
      Object.fromEntries(
        [...acpAgents].filter(([, agent]) => agent.captured).map(([name, agent]) => [name, agent.captured]),
      ),
    ).toEqual({
      copilot: '1.0.102',
      droid: '0.225.2',
      kilo: '7.7.7',
      claude: '0.23.1',
      'claude-code': '0.16.2',
      qwen: '0.24.4',
      gemini: '0.61.0',
      opencode: '1.18.33',
      codex: '0.16.0',
    });
  });

  test('options the run cannot go with are thrown before anything starts', () => {
    const run = (options: Partial<SpawnHarnessOptions>) => () =>
      spawnHarness({ harness: 'acp', command: process.execPath, prompt, ...options });
    expect(run({ prompt: undefined })).toThrow(new TypeError('acp: the prompt option is required (a string)'));
    expect(run({ command: undefined })).toThrow(new TypeError('acp: an agent (a known one) or a command is required'));
    expect(run({ agent: 'vim' })).toThrow(
      new RegExp(
        '^acp: unknown agent "vim" \\(known: copilot, droid, kilo, claude, claude-code, qwen, gemini, opencode, ' +
          'goose, crush, auggie, cursor, codex\\)',
      ),
    );
    expect(run({ permissions: 'plan' })).toThrow(
      new TypeError(
        'acp: permissions must be "default" (reject the agent\'s requests), "bypass" (allow them) or "ask" ' +
          '(onPermission decides), got "plan"',
      ),
    );
    expect(run({ permissions: 'maybe' as 'plan' })).toThrow(
      new TypeError(
        'spawnHarness: permissions must be one of "default", "read-only", "plan", "bypass", "ask", got "maybe"',
      ),
    );
    expect(run({ cancelGraceMs: Number.NaN })).toThrow(
      new RangeError('cancelGraceMs must be a whole number of milliseconds from 0 to 2147483647, got NaN'),
    );
    // Past a timer's range the delay would be 1 ms; 0 is a grace of none, as spawnHarness's own killGraceMs.
    expect(run({ handshakeTimeoutMs: 3_000_000_000 })).toThrow(
      new RangeError('handshakeTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 3000000000'),
    );
    expect(run({ exitGraceMs: 2 ** 31 })).toThrow(/^exitGraceMs must be a whole number of milliseconds from 0 /);
  });
});
