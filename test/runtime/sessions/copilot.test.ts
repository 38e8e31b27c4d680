/**
 * Copilot CLI's events.jsonl against the stdout of the same run (test/fixtures/copilot/
 * transcripts/, TRANSCRIPTS.md there). Each expected list was checked by hand against the
 * events file and docs/harnesses/copilot.md "Session events"; the differences from stdout are
 * that table's: usage only in the file, the ephemeral retries only on stdout.
 */
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { findSessions } from '../../../lib/runtime/sessions/sessions.js';
import { copyHome, readPair, signature } from './pairs.js';

const events = (id: string) => `.copilot/session-state/${id}/events.jsonl`;
const ids = {
  subagent: '77f29039-c9fe-4aae-8bc4-0fc488cb7321',
  'tool-errors': 'e7868486-4cf6-412b-ac8a-8fda02e0080f',
  'api-401': 'affec972-1542-47b0-9db6-ed33c3cf5b48',
  resume: '60dcab80-87b5-4b44-b70d-16de930ab256',
};

/** Documented: a usage event per model call (`session.usage_record`) is only in the file. */
const notUsage = (line: string) => line !== 'usage';

describe('Copilot events.jsonl = its stdout, but for the documented differences', () => {
  test('subagent: the same text, orchestration and read; four model calls, four usage events', async () => {
    const { stdout, session } = await readPair('copilot', 'copilot', 'subagent', events(ids.subagent));
    const expected = [
      'usage',
      'agent | Delegating to an explore agent.',
      'orchestration',
      'usage',
      'agent | Looking at src.',
      'read | /home/user/project/src/a.ts | true',
      'usage',
      'agent | src/a.ts exports greet(name).',
      'orchestration | true',
      'usage',
      'agent | The explorer reports that src/a.ts exports greet(name).',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected.filter(notUsage));
    // Token counts are only in the file: stdout's metrics have none.
    expect(stdout.metrics.tokens).toEqual({});
    expect(session.metrics.tokens).toMatchObject({ input: 5200, output: 90 });
  });

  test('tool-errors: the same five failures and successes', async () => {
    const { stdout, session } = await readPair('copilot', 'copilot', 'tool-errors', events(ids['tool-errors']));
    const expected = [
      'usage',
      'read | /home/user/project/missing.txt | false',
      'write | /home/user/project/notes.txt | false',
      'write | /home/user/project/README.md | false',
      'usage',
      'search | zzz_nomatch_zzz | true',
      'list | /home/user/project/no-such-dir | false',
      'usage',
      expect.stringMatching(/^agent \| missing\.txt does not exist, the edit tar/),
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected.filter((line) => line !== 'usage'));
  });

  test('api-401: the retries are ephemeral (stdout only); the error is in both', async () => {
    const { stdout, session } = await readPair('copilot', 'copilot', 'api-401', events(ids['api-401']));
    expect(session.events.map(signature)).toEqual(['error | authentication']);
    expect(stdout.events.map(signature)).toEqual([
      'warning | model_retry',
      'warning | model_retry',
      'error | authentication',
    ]);
  });

  test('resume: one file holds both runs; it equals the two stdouts one after the other', async () => {
    const { stdout, session } = await readPair('copilot', 'copilot', 'resume', events(ids.resume), [
      'stdout.jsonl',
      'stdout.2.jsonl',
    ]);
    const expected = ['usage', 'agent | Noted: kiwi.', 'usage', 'agent | You named kiwi.'];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected.filter(notUsage));
    expect(session.metrics.input.rules['session.resume:consumed']).toBe(1);
    expect(session.metrics.input.rules['session.shutdown:consumed']).toBe(2);
  });
});

describe('findSessions on a Copilot capture home', () => {
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

  test('resume: one session (both runs in it), with its cwd from session.start', async () => {
    const home = copyHome('copilot', 'resume');
    homes.push(home);
    const past = new Date('2026-12-01T20:04:00Z');
    utimesSync(join(home, events(ids.resume)), past, past);
    const found = [];
    for await (const entry of findSessions({ home, harness: 'copilot' })) found.push(entry);
    expect(found).toEqual([
      {
        harness: 'copilot',
        id: ids.resume,
        path: join(home, events(ids.resume)),
        cwd: '/home/user/project',
        started: expect.stringMatching(/^2026-12-01T20:03:5/),
        updated: expect.stringMatching(/^2026-12-01T20:03:5/),
        bytes: 33781,
        live: false,
        subagents: [],
      },
    ]);
  });
});
