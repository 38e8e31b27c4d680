/**
 * Kilo's session store (`kilo.db`, OpenCode's schema) against the stdout of the same run
 * (test/fixtures/kilo/transcripts/, TRANSCRIPTS.md there). Each expected list was checked by hand
 * against the run's stdout.jsonl and the database's `event` rows (docs/harnesses/kilo.md "Session
 * events"): the events are the same on both sides; the documented differences are what only the
 * database has (the explorer's own session, the transient snapshot part and its removal).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readSession, type FindSessionsOptions } from '../../../lib/runtime/sessions/sessions.js';
import { followSession } from '../../../lib/runtime/sessions/follow.js';
import { readPair, signature, transcripts } from './pairs.js';
import { listed, startDbWriter } from './stores.js';

const DB = '.local/share/kilo/kilo.db';
const ids = {
  files: 'ses_dccca2ee4ffeyMFMMRd6WCCray',
  shell: 'ses_dccca961bffeqsNLYF6nusYcPM',
  'task-skill': 'ses_dccc9d62bffeDMQy5SImsO307q',
  explore: 'ses_dccc99cc2ffeTz9UsOEvfqhekw',
  'api-401': 'ses_dccc964e3ffezrETkAq3pi4TER',
};
const fixtureDb = (scenario: string) => join(transcripts('kilo', scenario), 'home', DB);

describe('Kilo kilo.db = its stdout, but for the documented differences', () => {
  test('files: reasoning, text, a read, two searches and two writes, with four steps priced', async () => {
    const { stdout, session } = await readPair('kilo', 'kilo', 'files', `${DB}#${ids.files}`);
    const lines = [
      'reasoning | Read part of the notes, then search.',
      'agent | Reading lines 2-3 of notes.txt.',
      'read | /home/user/project/notes.txt | true',
      'usage',
      'search | /home/user/project/src | true',
      'search | /home/user/project/src | true',
      'usage',
      'write | /home/user/project/notes.txt | true',
      'write | /home/user/project/docs/guide.md | true',
      'usage',
      'agent | greet( is called in src/b.ts; docs/guide.md is written and the magic word is now mango.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(lines);
    expect(stdout.events.map(signature)).toEqual(lines);
    expect(session.metrics.cost).toBe(stdout.metrics.cost);
    expect(session.metrics.tokens).toEqual({
      input: 4200,
      output: 165,
      cache_read: 9600,
      cache_write: 0,
      reasoning: 0,
    });
    // Documented: the transient "Initializing snapshot" part is removed in the log (never in `part` or on stdout).
    expect(session.metrics.input.rules['message.part.removed.1:consumed']).toBe(1);
  });

  test('shell: four tools in one step, a read, and a failing command', async () => {
    const { stdout, session } = await readPair('kilo', 'kilo', 'shell', `${DB}#${ids.shell}`);
    const lines = [
      'agent | Inspecting with the shell.',
      ...[
        'read | /home/user/project/README.md | true',
        'read | /home/user/project/notes.txt | true',
        'list | /home/user/project/src | true',
        'search | /home/user/project/src | true',
      ],
      'usage',
      'read | /home/user/project/src/a.ts | true',
      'usage',
      "command | node -e 'process.exit(3)' | false",
      'usage',
      'agent | The sources look fine, but the check script exits with status 3.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(lines);
    expect(stdout.events.map(signature)).toEqual(lines);
  });

  test("task-skill: the parent's events equal stdout; the explorer's session is only in the database", async () => {
    const { stdout, session } = await readPair('kilo', 'kilo', 'task-skill', `${DB}#${ids['task-skill']}`);
    const lines = [
      'agent | Loading the release-notes skill.',
      'skill | /home/user/project/.kilo/skills/release-notes/SKILL.md | true',
      'usage',
      'orchestration | true',
      'usage',
      // todowrite: Kilo's tool table has no row for it, on both sides.
      'unknown tool/',
      'usage',
      'agent | Release notes: greet(name) is exported from src/a.ts.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(lines);
    expect(stdout.events.map(signature)).toEqual(lines);
    const explorer: string[] = [];
    const path = `${fixtureDb('task-skill')}#${ids.explore}`;
    for await (const event of readSession({ harness: 'kilo', path, strict: true })) explorer.push(signature(event));
    expect(explorer).toEqual([
      'read | /home/user/project/src/a.ts | true',
      'usage',
      'agent | src/a.ts exports greet(name).',
      'usage',
    ]);
  });

  test("api-401: the failed call is the assistant message's error, stdout's error record", async () => {
    const { stdout, session } = await readPair('kilo', 'kilo', 'api-401', `${DB}#${ids['api-401']}`);
    expect(session.events.map(signature)).toEqual(['error | APIError']);
    expect(stdout.events.map(signature)).toEqual(['error | APIError']);
    expect(session.events[0]).toMatchObject({ message: 'Incorrect API key provided: fake-key.' });
    expect(session.metrics.is_error).toBe(true);
  });
});

describe('findSessions on Kilo capture homes', () => {
  const found = (options: FindSessionsOptions) => listed('kilo', options);

  test('each capture lists exactly its run, the explorer under its parent', async () => {
    for (const scenario of ['files', 'shell', 'api-401'] as const) {
      const entries = await found({ home: join(transcripts('kilo', scenario), 'home') });
      expect(entries.map((entry) => [entry.id, entry.path, entry.subagents])).toEqual([
        [ids[scenario], `${fixtureDb(scenario)}#${ids[scenario]}`, []],
      ]);
    }
    expect(await found({ home: join(transcripts('kilo', 'task-skill'), 'home') })).toEqual([
      {
        harness: 'kilo',
        id: ids['task-skill'],
        path: `${fixtureDb('task-skill')}#${ids['task-skill']}`,
        cwd: '/home/user/project',
        started: '2026-12-01T20:05:17.397Z',
        updated: '2026-12-01T20:05:36.407Z',
        bytes: 48121,
        live: false,
        subagents: [{ id: ids.explore, path: `${fixtureDb('task-skill')}#${ids.explore}`, bytes: 16449 }],
      },
    ]);
  });

  test('KILO_DB names the database; OPENCODE_DB does not move it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-kilo-'));
    try {
      const elsewhere = join(dir, 'k.db');
      copyFileSync(fixtureDb('shell'), elsewhere);
      expect((await found({ home: dir, env: { KILO_DB: elsewhere } })).map((e) => e.id)).toEqual([ids.shell]);
      expect(await found({ home: dir, env: { OPENCODE_DB: elsewhere } })).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a live kilo.db followed while a real process writes it', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  test('api-401: the error comes when its message row is committed, and the follow ends there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-kilo-live-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'kilo.db');
    const writer = await startDbWriter(fixtureDb('api-401'), db);
    cleanup.push(() => writer.quit());
    // All but the last row (the failed message): nothing to give yet.
    expect(await writer.ask(`next ${writer.total - 1}`)).toBe(`wrote ${writer.total - 1} more`);
    let handled = 0;
    let waiter: (() => void) | undefined;
    const follow = followSession({
      harness: 'kilo',
      path: `${db}#${ids['api-401']}`,
      strict: true,
      endGraceMs: 100,
      onLine(line) {
        handled = line;
        if (handled >= writer.total - 1) waiter?.();
      },
    });
    const events: string[] = [];
    const reading = (async () => {
      for await (const event of follow) events.push(signature(event));
    })();
    if (handled < writer.total - 1) await new Promise<void>((resolve) => (waiter = resolve));
    expect(events).toEqual([]);
    expect(await writer.ask('next 1')).toBe(`wrote ${writer.total} all`);
    await reading;
    expect(events).toEqual(['error | APIError']);
  });
});
