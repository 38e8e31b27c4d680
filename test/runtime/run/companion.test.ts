/**
 * spawnHarness joins a Codex run's rollout (docs/harnesses/codex.md "Runs: stdout and the rollout"): a real child
 * (test/children/codex-rollout.mjs) replays the exec default capture (test/fixtures/codex/transcripts/workdir/) as
 * Codex wrote it, stdout and the rollout under CODEX_HOME; the calls no item reports come from the rollout, once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { bodies, fixturePath } from '../../helpers.js';
import { children, collect, node } from './scripted-child.js';
import { escalated, patched, sandboxFailed } from '../../harnesses/codex/main-turns.js';

const scenario = fixturePath('codex/transcripts/workdir');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function run(mode?: 'ephemeral', env: NodeJS.ProcessEnv = {}) {
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  dirs.push(home);
  return spawnHarness({
    harness: 'codex',
    command: node,
    args: [join(children, 'codex-rollout.mjs'), scenario, ...(mode ? [mode] : [])],
    cwd: tmpdir(),
    env: { CODEX_HOME: home, ...env },
  });
}

const refusals = (events: Record<string, unknown>[]) => events.filter((event) => event.code === 'permission_denied');

describe('spawnHarness({ harness: "codex" }) with its rollout', () => {
  test('stdout leads; every call stdout lacks comes from the rollout once, its refusal once (stderr)', async () => {
    const started = run();
    const stamped = await collect(started);
    const events = bodies(stamped);
    await started.done;
    expect(new Set(stamped.map((event) => event.session_id))).toEqual(
      new Set(['01a244bf-4d50-7770-8b13-7232e24d1315']),
    );
    // From stdout, as before: its items only (no working directory: stdout never says one).
    expect(events.filter((event) => event.type === 'command' && event.working_directory === undefined)).toEqual([
      { type: 'command', command: 'pwd && cat guide.md', exit_code: 0, is_success: true },
    ]);
    // From the rollout: the refused patches, the sandbox-failed command and the refused escalations, in its order.
    const joined = events.filter((event) => event.type === 'write' || event.working_directory !== undefined);
    expect(joined).toEqual([
      patched('declined', false),
      patched('accepted', false),
      sandboxFailed,
      escalated('declined', { is_success: false }),
      escalated('accepted', { is_success: false }),
    ]);
    expect(refusals(events)).toHaveLength(4);
    expect(events.filter((event) => event.type === 'search')).toHaveLength(1);
    expect(started.metrics.events).toMatchObject({ write: 2, command: 4, search: 1, agent: 2, usage: 1 });
    expect(started.metrics.permission_denials).toBe(4);
  });

  test('no rollout (an ephemeral run): one warning, the events are stdout alone', async () => {
    const started = run('ephemeral');
    const events = bodies(await collect(started));
    await started.done;
    const thread = '01a244bf-4d50-7770-8b13-7232e24d1315';
    expect(events.filter((event) => event.type === 'warning' && event.code === undefined)).toEqual([
      {
        type: 'warning',
        message:
          `no rollout for ${thread} was found (an ephemeral run, or its home not writable): ` +
          'the events are its stdout alone',
      },
    ]);
    expect(events.filter((event) => event.type === 'write' || event.working_directory !== undefined)).toEqual([]);
    expect(refusals(events)).toHaveLength(4);
  });

  test('a long run without a rollout: the search waits with one abort listener, never piling them up', async () => {
    // 1.5 s of polls every 100 ms: with a listener left per poll, Node warns past 10 (MaxListenersExceededWarning).
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const started = run('ephemeral', { LINGER_MS: '1500' });
      await collect(started);
      await started.done;
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});
