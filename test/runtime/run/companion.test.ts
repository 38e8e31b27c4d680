/**
 * spawnHarness joins a Codex run's rollout (docs/harnesses/codex.md "Runs: stdout and the rollout"): a real child
 * (test/children/codex-rollout.mjs) replays the exec default capture (test/fixtures/codex/transcripts/workdir/) as
 * Codex wrote it, stdout and the rollout under CODEX_HOME; the calls no item reports come from the rollout, once.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import { bodies, fixturePath } from '../../helpers.js';
import { children, collect, node } from './scripted-child.js';
import { escalated, patched, project, sandboxFailed } from '../../harnesses/codex/main-turns.js';

const scenario = fixturePath('codex/transcripts/workdir');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function run(mode?: 'ephemeral', env: NodeJS.ProcessEnv = {}, options: { from?: string; maxLineBytes?: number } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'codex-home-'));
  dirs.push(home);
  return spawnHarness({
    harness: 'codex',
    command: node,
    args: [join(children, 'codex-rollout.mjs'), options.from ?? scenario, ...(mode ? [mode] : [])],
    cwd: tmpdir(),
    env: { CODEX_HOME: home, ...env },
    maxLineBytes: options.maxLineBytes,
  });
}

/** The exec default capture with one rollout line changed by `edit`, in a folder of its own. */
function editedScenario(edit: (line: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'codex-scenario-'));
  dirs.push(dir);
  cpSync(scenario, dir, { recursive: true });
  let day = join(dir, 'home', '.codex', 'sessions');
  for (let depth = 0; depth < 3; depth++) day = join(day, readdirSync(day)[0]!);
  const file = join(day, readdirSync(day)[0]!);
  writeFileSync(file, readFileSync(file, 'utf8').split('\n').map(edit).join('\n'));
  return dir;
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
    // Stdout's commands, once each, where the rollout says they ran (`workdir: "docs"`), their paths resolved there.
    const docs = `${project}/docs`;
    expect(events.filter((event) => event.type === 'search' || event.working_directory === docs)).toEqual([
      { type: 'command', command: 'pwd && cat guide.md', working_directory: docs, exit_code: 0, is_success: true },
      { type: 'search', query: 'zzz_none', path: `${docs}/guide.md`, is_success: true },
    ]);
    // From the rollout: the refused patches, the sandbox-failed command and the refused escalations, in its order.
    const joined = events.filter((event) => event.type === 'write' || event.working_directory === project);
    expect(joined).toEqual([
      patched('declined', false),
      patched('accepted', false),
      sandboxFailed,
      escalated('declined', { is_success: false }),
      escalated('accepted', { is_success: false }),
    ]);
    expect(refusals(events)).toHaveLength(4);
    expect(started.metrics.events).toMatchObject({ write: 2, command: 4, search: 1, agent: 2, usage: 1 });
    expect(started.metrics.permission_denials).toBe(4);
  });

  test("a hostile rollout line is held to the run's own bounds: a warning, and the run goes on", async () => {
    // The sandbox-failed command's output, 2 MB long: past the run's maxLineBytes (256 KiB) as stdout's would be.
    const huge = editedScenario((line) =>
      line.includes('"call_id":"call_0008","output"')
        ? line.replace('Read-only file system', 'x'.repeat(2 * 1024 * 1024))
        : line,
    );
    const started = run(undefined, {}, { from: huge, maxLineBytes: 256 * 1024 });
    const events = bodies(await collect(started));
    await started.done;
    expect(events.filter((event) => event.code === 'line_too_long')).toEqual([
      {
        type: 'warning',
        code: 'line_too_long',
        message: expect.stringMatching(/^line 27 is 2\d{6} bytes long \(maxLineBytes is 262144\)/),
      },
    ]);
    // Its output lost, the call is reported at the end, its outcome unknown; the calls after it as before.
    expect(events.filter((event) => event.type === 'command' && event.command === sandboxFailed.command)).toEqual([
      { type: 'command', command: sandboxFailed.command, working_directory: project },
    ]);
    expect(events.filter((event) => event.type === 'write' || event.type === 'search')).toHaveLength(3);
  });

  test("a sub-agent's rollout is followed too: its calls, with its thread's id, which stdout never shows", async () => {
    const child = '01a23332-acbd-72e2-9d29-195faa85fbe8';
    const started = run(undefined, {}, { from: fixturePath('codex/transcripts/subagent') });
    const stamped = await collect(started);
    await started.done;
    expect(bodies(stamped.filter((event) => event.session_id === child))).toEqual([
      { type: 'search', query: 'greet', path: `${project}/src`, is_success: true },
      { type: 'agent', message: 'greet is defined in src/a.ts:1 and called in src/b.ts:3.' },
      { type: 'usage', tokens: { input: 10300, output: 60, cache_read: 0, cache_write: 0, reasoning: 0 } },
    ]);
    // The parent's own events are its thread's; the spawn names the sub-agent (its orchestration id).
    expect(stamped.filter((event) => event.type === 'orchestration').map((event) => event.session_id)).not.toContain(
      child,
    );
    expect(bodies(stamped).filter((event) => event.type === 'orchestration')).toContainEqual(
      expect.objectContaining({ action: 'subagent_started', subagent_id: child }),
    );
  });

  test("a command held for the rollout's directory keeps the run's order: what came after it waits", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codex-held-'));
    dirs.push(dir);
    const started = spawnHarness({
      harness: 'codex',
      command: node,
      args: [join(children, 'codex-held.mjs')],
      cwd: dir,
      env: { CODEX_HOME: join(dir, 'home') },
    });
    const events = bodies(await collect(started));
    await started.done;
    expect(events).toEqual([
      { type: 'command', command: 'make b', working_directory: join(dir, 'sub'), exit_code: 0, is_success: true },
      { type: 'agent', message: 'Listed.' },
      ...events.slice(2, 4),
      { type: 'usage', tokens: { input: 10, output: 5, cache_read: 0 } },
    ]);
    // The refusal on stderr after them: its warnings wait too.
    expect(events.slice(2, 4).map((event) => event.code)).toEqual(['stderr', 'permission_denied']);
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
    // Stdout's own commands, held for a rollout that never came, go out at the end: each once, with no directory.
    expect(events.filter((event) => event.type === 'command' || event.type === 'search')).toEqual([
      { type: 'command', command: 'pwd && cat guide.md', exit_code: 0, is_success: true },
      { type: 'search', query: 'zzz_none', path: join(tmpdir(), 'guide.md'), is_success: true },
    ]);
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
