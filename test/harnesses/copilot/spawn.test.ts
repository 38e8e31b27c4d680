/**
 * Copilot CLI's captures (test/fixtures/copilot/lab/) replayed by a child process that spawnHarness runs: the
 * events of the file, then what the exit code adds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { spawnHarness, type HarnessRun } from '../../../lib/runtime/run/spawn.js';
import { bodies, fixturePath, runFixture, settled } from '../../helpers.js';

const harness = 'copilot';

describe('spawned (spawnHarness with a child replaying a capture)', () => {
  const children = new URL('../../children/', import.meta.url).pathname;

  async function collect(run: HarnessRun): Promise<HarnessEvent[]> {
    const events: HarnessEvent[] = [];
    for await (const event of run) events.push(event);
    return events;
  }

  test(
    "api-401 with exit code 1: the events of the file, then the exit code as the library's own error; the " +
      'result line ended the run',
    async () => {
      const file = 'copilot/lab/api-401.jsonl';
      const expected = bodies((await runFixture(file, { harness })).events);
      // No cwd: the child runs here (the lab's /home/user/project does not exist); these runs name no path.
      const run = spawnHarness({
        harness,
        command: process.execPath,
        args: [join(children, 'replay.mjs'), fixturePath(file), '0', '1'],
      });
      const events = await collect(run);
      expect(bodies(events)).toEqual([
        ...expected,
        { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
      ]);
      expect((await settled(run)).metrics).toMatchObject({
        harness,
        session_id: 'f314103e-d851-451f-b58b-b1b43978ef63',
        ended: true,
        exit_code: 1,
        is_error: true,
      });
    },
  );

  test('a run cut before its result line (killed) is incomplete: a warning, and no session id', async () => {
    const lines = readFileSync(fixturePath('copilot/lab/text.jsonl'), 'utf8').split(/(?<=\n)/);
    const steps = [{ out: lines.slice(0, -1).join('') }, { kill: 'SIGKILL' }];
    const run = spawnHarness({
      harness,
      command: process.execPath,
      args: [join(children, 'script.mjs'), JSON.stringify(steps)],
    });
    const events = await collect(run);
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Hello from the lab. The answer is 42.' },
      {
        type: 'warning',
        code: 'incomplete',
        message: 'copilot ended without its terminal record (result): the run is incomplete',
      },
      { type: 'error', code: 'killed', message: `${process.execPath} was killed by SIGKILL` },
    ]);
    expect((await settled(run)).metrics).toMatchObject({ ended: false, signal: 'SIGKILL' });
    expect((await settled(run)).metrics.session_id).toBeUndefined();
  });
});
