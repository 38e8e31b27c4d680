/**
 * The client against real traffic: each lab capture's stdout played back live, in step with the
 * client (test/children/acp-replay.mjs). The library must send what the lab's client sent
 * (`NAME.client.jsonl`: the same requests, ids, answers and cancel), and the live run must give
 * the events the saved stdout gives, ending cleanly.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import type { HarnessRunError } from '../../../lib/runtime/run/errors.js';
import { bodies, fixtureFiles, fixturePath, runFixture } from '../../helpers.js';
import { protocolErrors } from './protocol.js';
import { replayToClient } from './replay.js';

const dir = mkdtempSync(join(tmpdir(), 'acp-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

/** What differs between the lab's client and this run by design: the working directory and our version. */
function asInTheLab(message: Record<string, unknown>): Record<string, unknown> {
  const params = message.params as Record<string, unknown> | undefined;
  if (message.method === 'session/new') return { ...message, params: { ...params, cwd: '/home/user/project' } };
  if (message.method === 'initialize')
    return { ...message, params: { ...params, clientInfo: { name: 'harness-events', version: '0.0.0' } } };
  return message;
}

describe('every lab capture, replayed live to the client', { timeout: 30_000 }, () => {
  for (const file of fixtureFiles('acp')) {
    test(`${file}: the client sends what the lab's client sent, and the events are the saved stream's`, async () => {
      const refusing = file.endsWith('/permission-default.jsonl');
      const expectedClient = lines(fixturePath(file.replace(/\.jsonl$/, '.client.jsonl')));
      // The lab's client allowed every permission request; the live suite's defaults round left them to the default.
      const { run, log } = replayToClient(file, dir, refusing ? 'default' : 'bypass');
      const cancels = file.endsWith('/cancel.jsonl');
      const events: HarnessEvent[] = [];
      for await (const event of run) {
        events.push(event);
        // The lab's client cancelled while the slow build ran: the tool call has flushed the first message.
        if (cancels && event.type === 'agent') run.stop();
      }
      // The rejections' warnings are the client's (test/harnesses/refusals.test.ts): the saved stream has the rest.
      expect(bodies(events).filter((event) => event.code !== 'permission_denied')).toEqual(
        bodies((await runFixture(file, { harness: 'acp', cwd: dir })).events),
      );
      const sent = lines(log);
      for (const message of sent) expect(protocolErrors(message), JSON.stringify(message)).toBe('');
      expect(sent.map(asInTheLab)).toEqual(expectedClient);
      // acp.md "How the run ends": end_turn 0; cancelled after the abort 130, which rejects as every abort does.
      const result = await run.done.catch((error: HarnessRunError) => error);
      if (refusing) return;
      expect(result).toMatchObject({
        failed: cancels,
        exitCode: cancels ? 130 : 0,
        isCanceled: cancels,
        metrics: { ended: true },
      });
    });
  }
});
