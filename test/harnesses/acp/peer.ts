/**
 * The real peer the client tests (client, requests, abort) run against: a small ACP agent run as a child process
 * (test/children/acp-agent.mjs) that logs every message it receives, the end of its input and the signals it gets,
 * and the messages the library is expected to send it. Every message the client wrote is checked against the
 * official ACP schema (protocol.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { spawnHarness, type HarnessRun, type SpawnHarnessOptions } from '../../../lib/runtime/run/spawn.js';
import { protocolErrors } from './protocol.js';

export const agentScript = new URL('../../children/acp-agent.mjs', import.meta.url).pathname;
const version = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version as string;
export const prompt = 'Clean the build.';

/** The working directory of the running test: fresh for each test of a file that calls `freshDirEachTest()`. */
export let dir: string;
export function freshDirEachTest() {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'acp-client-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
}

type LogEntry = { argv?: string[]; received?: Record<string, unknown>; end?: true; signal?: string };

/** The test agent playing `scenario`, run through spawnHarness; `log()` is what it saw. */
export function agent(scenario: string, options: Partial<SpawnHarnessOptions> = {}) {
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

export async function collect(
  run: HarnessRun,
  onEvent: (event: HarnessEvent) => void = () => {},
): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) {
    events.push(event);
    onEvent(event);
  }
  return events;
}

export const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: 'harness-events', version },
  },
};
export const sessionNew = () => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'session/new',
  params: { cwd: dir, mcpServers: [] },
});
export const promptRequest = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/prompt',
  params: { sessionId: 'sess-1', prompt: [{ type: 'text', text: prompt }] },
});
