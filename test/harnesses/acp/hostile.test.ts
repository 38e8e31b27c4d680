/**
 * Issue 30 items 5 and 9: ACP agents that cannot or will not finish the turn end it within a bounded time with an error
 * naming what they failed to do, and an agent that asks without reading the answers cannot make the client hold them.
 * A real agent process (test/children/acp-hostile.mjs) that stays running after it misbehaves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import type { AcpRunOptions } from '../../../lib/runtime/run/spawn-options.js';
import { MAX_UNREAD_ANSWER_BYTES } from '../../../lib/harnesses/acp/client.js';
import { bodies } from '../../helpers.js';

const hostileAgent = new URL('../../children/acp-hostile.mjs', import.meta.url).pathname;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acp-hostile-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hostile(scenario: string, env: Record<string, string> = {}, options: Partial<AcpRunOptions> = {}) {
  const run = spawnHarness({
    harness: 'acp',
    command: process.execPath,
    args: [hostileAgent],
    cwd: dir,
    prompt: 'Go.',
    // Short graces: the agent ignores the end of its input, and SIGTERM ends it.
    exitGraceMs: 50,
    killGraceMs: 50,
    idleFlushMs: 60_000,
    reject: false,
    ...options,
    env: { ...process.env, ACP_HOSTILE: scenario, ...env },
  });
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.done, run };
}

const problems = (events: HarnessEvent[]) =>
  bodies(events).filter((event) => event.type === 'error' || event.type === 'warning');
/** Every such run ends without the prompt's answer, which the metrics say too. */
const incomplete = {
  type: 'warning',
  code: 'incomplete',
  message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
};

describe('issue 30 item 5: an agent that cannot finish the turn ends it, with an error saying why', () => {
  test('never answers initialize: ends after handshakeTimeoutMs', async () => {
    const { events, result } = await hostile('mute', {}, { handshakeTimeoutMs: 200 });
    expect(problems(events)).toEqual([
      { type: 'error', code: 'protocol_error', message: 'the ACP agent did not answer initialize within 200 ms' },
      incomplete,
    ]);
    // The client ended the agent (acp.md "How the run ends"): exit 1, no signal of the run's.
    expect(result).toMatchObject({ exitCode: 1, signal: undefined });
  });

  test('answers initialize with the id as a string: ends at once', async () => {
    const { events, result } = await hostile('string-id');
    expect(problems(events)).toEqual([
      {
        type: 'error',
        code: 'protocol_error',
        message: 'the ACP agent answered with id "1", which no request has (initialize has id 1)',
      },
      incomplete,
    ]);
    // The client ended the agent (acp.md "How the run ends"): exit 1, no signal of the run's.
    expect(result).toMatchObject({ exitCode: 1, signal: undefined });
  });

  test('closes its stdout on the prompt and stays: ends after exitGraceMs', async () => {
    const { events, result } = await hostile('closed');
    expect(problems(events)).toEqual([
      {
        type: 'error',
        code: 'protocol_error',
        message: 'the ACP agent closed its stdout before answering session/prompt and did not exit',
      },
      incomplete,
    ]);
    // The client ended the agent (acp.md "How the run ends"): exit 1, no signal of the run's.
    expect(result).toMatchObject({ exitCode: 1, signal: undefined });
  });

  test('answers the prompt with a line past maxLineBytes: the line is a warning, the run ends', async () => {
    const { events, result } = await hostile('long-answer', { ACP_HOSTILE_BYTES: '5000' }, { maxLineBytes: 4096 });
    expect(problems(events)).toEqual([
      {
        type: 'warning',
        code: 'line_too_long',
        message: 'line 3 is 5068 bytes long (maxLineBytes is 4096); its content was skipped',
      },
      {
        type: 'error',
        code: 'protocol_error',
        message:
          'the ACP agent wrote a line longer than maxLineBytes while session/prompt awaited its answer (it may ' +
          'have been it)',
      },
      incomplete,
    ]);
    // The client ended the agent (acp.md "How the run ends"): exit 1, no signal of the run's.
    expect(result).toMatchObject({ exitCode: 1, signal: undefined });
  });
});

describe('issue 30 item 9: an agent that asks and never reads cannot make the client hold the answers', () => {
  test('5,000 requests with 1 KB method names, none read: at most 1 MiB of answers held, one warning', async () => {
    const run = spawnHarness({
      harness: 'acp',
      command: process.execPath,
      args: [hostileAgent],
      cwd: dir,
      prompt: 'Go.',
      exitGraceMs: 50,
      killGraceMs: 50,
      cancelGraceMs: 50,
      reject: false,
      env: { ...process.env, ACP_HOSTILE: 'flood', ACP_HOSTILE_REQUESTS: '5000', ACP_HOSTILE_METHOD_BYTES: '1000' },
    });
    const problems: HarnessEvent[] = [];
    let held = -1;
    for await (const event of run) {
      if (event.type !== 'warning' && event.type !== 'error') continue;
      problems.push(event);
      // The agent has sent every request (and answered session/new): what the client holds for it now.
      if (event.type === 'warning' && event.code === 'stderr' && event.message === 'flooded') {
        held = run.child!.stdin!.writableLength;
        run.stop();
      }
    }
    await run.done;
    // The answer that crossed the bound is the last one written: each is ~300 bytes with the method cut to 200.
    expect(held).toBeGreaterThan(MAX_UNREAD_ANSWER_BYTES);
    expect(held).toBeLessThan(MAX_UNREAD_ANSWER_BYTES + 1000);
    expect(bodies(problems).filter((event) => event.code === 'protocol_error')).toEqual([
      {
        type: 'warning',
        code: 'protocol_error',
        message: expect.stringMatching(
          new RegExp(
            '^the ACP agent is not reading its stdin \\(\\d+ bytes of answers unread\\): ' +
              'its requests go unanswered until it reads$',
          ),
        ),
      },
    ]);
  });
});
