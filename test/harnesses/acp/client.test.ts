/**
 * The library as an ACP client (acp.md "The client side"), against a real peer: a small ACP agent
 * run as a child process (test/children/acp-agent.mjs) that logs every message it receives, the end
 * of its input and the signals it gets. Each test names the row of the page's tables it covers.
 * Every message the client wrote is checked against the official ACP schema (protocol.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { acpAgents, launch } from '../../../lib/harnesses/acp/agents.js';
import { permissionAnswer } from '../../../lib/harnesses/acp/client.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { spawnHarness, type HarnessRun, type SpawnHarnessOptions } from '../../../lib/runtime/run/spawn.js';
import { bodies, onPath } from '../../helpers.js';
import { buildReport } from '../../../lib/interfaces/report/index.js';
import { protocolErrors } from './protocol.js';

const agentScript = new URL('../../children/acp-agent.mjs', import.meta.url).pathname;
const version = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version as string;
const prompt = 'Clean the build.';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-client-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type LogEntry = { argv?: string[]; received?: Record<string, unknown>; end?: true; signal?: string };

/** The test agent playing `scenario`, run through spawnHarness; `log()` is what it saw. */
function agent(scenario: string, options: Partial<SpawnHarnessOptions> = {}) {
  const logFile = join(dir, 'agent.log');
  const run = spawnHarness({
    harness: 'acp',
    command: process.execPath,
    args: [agentScript],
    cwd: dir,
    prompt,
    // No pause in these runs may split a span: the idle flush is for agents that stall.
    idleFlushMs: 60_000,
    ...options,
    env: { ...process.env, ACP_AGENT_SCENARIO: scenario, ACP_AGENT_LOG: logFile, ...options.env },
  });
  const log = (): LogEntry[] =>
    readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  /** Every message the client sent, each checked against the ACP schema. */
  const sent = () => {
    const messages = log().flatMap((entry) => (entry.received ? [entry.received] : []));
    for (const message of messages) expect(protocolErrors(message), JSON.stringify(message)).toBe('');
    return messages;
  };
  return { run, log, sent };
}

async function collect(run: HarnessRun, onEvent: (event: HarnessEvent) => void = () => {}): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) {
    events.push(event);
    onEvent(event);
  }
  return events;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: 'harness-events', version },
  },
};
const sessionNew = () => ({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: dir, mcpServers: [] } });
const promptRequest = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/prompt',
  params: { sessionId: 'sess-1', prompt: [{ type: 'text', text: prompt }] },
});

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

  test('a turn that ended with another stop reason (refusal): the stop-reason warning, no exit_code error, exit code 1', async () => {
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
  });

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

