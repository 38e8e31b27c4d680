/**
 * gemini.md "What ends a run", with real child processes (test/children/*.mjs): a capture
 * replayed with the exit code the CLI had, and a CLI that fails before its stream starts.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { spawnHarness, type HarnessRun } from '../../../lib/runtime/run/spawn.js';
import { bodies, fixturePath, runFixture, settled } from '../../helpers.js';

const children = new URL('../../children/', import.meta.url).pathname;
const node = process.execPath;

async function collect(run: HarnessRun): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

test(
  'an API error: the result is the error, and the exit ' + 'code (HTTP 400 mod 256 = 144) is reported on its own',
  async () => {
    const file = 'gemini/lab/error-http-400.jsonl';
    const expected = bodies((await runFixture(file, { harness: 'gemini' })).events);
    const run = spawnHarness({
      harness: 'gemini',
      command: node,
      args: [join(children, 'replay.mjs'), fixturePath(file), '5', '144'],
    });
    expect(bodies(await collect(run))).toEqual([
      ...expected,
      { type: 'error', code: 'exit_code', message: `${node} exited with code 144` },
    ]);
    expect(expected.map((event) => event.type)).toEqual(['error']);
    expect((await settled(run)).metrics).toMatchObject({
      harness: 'gemini',
      ended: true,
      is_error: true,
      exit_code: 144,
    });
  },
);

test('an invalid stream ends in error with exit code 0: no exit_code error', async () => {
  const file = 'gemini/lab/empty-response.jsonl';
  const run = spawnHarness({
    harness: 'gemini',
    command: node,
    args: [join(children, 'replay.mjs'), fixturePath(file), '5', '0'],
  });
  expect(bodies(await collect(run))).toEqual([
    {
      type: 'error',
      message:
        'The model returned an empty response with no text or thoughts. This may be a transient API issue; please ' +
        'try again.',
    },
  ]);
  expect((await settled(run)).metrics).toMatchObject({ ended: true, is_error: true, exit_code: 0 });
});

test(
  'an error before the stream starts writes no line: ' + 'stderr and the exit code tell, and the run is incomplete',
  async () => {
    const steps = [
      { err: 'When using Gemini API, you must specify the GEMINI_API_KEY environment variable.\n' },
      { exit: 41 },
    ];
    const run = spawnHarness({
      harness: 'gemini',
      command: node,
      args: [join(children, 'script.mjs'), JSON.stringify(steps)],
    });
    expect(bodies(await collect(run))).toEqual([
      {
        type: 'warning',
        code: 'stderr',
        message: 'When using Gemini API, you must specify the GEMINI_API_KEY environment variable.',
      },
      {
        type: 'warning',
        code: 'incomplete',
        message: 'gemini ended without its terminal record (result): the run is incomplete',
      },
      { type: 'error', code: 'exit_code', message: `${node} exited with code 41` },
    ]);
    expect((await settled(run)).metrics).toMatchObject({ ended: false, exit_code: 41, tokens: {} });
  },
);
