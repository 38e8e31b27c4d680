/**
 * Codex's rollouts against the stdout of the same run (test/fixtures/codex/transcripts/,
 * TRANSCRIPTS.md there). Each expected list was checked by hand against the rollout lines and
 * docs/harnesses/codex.md "Session rollouts"; the differences from stdout are that table's.
 */
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { findSessions } from '../../../lib/runtime/sessions/sessions.js';
import { bodies } from '../../helpers.js';
import { copyHome, readPair, signature } from './pairs.js';
import { escalated, sandboxFailed } from '../../harnesses/codex/main-turns.js';

const day = '.codex/sessions/2026/12/01';
const rollouts = {
  read: `${day}/rollout-2026-12-01T20-01-26-01a23332-a378-7021-bbef-638214f98eab.jsonl`,
  'write-edit': `${day}/rollout-2026-12-01T20-01-27-01a23332-a74b-7dd0-83a9-0c88c7e7d6de.jsonl`,
  subagent: `${day}/rollout-2026-12-01T20-01-28-01a23332-abf9-7491-87d9-256199b30f86.jsonl`,
  child: `${day}/rollout-2026-12-01T20-01-28-01a23332-acbd-72e2-9d29-195faa85fbe8.jsonl`,
  'error-response-failed': `${day}/rollout-2026-12-01T20-01-28-01a23332-a9c8-73f2-b043-05ce41ec0b49.jsonl`,
  workdir: '.codex/sessions/2026/12/05/rollout-2026-12-05T05-48-37-01a244bf-4d50-7770-8b13-7232e24d1315.jsonl',
};

/** Documented: stdout names no working directory, so its relative paths stay relative; the rollout's are absolute. */
const absolute = (line: string) => line.replace(/^(\w+ \| )(?!\/)([\w./-]+)( \| )/, '$1/home/user/project/$2$3');