describe('requests from the agent', { timeout: 30_000 }, () => {
  test(
    'session/request_permission with `permissions: "bypass"`: the first allow_once option, not the allow_always ' +
      'before it',
    async () => {
      const { run, sent } = agent('turn', { permissions: 'bypass' });
      await collect(run);
      expect(sent().at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 100,
        result: { outcome: { outcome: 'selected', optionId: 'once' } },
      });
    },
  );

  test(
    'session/request_permission by default (no permissions option): the reject_once option, and the agent fails ' +
      'the call',
    async () => {
      const { run, sent } = agent('turn');
      const events = bodies(await collect(run));
      expect(events.slice(3, 6)).toEqual([
        // docs/contract.md "Refused tool calls": the rejection is a warning; the agent then fails the call.
        {
          type: 'warning',
          code: 'permission_denied',
          message: 'Permission denied: rm -rf build: permissions "default": the library chose no',
        },
        { type: 'command', command: 'rm -rf build', is_success: false },
        { type: 'agent', message: 'permission: {"outcome":{"outcome":"selected","optionId":"no"}}' },
      ]);
      expect(sent().at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 100,
        result: { outcome: { outcome: 'selected', optionId: 'no' } },
      });
    },
  );

  test(
    'the permission answer: allow_once, else allow_always; reject_once, else reject_always; no such option, or ' +
      'after an abort: cancelled',
    () => {
      const option = (kind: string) => ({ optionId: `id-${kind}`, name: kind, kind });
      const all = ['allow_always', 'allow_once', 'reject_always', 'reject_once'].map(option);
      expect(permissionAnswer(all, 'bypass')).toEqual({ outcome: { outcome: 'selected', optionId: 'id-allow_once' } });
      expect(permissionAnswer([option('allow_always'), option('reject_once')], 'bypass')).toEqual({
        outcome: { outcome: 'selected', optionId: 'id-allow_always' },
      });
      expect(permissionAnswer(all, 'default')).toEqual({
        outcome: { outcome: 'selected', optionId: 'id-reject_once' },
      });
      expect(permissionAnswer([option('reject_always'), option('allow_once')], 'default')).toEqual({
        outcome: { outcome: 'selected', optionId: 'id-reject_always' },
      });
      expect(permissionAnswer([option('reject_once')], 'bypass')).toEqual({ outcome: { outcome: 'cancelled' } });
      expect(permissionAnswer(all, 'bypass', true)).toEqual({ outcome: { outcome: 'cancelled' } });
      // Options the agent got wrong: not an array, an option without an id.
      expect(permissionAnswer(undefined, 'bypass')).toEqual({ outcome: { outcome: 'cancelled' } });
      expect(permissionAnswer([{ kind: 'allow_once' }], 'bypass')).toEqual({ outcome: { outcome: 'cancelled' } });
    },
  );

  test(
    'fs/*, terminal/* and an extension method: error -32601 "Method not found"; the agent broke the protocol ' +
      'with fs and terminal, so those are unknown events',
    async () => {
      const { run, sent } = agent('fs');
      const notFound = (method: string) => ({ code: -32601, message: `Method not found: ${method}` });
      expect(bodies(await collect(run))).toEqual([
        {
          type: 'unknown',
          raw: {
            jsonrpc: '2.0',
            id: 200,
            method: 'fs/read_text_file',
            params: { sessionId: 'sess-1', path: '/etc/hostname' },
          },
        },
        {
          type: 'unknown',
          raw: { jsonrpc: '2.0', id: 201, method: 'terminal/create', params: { sessionId: 'sess-1', command: 'ls' } },
        },
        // The extension request is consumed: it carries no activity the contract knows.
        {
          type: 'agent',
          message: `answers: ${JSON.stringify(['fs/read_text_file', 'terminal/create', '_acme/ping'].map(notFound))}`,
        },
      ]);
      expect(sent().slice(3)).toEqual([
        { jsonrpc: '2.0', id: 200, error: notFound('fs/read_text_file') },
        { jsonrpc: '2.0', id: 201, error: notFound('terminal/create') },
        { jsonrpc: '2.0', id: 202, error: notFound('_acme/ping') },
      ]);
    },
  );
});

