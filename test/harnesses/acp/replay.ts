/**
 * A lab capture played back live to the library's client (test/children/acp-replay.mjs): the run, and the file where
 * every line the client wrote is logged. What the replay test and the refusals test share.
 */
import { join } from 'node:path';
import type { Permissions } from '../../../lib/kernel/permissions.js';
import { spawnHarness, type SpawnHarnessOptions } from '../../../lib/runtime/run/spawn.js';
import { acpLabRequests, fixturePath } from '../../helpers.js';

const replay = new URL('../../children/acp-replay.mjs', import.meta.url).pathname;

/**
 * Replays `file` (a fixture path) in `dir`, answering the agent's permission requests as `permissions` says (`more`:
 * the options beside, `onPermission` when asking).
 */
export function replayToClient(
  file: string,
  dir: string,
  permissions: Permissions,
  more: Partial<SpawnHarnessOptions> = {},
) {
  const log = join(dir, file.replaceAll('/', '_') + '.log');
  const run = spawnHarness({
    harness: 'acp',
    command: process.execPath,
    args: [replay, fixturePath(file), log],
    cwd: dir,
    ...acpLabRequests(fixturePath(file)),
    permissions,
    idleFlushMs: 60_000,
    ...more,
  });
  return { run, log };
}