describe('Codex rollout = its stdout, but for the documented differences', () => {
  test('read: the same reads and messages; paths resolved against session_meta.cwd; the same usage', async () => {
    const { stdout, session } = await readPair('codex', 'codex', 'read', rollouts.read);
    const expected = [
      'agent | I will read the README first.',
      'read | /home/user/project/README.md | true',
      'read | /home/user/project/notes.txt | true',
      'read | /home/user/project/src/a.ts | true',
      'read | /home/user/project/missing.txt | false',
      'agent | README.md describes the project; notes.txt lines 2-3 are "line two" and "line three hello"; ' +
        'missing.txt does not exist.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature).map(absolute)).toEqual(expected);
    expect(session.events.at(-1)).toMatchObject({ tokens: { input: 10300, cache_read: 37100, output: 170 } });
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
    expect(session.events[0]!.session_id).toBe('01a23332-a378-7021-bbef-638214f98eab');
  });

  test("workdir: the rollout says where each command ran (its cwd, the call's workdir); stdout cannot", async () => {
    const { stdout, session } = await readPair('codex', 'codex', 'workdir', rollouts.workdir);
    const docs = '/home/user/project/docs';
    const commands = (events: HarnessEvent[]) => events.filter((e) => e.type === 'command' || e.type === 'search');
    // codex.md "Session files": the CommandExecution's `cwd` (file:///home/user/project/docs), from `workdir: docs`.
    // The calls no item reports come from their raw pairs (test/harnesses/codex/raw-calls.test.ts), in the turn's cwd.
    expect(bodies(commands(session.events))).toEqual([
      { type: 'command', command: 'pwd && cat guide.md', working_directory: docs, exit_code: 0, is_success: true },
      sandboxFailed,
      escalated('declined', { is_success: false }),
      escalated('accepted', { is_success: false }),
      { type: 'search', query: 'zzz_none', path: `${docs}/guide.md`, is_success: true },
    ]);
    // codex.md "Items": stdout never says; the run's directory applies (a documented limitation).
    expect(bodies(commands(stdout.events))).toEqual([
      { type: 'command', command: 'pwd && cat guide.md', exit_code: 0, is_success: true },
      { type: 'search', query: 'zzz_none', path: '/home/user/project/guide.md', is_success: true },
    ]);
  });

  test('write-edit: the same four writes; the failed patch, with no item, only in the rollout', async () => {
    const { stdout, session } = await readPair('codex', 'codex', 'write-edit', rollouts['write-edit']);
    const expected = [
      'write | /home/user/project/src/a.ts | true',
      'write | /home/user/project/src/c.ts | true',
      'write | /home/user/project/notes.txt | true',
      'write | /home/user/project/README.md | true',
      'agent | Added src/c.ts, updated src/a.ts and README.md, deleted notes.txt; the patch for src/nope.ts failed.',
      'usage',
    ];
    // Its raw call and its output ("apply_patch verification failed: …"): stdout has nothing for it.
    const nope = 'write | /home/user/project/src/nope.ts | false';
    expect(session.events.map(signature)).toEqual([...expected.slice(0, 2), nope, ...expected.slice(2)]);
    expect(stdout.events.map(signature)).toEqual(expected);
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
  });

  test(
    "subagent: the parent's rollout alone gives stdout's events; the " + "sub-agent's rollout is a session of its own",
    async () => {
      const { stdout, session } = await readPair('codex', 'codex', 'subagent', rollouts.subagent);
      const expected = [
        'agent | Delegating the search to a sub-agent.',
        'orchestration | true',
        'orchestration | true',
        'agent | The sub-agent found greet defined in src/a.ts and called in src/b.ts.',
        'usage',
      ];
      expect(session.events.map(signature)).toEqual(expected);
      expect(stdout.events.map(signature)).toEqual(expected);
      expect(session.events.filter((e) => e.type === 'orchestration')).toEqual(
        stdout.events.filter((e) => e.type === 'orchestration').map((e) => ({ ...e, timestamp: expect.any(String) })),
      );
      const child = await readPair('codex', 'codex', 'subagent', rollouts.child);
      // Only in the rollouts: the sub-agent's own command and answer (stdout shows its collab calls only).
      expect(child.session.events.map(signature)).toEqual([
        'search | /home/user/project/src | true',
        'agent | greet is defined in src/a.ts:1 and called in src/b.ts:3.',
        'usage',
      ]);
      expect(child.session.events[0]!.session_id).toBe('01a23332-acbd-72e2-9d29-195faa85fbe8');
    },
  );

  test('error-response-failed: the partial answer, then the warning and error stdout prints', async () => {
    const { stdout, session } = await readPair(
      'codex',
      'codex',
      'error-response-failed',
      rollouts['error-response-failed'],
    );
    const message = 'stream disconnected before completion: The model produced invalid content.';
    const expected = ['agent | Partial answer', `warning | ${message}`, `error | ${message}`];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected);
  });
});

describe('findSessions on a Codex capture home', () => {
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

  test('subagent: one session, the sub-agent thread listed with its parent', async () => {
    const home = copyHome('codex', 'subagent');
    homes.push(home);
    const past = new Date('2026-12-01T20:01:30Z');
    for (const file of [rollouts.subagent, rollouts.child]) utimesSync(join(home, file), past, past);
    const found = [];
    for await (const entry of findSessions({ home })) found.push(entry);
    expect(found).toEqual([
      {
        harness: 'codex',
        id: '01a23332-abf9-7491-87d9-256199b30f86',
        path: join(home, rollouts.subagent),
        cwd: '/home/user/project',
        started: expect.stringMatching(/^2026-12-01T20:01:28\./),
        updated: expect.stringMatching(/^2026-12-01T20:01:29\./),
        bytes: 53638 + 44832,
        live: false,
        subagents: [{ id: '01a23332-acbd-72e2-9d29-195faa85fbe8', path: join(home, rollouts.child), bytes: 44832 }],
      },
    ]);
  });
});