describe('abort', { timeout: 30_000 }, () => {
  test(
    "session/cancel, a permission asked after it answered cancelled, and the events go on to the agent's " +
      '`cancelled` answer',
    async () => {
      const controller = new AbortController();
      const { run, log, sent } = agent('cancel', { signal: controller.signal });
      const events = await collect(run, (event) => event.type === 'agent' && controller.abort());
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Starting the slow build.' },
        { type: 'agent', message: 'after the cancel: {"outcome":{"outcome":"cancelled"}}' },
        { type: 'command', command: 'sleep 30 && echo built' },
        { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
      ]);
      expect(sent().slice(3)).toEqual([
        { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } },
        { jsonrpc: '2.0', id: 300, result: { outcome: { outcome: 'cancelled' } } },
      ]);
      expect(log().at(-1)).toEqual({ end: true });
      // `cancelled` after the caller's abort: 130, whatever the agent exits with.
      await expect(run.done).rejects.toMatchObject({
        reason: 'aborted',
        isCanceled: true,
        exitCode: 130,
        metrics: { ended: true, is_error: true, exit_code: 130 },
      });
    },
  );

  test(
    'an agent that ignores session/cancel, its stdin closing and SIGTERM is killed after the graces: SIGTERM, ' +
      'then SIGKILL',
    async () => {
      const { run } = agent('deaf', { cancelGraceMs: 50, exitGraceMs: 50, killGraceMs: 50 });
      // What the client did, in order, seen where it does it (the agent's own log would need the agent to be
      // scheduled within the graces, which a loaded machine does not promise): its writes to the agent's stdin and
      // the signals to its group, both passed on unchanged.
      const steps: string[] = [];
      const stdin = run.child!.stdin!;
      const write = stdin.write.bind(stdin) as (chunk: string) => boolean;
      const end = stdin.end.bind(stdin) as () => void;
      stdin.write = ((chunk: string) => (steps.push(JSON.parse(chunk).method ?? 'answer'), write(chunk))) as never;
      stdin.end = (() => (steps.push('end'), end())) as never;
      const kill = vi.spyOn(process, 'kill');
      try {
        // From the stop on: the handshake and the prompt went before.
        const events = await collect(run, (event) => event.type === 'agent' && (steps.splice(0), run.stop()));
        expect(bodies(events)).toEqual([
          { type: 'agent', message: 'Starting the slow build.' },
          // The end of input: the call never finished.
          { type: 'command', command: 'sleep 30 && echo built' },
          {
            type: 'warning',
            code: 'incomplete',
            message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
          },
        ]);
        // No answer within the cancel grace: 130, and the client's own SIGKILL is not the run's signal.
        await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, exitCode: 130 });
        expect(run.metrics.signal).toBeUndefined();
        expect(run.child!.signalCode).toBe('SIGKILL');
        const group = -run.child!.pid!;
        for (const [pid, signal] of kill.mock.calls) if (pid === group && signal !== 0) steps.push(String(signal));
        expect(steps).toEqual(['session/cancel', 'end', 'SIGTERM', 'SIGKILL']);
      } finally {
        kill.mockRestore();
      }
    },
  );

  test(
    'an abort before the session exists (session/new unanswered): nothing to cancel, the agent is stopped at ' + 'once',
    async () => {
      const controller = new AbortController();
      const { run, log, sent } = agent('hang', { signal: controller.signal });
      const events = await collect(
        run,
        (event) => event.type === 'warning' && event.code === 'stderr' && controller.abort(),
      );
      expect(bodies(events)).toEqual([
        { type: 'warning', code: 'stderr', message: 'waiting for a session' },
        {
          type: 'warning',
          code: 'incomplete',
          message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
        },
      ]);
      expect(sent()).toEqual([initialize, sessionNew()]);
      expect(log().at(-1)).toEqual({ end: true });
      await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, exitCode: 130 });
    },
  );

  test('leaving the stream (break in for await) cancels the turn the same way, and the agent is gone', async () => {
    const { run, sent } = agent('cancel');
    for await (const event of run) if (event.type === 'agent') break;
    await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, exitCode: 130 });
    expect(sent()[3]).toEqual({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } });
    expect(run.child!.exitCode).toBe(0);
  });
});

test(
  'an agent that exits mid-turn ends the stream: the open call unfinished, its stderr, incomplete, its exit code',
  { timeout: 30_000 },
  async () => {
    const { run } = agent('crash');
    const events = bodies(await collect(run));
    expect(events.filter((event) => event.code !== 'stderr')).toEqual([
      { type: 'agent', message: 'Working.' },
      { type: 'command', command: 'make' },
      {
        type: 'warning',
        code: 'incomplete',
        message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
      },
      { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 3` },
    ]);
    expect(events).toContainEqual({ type: 'warning', code: 'stderr', message: 'agent crashed' });
    // The agent's own exit before any ending of the conversation's: its own code.
    await expect(run.done).rejects.toMatchObject({ reason: 'exit_code', exitCode: 3, metrics: { ended: false } });
  },
);

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

  test("by default a preset leaves out its auto-approve flags and asks instead; `args` follow the preset's", async () => {
    const { run, log } = agent('turn', {
      command: undefined,
      args: ['--auth-type', 'openai'],
      agent: 'qwen',
      env: agentOnPath('qwen'),
    });
    await collect(run);
    expect(log()[0]).toEqual({ argv: ['--acp', '--approval-mode', 'default', '--auth-type', 'openai'] });
  });

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
      /^acp: unknown agent "vim" \(known: copilot, droid, kilo, claude, claude-code, qwen, gemini, opencode, goose, crush, auggie, cursor, codex\)/,
    );
    expect(run({ permissions: 'plan' })).toThrow(
      new TypeError(
        'acp: permissions must be "default" (reject the agent\'s requests) or "bypass" (allow them), got "plan"',
      ),
    );
    expect(run({ permissions: 'maybe' as 'plan' })).toThrow(
      new TypeError('spawnHarness: permissions must be one of "default", "read-only", "plan", "bypass", got "maybe"'),
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
