/**
 * pi run live through spawnHarness, by a real child that replays the lab's retry capture: the
 * assistant error waits for pi's decision across a pause longer than the idle flush and a
 * stderr line, as it does while pi waits before retrying.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, fixturePath } from '../../helpers.js';

const children = new URL('../../children/', import.meta.url).pathname;

test(
  'retry.jsonl live: a pause and a stderr line after agent_end do not release the held error; auto_retry_start ' +
    'makes it a warning',
  async () => {
    const lines = readFileSync(fixturePath('pi/lab/retry.jsonl'), 'utf8').split(/(?<=\n)/);
    // Lines 1-9 end with the failed run's agent_end; line 10 is auto_retry_start.
    expect(JSON.parse(lines[8]!).type).toBe('agent_end');
    expect(JSON.parse(lines[9]!).type).toBe('auto_retry_start');
    // The rest is written once the stderr line has been read (a go-ahead on stdin), after a pause longer than the idle
    // flush.
    const steps = [
      { out: lines.slice(0, 9).join('') },
      { err: 'Retrying in 2s\n' },
      { wait: true },
      { sleep: 400 },
      { out: lines.slice(9).join('') },
    ];
    const run = spawnHarness({
      harness: 'pi',
      stdin: 'pipe',
      command: process.execPath,
      args: [join(children, 'script.mjs'), JSON.stringify(steps)],
    });
    const events: HarnessEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'warning' && event.code === 'stderr') run.child!.stdin!.write('go\n');
    }
    expect(bodies(events)).toEqual([
      { type: 'warning', code: 'stderr', message: 'Retrying in 2s' },
      { type: 'warning', message: '503 Service temporarily unavailable', code: 'auto_retry' },
      { type: 'agent', message: 'Hello!' },
      { type: 'usage', tokens: { input: 2000, output: 3, cache_read: 0, cache_write: 0 }, cost: 0.002006 },
    ]);
    expect(await run.done).toMatchObject({
      exitCode: 0,
      metrics: { harness: 'pi', ended: true, is_error: false, final_output: 'Hello!' },
    });
  },
);
