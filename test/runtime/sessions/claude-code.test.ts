/**
 * Claude Code's session transcripts against the stdout of the same run (test/fixtures/claude-code/
 * transcripts/, TRANSCRIPTS.md there). Each expected list was checked by hand against the
 * transcript's lines and docs/harnesses/claude-code.md "Session transcripts"; the differences
 * from stdout are the ones that page's table lists, and nothing else.
 */
import { readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { findSessions } from '../../../lib/runtime/sessions/sessions.js';
import { copyHome, readPair, signature } from './pairs.js';

const project = '.claude/projects/-home-user-project';
const sessions = {
  bash: `${project}/c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl`,
  subagent: `${project}/42a3ead3-e740-40f9-af59-f65838abac3a.jsonl`,
  'subagent-background': `${project}/37bd54ca-214e-4195-98e6-6cfadc71bf12.jsonl`,
  'errors-401': `${project}/d9c985c8-9e12-40df-908b-68628626f48c.jsonl`,
};

/** Stdout records the transcript has no record for (the differences table, "only on stdout"). */
const stdoutOnly = /^unknown system\/background_tasks_changed$/;

describe('Claude Code transcript = its stdout, but for the documented differences', () => {
  test('bash: the same ten tool events and final text, the same tokens and cost', async () => {
    const { stdout, session } = await readPair('claude-code', 'claude-code', 'bash', sessions.bash);
    const expected = [
      'read | /home/user/project/README.md | true',
      'read | /home/user/project/notes.txt | true',
      'search | /home/user/project | true',
      'list | /home/user/project/src | true',
      'read | /home/user/project/src/a.ts | true',
      // After `cd src && cat a.ts` exited 0 the shell stayed in src: stdout tracks it, the transcript's `cwd` says it.
      'read | /home/user/project/src/notes.txt | true',
      'command | false | false',
      'command | echo hi > out.txt | true',
      'list | true',
      'command | pwd | true',
      'agent | Done: the shell stayed in src after the cd, so notes.txt was not found there and out.txt landed in src.',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected);
    const directories = (events: HarnessEvent[]) =>
      events.flatMap((e) => (e.type === 'command' ? [e.working_directory] : []));
    expect(directories(session.events)).toEqual(Array(3).fill('/home/user/project/src'));
    expect(directories(stdout.events)).toEqual(directories(session.events));
    expect(session.events.every((e) => e.session_id === 'c87769bd-e555-469c-9e50-6bbdc54002bf')).toBe(true);
    // Final usage per API message, summed: the result's usage; cost from cost-state.totalCostUSD.
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
    expect(session.metrics.tokens).toEqual({ input: 1320, output: 275, cache_read: 0, cache_write: 0, reasoning: 0 });
    expect(session.metrics.cost).toBe(0.01078);
    expect(session.metrics.input.rules['cost-state:cost']).toBe(1);
  });

  test("subagent: the subagent's transcript merged in by time, its text blocks too (stdout omits them)", async () => {
    const { stdout, session } = await readPair('claude-code', 'claude-code', 'subagent', sessions.subagent);
    const expected = [
      'agent | Delegating to a subagent.',
      'agent | Reading the README.',
      'read | /home/user/project/README.md | true',
      'agent | The first line is "# Demo project".',
      'unknown tool Agent',
      'agent | The subagent reports that the first line of the README is "# Demo project".',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    // Documented: stdout's task_* records are the orchestration (the transcript has none, so its Agent call stays
    // unknown); the transcript has the foreground subagent's text.
    expect(stdout.events.map(signature)).toEqual([
      'agent | Delegating to a subagent.',
      'orchestration | true',
      'read | /home/user/project/README.md | true',
      'orchestration | true',
      'agent | The subagent reports that the first line of the README is "# Demo project".',
    ]);
    // The transcripts count the subagent's API calls too; stdout's result only the parent's.
    expect(stdout.metrics.tokens).toMatchObject({ input: 240, output: 50 });
    expect(session.metrics.tokens).toMatchObject({ input: 480, output: 100 });
    expect(session.metrics.cost).toBe(stdout.metrics.cost);
  });

  test('subagent-background: the same events once the task records are left out', async () => {
    const { stdout, session } = await readPair(
      'claude-code',
      'claude-code',
      'subagent-background',
      sessions['subagent-background'],
    );
    const expected = [
      'agent | Delegating to a subagent.',
      'unknown tool Agent',
      'agent | The subagent is running; I will report when it finishes.',
      'agent | Reading the README.',
      'read | /home/user/project/README.md | true',
      'agent | The first line is "# Demo project".',
      'agent | The subagent reports that the first line of the README is "# Demo project".',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    // Stdout: task_started and task_notification instead of the Agent call (at its place, and when the task ended).
    const orchestration = ['orchestration | true', ...expected.slice(2, 6), 'orchestration | true', expected[6]];
    expect(stdout.events.map(signature).filter((s) => !stdoutOnly.test(s))).toEqual([expected[0], ...orchestration]);
    expect(session.metrics.cost).toBe(stdout.metrics.cost);
  });

  test('errors-401: retries are warnings (api_error / api_retry); the failure one error, not agent text', async () => {
    const { stdout, session } = await readPair('claude-code', 'claude-code', 'errors-401', sessions['errors-401']);
    expect(session.events.map(signature)).toEqual([
      'warning | api_error',
      'warning | api_error',
      'error | authentication_failed',
    ]);
    expect(session.events[0]).toMatchObject({ message: 'Claude Code API error, retrying: 401 invalid x-api-key' });
    // The synthetic message is the error (code its `error`); the result repeating it gives no second one.
    expect(stdout.events.map(signature)).toEqual([
      'warning | api_retry',
      'warning | api_retry',
      'error | authentication_failed',
    ]);
    expect(session.events[2]).toMatchObject({ message: 'Invalid API key · Fix external API key' });
    expect(stdout.events[2]).toMatchObject({ message: 'Invalid API key · Fix external API key' });
    expect(session.metrics.is_error).toBe(true);
  });
});

describe('findSessions on a capture home', () => {
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

  test('subagent: one session, its subagent listed with it, not as a run of its own', async () => {
    const home = copyHome('claude-code', 'subagent');
    homes.push(home);
    const past = new Date('2026-12-01T19:58:42Z');
    const dir = join(home, project, '42a3ead3-e740-40f9-af59-f65838abac3a', 'subagents');
    for (const file of [join(home, sessions.subagent), ...readdirSync(dir).map((name) => join(dir, name))])
      utimesSync(file, past, past);
    const found = [];
    for await (const entry of findSessions({ home })) found.push(entry);
    expect(found).toEqual([
      {
        harness: 'claude-code',
        id: '42a3ead3-e740-40f9-af59-f65838abac3a',
        path: join(home, sessions.subagent),
        cwd: '/home/user/project',
        started: '2026-12-01T19:58:40.892Z',
        updated: '2026-12-01T19:58:42.077Z',
        bytes: 149766 + 106318,
        live: false,
        subagents: [{ id: 'aa42baeaa5d08c432', path: join(dir, 'agent-aa42baeaa5d08c432.jsonl'), bytes: 106318 }],
      },
    ]);
    // A file written now is live.
    const now = new Date();
    utimesSync(join(dir, 'agent-aa42baeaa5d08c432.jsonl'), now, now);
    for await (const entry of findSessions({ home, harness: 'claude-code' })) expect(entry.live).toBe(true);
  });
});
