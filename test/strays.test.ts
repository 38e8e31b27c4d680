/**
 * What a harness starts outside its process group (Cline runs each command in a session of its
 * own): a signal to the group misses it, so stopping a run ends it too, found from the child's
 * process tree while the child still runs.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnHarness } from '../lib/runtime/run/spawn.js';
import { alive, gone, groupOf } from './processes.js';

const children = new URL('./children/', import.meta.url).pathname;

test(
  'a stopped run ends the grandchild its child started in a session of ' + 'its own, after SIGTERM then SIGKILL',
  async () => {
    const run = spawnHarness({
      harness: 'gg',
      reject: false,
      command: process.execPath,
      args: [
        join(children, 'script.mjs'),
        JSON.stringify([{ ignore: 'SIGTERM' }, { spawn: ['sleep', '300'], detached: true }, { hang: true }]),
      ],
      killGraceMs: 200,
    });
    let grandchild: number | undefined;
    for await (const event of run) {
      if (event.type !== 'gg') continue;
      grandchild = (event.event as { pid: number }).pid;
      // The handshake: the grandchild runs, outside the child's group.
      expect(alive(grandchild)).toBe(true);
      expect(groupOf(grandchild)).not.toBe(groupOf(run.child!.pid!));
      run.stop();
    }
    const result = await run.done;
    expect(result).toMatchObject({ isCanceled: true, signal: 'SIGKILL' });
    expect(await gone(grandchild!)).toBe(true);
  },
);
