/**
 * pi's session files against the stdout of the same run (test/fixtures/pi/transcripts/,
 * TRANSCRIPTS.md there). Each expected list was checked by hand against the session entries and
 * docs/harnesses/pi.md "Session files"; the differences from stdout are that table's.
 */
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { findSessions } from '../../../lib/runtime/sessions/sessions.js';
import { copyHome, readPair, signature } from './pairs.js';

const dir = '.pi/agent/sessions/--home-user-project--';
const files = {
  files: `${dir}/2026-12-01T20-02-32-437Z_01a23333-a574-75b9-8712-8baf131a022e.jsonl`,
  retry: `${dir}/2026-12-01T20-02-37-454Z_01a23333-b90b-7090-9acb-e58bee9785f3.jsonl`,
  'multi-prompt': `${dir}/2026-12-01T20-02-35-286Z_01a23333-b095-7503-8207-4c1c1af8b91a.jsonl`,
  'text-reasoning-continue': `${dir}/2026-12-01T20-02-44-276Z_01a23333-d3b3-7726-8b2e-a4cfb534a2e1.jsonl`,
};

describe('pi session file = its stdout, but for the documented differences', () => {
  test("files: the same calls; a message's parallel calls in call order (stdout: in completion order)", async () => {
    const { stdout, session } = await readPair('pi', 'pi', 'files', files.files);
    const common = [
      'agent | I will start by reading the notes.',
      'usage',
      'read | /home/user/project/notes.txt | true',
      'read | /home/user/project/notes.txt | true',
      'read | /home/user/project/src/a.ts | true',
      'usage',
      'write | /home/user/project/src/c.ts | true',
      'write | /home/user/project/src/a.ts | true',
      'usage',
    ];
    const end = ['agent | Done: updated greet in src/a.ts and added src/c.ts.', 'usage'];
    // call_0009 grep, call_0010 find, call_0011 ls; call_0013 read, call_0014 edit, call_0015 does_not_exist.
    expect(session.events.map(signature)).toEqual([
      ...common,
      'search | /home/user/project/src | true',
      'search | *.ts | true',
      'list | /home/user/project/src | true',
      'usage',
      'read | /home/user/project/missing.txt | false',
      'write | /home/user/project/src/b.ts | false',
      'unknown undefined/',
      ...end,
    ]);
    expect(stdout.events.map(signature)).toEqual([
      ...common,
      'list | /home/user/project/src | true',
      'search | /home/user/project/src | true',
      'search | *.ts | true',
      'usage',
      'unknown undefined/',
      'read | /home/user/project/missing.txt | false',
      'write | /home/user/project/src/b.ts | false',
      ...end,
    ]);
    const unknown = (events: typeof session.events) => events.find((e) => e.type === 'unknown');
    expect(unknown(session.events)).toMatchObject({
      raw: { tool_execution_end: { toolName: 'does_not_exist', isError: true } },
    });
    expect(unknown(stdout.events)).toMatchObject({
      raw: { tool_execution_end: { toolName: 'does_not_exist', isError: true } },
    });
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
    expect(session.metrics.cost).toBe(stdout.metrics.cost);
  });

  test('retry: the failed attempt before the retry is the same auto_retry warning', async () => {
    const { stdout, session } = await readPair('pi', 'pi', 'retry', files.retry);
    const expected = ['warning | auto_retry', 'agent | Hello!', 'usage'];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected);
    expect(session.events[0]).toEqual({ ...stdout.events[0], timestamp: expect.any(String) });
    expect(session.metrics.input.rules['message:retry']).toBe(1);
  });

  test('multi-prompt: two prompts, the same events', async () => {
    const { stdout, session } = await readPair('pi', 'pi', 'multi-prompt', files['multi-prompt']);
    expect(session.events.map(signature)).toEqual(stdout.events.map(signature));
    expect(session.events.map(signature)).toEqual([
      'usage',
      'read | /home/user/project/notes.txt | true',
      expect.stringMatching(/^agent \| notes\.txt has five lines; line three say/),
      'usage',
      'agent | Goodbye!',
      'usage',
    ]);
  });

  test('text-reasoning-continue: the --continue run appended to the same file equals the two stdouts', async () => {
    const { stdout, session } = await readPair(
      'pi',
      'pi',
      'text-reasoning-continue',
      files['text-reasoning-continue'],
      ['stdout.jsonl', 'stdout.2.jsonl'],
    );
    expect(session.events.map(signature)).toEqual(stdout.events.map(signature));
    expect(session.events.map((e) => e.type)).toEqual(['reasoning', 'agent', 'usage', 'agent', 'usage']);
    expect(session.events.filter((e) => e.type === 'reasoning')).toEqual(
      stdout.events.filter((e) => e.type === 'reasoning').map((e) => ({ ...e, timestamp: expect.any(String) })),
    );
  });
});

describe('findSessions on a pi capture home', () => {
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

  test('files: the one session, with the cwd and id of its header', async () => {
    const home = copyHome('pi', 'files');
    homes.push(home);
    const past = new Date('2026-12-01T20:03:00Z');
    utimesSync(join(home, files.files), past, past);
    const found = [];
    for await (const entry of findSessions({ home, harness: 'pi' })) found.push(entry);
    expect(found).toEqual([
      {
        harness: 'pi',
        id: '01a23333-a574-75b9-8712-8baf131a022e',
        path: join(home, files.files),
        cwd: '/home/user/project',
        started: '2026-12-01T20:02:32.437Z',
        updated: expect.stringMatching(/^2026-12-01T20:02:3/),
        bytes: expect.any(Number),
        live: false,
        subagents: [],
      },
    ]);
  });
});
