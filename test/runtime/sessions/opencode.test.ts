/**
 * OpenCode's session store (`opencode.db`, SQLite in WAL mode) against the stdout of the same run
 * (test/fixtures/opencode/transcripts/, TRANSCRIPTS.md there). Each expected list was checked by
 * hand against the run's stdout.jsonl and the database's `event` rows (docs/harnesses/opencode.md
 * "Session events"): the events are the same on both sides; the documented differences are what
 * only the database has (the subagent's own session, the prompt, every intermediate state).
 * The live tests run a real writer (python3's sqlite3) holding the database open in WAL mode.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { followSession } from '../../../lib/runtime/sessions/follow.js';
import { readSession, type FindSessionsOptions, type SessionEntry } from '../../../lib/runtime/sessions/sessions.js';
import { readPair, signature, transcripts } from './pairs.js';
import { fileState, listed, startDbWriter, type DbWriter } from './stores.js';

const DB = '.local/share/opencode/opencode.db';
const ids = {
  read: 'ses_dcccd26b7ffeibGuMgmvjIBUgk',
  shell: 'ses_dcccce979ffexnzuj0p1PAGo5H',
  'task-subagent': 'ses_dccccab6fffecnXKv2BbKtq0GU',
  explore: 'ses_dcccc8744ffeaHp9xYJcdD5mFn',
  'error-stream-dropped': 'ses_dcccc70d2ffeJqIuDYd489fkZd',
};
const home = (scenario: string) => join(transcripts('opencode', scenario), 'home');
const fixtureDb = (scenario: string) => join(home(scenario), DB);

const expected = {
  read: [
    'agent | I will read the README first.',
    'read | /home/user/project/README.md | true',
    'usage',
    'read | /home/user/project/notes.txt | true',
    'usage',
    'read | /home/user/project/missing.txt | false',
    'usage',
    'agent | README.md is a short project description; notes.txt lines 2-3 are "line two" and "line three hello"; ' +
      'missing.txt does not exist.',
    'usage',
  ],
};

async function collect(stream: AsyncIterable<HarnessEvent>): Promise<string[]> {
  const lines: string[] = [];
  for await (const event of stream) lines.push(signature(event));
  return lines;
}

describe('OpenCode opencode.db = its stdout, but for the documented differences', () => {
  test('read: the same texts, reads (one failed) and four steps of usage', async () => {
    const { stdout, session } = await readPair('opencode', 'opencode', 'read', `${DB}#${ids.read}`);
    expect(session.events.map(signature)).toEqual(expected.read);
    expect(stdout.events.map(signature)).toEqual(expected.read);
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
    expect(session.metrics.tokens).toEqual({
      input: 3400,
      output: 125,
      cache_read: 7800,
      cache_write: 0,
      reasoning: 0,
    });
    expect(session.metrics.turns).toBe(4);
    // Documented: the prompt is a part of the user message, only in the database (consumed).
    expect(session.metrics.input.rules['message.part.updated.1:prompt']).toBe(1);
    expect(session.events.every((event) => event.session_id === ids.read)).toBe(true);
  });

  test('shell: reads, search, list and three commands (one failing), with nine steps', async () => {
    const { stdout, session } = await readPair('opencode', 'opencode', 'shell', `${DB}#${ids.shell}`);
    const lines = [
      ...[
        'read | /home/user/project/README.md | true',
        'read | /home/user/project/notes.txt | true',
        'search | /home/user/project | true',
        'list | /home/user/project/src | true',
      ],
      'read | /home/user/project/src/a.ts | true',
      ...['command | false | false', 'command | echo hi > out.txt | true', 'command | pwd && ls | true'],
    ].flatMap((line) => [line, 'usage']);
    const all = [...lines, 'agent | Done looking around; `false` exited with status 1.', 'usage'];
    expect(session.events.map(signature)).toEqual(all);
    expect(stdout.events.map(signature)).toEqual(all);
    expect(session.metrics.turns).toBe(9);
    // Documented: the `patch` part (out.txt changed) is only in the database, and stdout never prints it.
    expect(session.metrics.input.rules['message.part.updated.1:silent']).toBe(1);
  });

  test("task-subagent: the parent's events equal stdout; the explorer's session is only in the database", async () => {
    const { stdout, session } = await readPair(
      'opencode',
      'opencode',
      'task-subagent',
      `${DB}#${ids['task-subagent']}`,
    );
    const parent = [
      'agent | Delegating the search.',
      'orchestration | true',
      'usage',
      'agent | The subagent found greet defined in src/a.ts and called in src/b.ts.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(parent);
    expect(stdout.events.map(signature)).toEqual(parent);
    // Documented difference: the subagent's own session (stdout printed only the parent's task call).
    const explorer = await collect(
      readSession({ harness: 'opencode', path: `${fixtureDb('task-subagent')}#${ids.explore}`, strict: true }),
    );
    expect(explorer).toEqual([
      'search | greet | true',
      'usage',
      'read | /home/user/project/src/b.ts | true',
      'usage',
      'agent | greet is defined in src/a.ts:1 and called in src/b.ts:3.',
      'usage',
    ]);
  });

  test(
    'error-stream-dropped: the cut step leaves an empty text part ' + '(consumed); the retried text is the same',
    async () => {
      const { stdout, session } = await readPair(
        'opencode',
        'opencode',
        'error-stream-dropped',
        `${DB}#${ids['error-stream-dropped']}`,
      );
      const lines = ['agent | Hello after the dropped stream.', 'usage'];
      expect(session.events.map(signature)).toEqual(lines);
      expect(stdout.events.map(signature)).toEqual(lines);
      // Documented: two step-start parts in one message (the cut stream's and the retry's), as on stdout.
      expect(session.metrics.input.rules['message.part.updated.1:step_start']).toBe(2);
    },
  );
});

describe('findSessions on OpenCode capture homes', () => {
  const entry = (scenario: keyof typeof ids, fields: Partial<SessionEntry>): SessionEntry => ({
    harness: 'opencode',
    id: ids[scenario],
    path: `${fixtureDb(scenario)}#${ids[scenario]}`,
    cwd: '/home/user/project',
    started: expect.stringMatching(/^2026-12-01T20:0/) as unknown as string,
    updated: expect.stringMatching(/^2026-12-01T20:0/) as unknown as string,
    bytes: expect.any(Number) as unknown as number,
    live: false,
    subagents: [],
    ...fields,
  });
  const found = (options: FindSessionsOptions) => listed('opencode', options);

  test('read: one session, with the times and cwd of its session row', async () => {
    expect(await found({ home: home('read') })).toEqual([
      entry('read', { started: '2026-12-01T20:01:40.169Z', updated: '2026-12-01T20:01:48.635Z', bytes: 21987 }),
    ]);
  });

  test('task-subagent: the explorer is listed with its parent, not as a run of its own', async () => {
    expect(await found({ home: home('task-subagent') })).toEqual([
      entry('task-subagent', {
        // Its own log's bytes and the explorer's.
        bytes: 31533,
        subagents: [{ id: ids.explore, path: `${fixtureDb('task-subagent')}#${ids.explore}`, bytes: 17687 }],
      }),
    ]);
  });

  test('OPENCODE_DB (a path, or a name in the data directory) and XDG_DATA_HOME move the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-opencode-'));
    try {
      const elsewhere = join(dir, 'elsewhere.db');
      copyFileSync(fixtureDb('shell'), elsewhere);
      expect((await found({ home: dir, env: { OPENCODE_DB: elsewhere } })).map((e) => e.path)).toEqual([
        `${elsewhere}#${ids.shell}`,
      ]);
      mkdirSync(join(dir, 'data', 'opencode'), { recursive: true });
      copyFileSync(fixtureDb('read'), join(dir, 'data', 'opencode', 'named.db'));
      const env = { XDG_DATA_HOME: join(dir, 'data') };
      expect((await found({ home: dir, env: { ...env, OPENCODE_DB: 'named.db' } })).map((e) => e.id)).toEqual([
        ids.read,
      ]);
      // Without OPENCODE_DB the data directory's opencode.db (and opencode-<channel>.db) are read: none here.
      expect(await found({ home: dir, env })).toEqual([]);
      copyFileSync(fixtureDb('read'), join(dir, 'data', 'opencode', 'opencode-dev.db'));
      expect((await found({ home: dir, env })).map((e) => e.id)).toEqual([ids.read]);
      expect(await found({ home: dir, env: { ...env, OPENCODE_DB: ':memory:' } })).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a live opencode.db: read and followed while a real process writes it', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  async function liveDb(): Promise<{ db: string; writer: DbWriter; dir: string }> {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-opencode-live-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'opencode.db');
    const writer = await startDbWriter(fixtureDb('read'), db);
    cleanup.push(() => writer.quit());
    return { db, writer, dir };
  }

  test('commits still only in the -wal are read; the writer commits while we read; we write nothing', async () => {
    const { db, writer, dir } = await liveDb();
    expect(await writer.ask('next 40')).toBe('wrote 40 more');
    const before = [db, `${db}-wal`, `${db}-shm`].map(fileState);
    // Every event so far is in the WAL only: the main file alone holds none of them.
    const mainOnly = join(dir, 'main-only.db');
    copyFileSync(db, mainOnly);
    expect(existsSync(`${mainOnly}-wal`)).toBe(false);
    expect(await collect(readSession({ harness: 'opencode', path: `${mainOnly}#${ids.read}` }))).toEqual([]);

    const path = `${db}#${ids.read}`;
    expect(await collect(readSession({ harness: 'opencode', path, strict: true }))).toEqual(expected.read.slice(0, 7));
    // Reading took no lock and wrote nothing: the database, its -wal and its -shm are byte for byte as they were.
    expect([db, `${db}-wal`, `${db}-shm`].map(fileState)).toEqual(before);

    // The writer commits while a read is in progress (between two events it gives).
    const lines: string[] = [];
    let committed = '';
    for await (const event of readSession({ harness: 'opencode', path, strict: true })) {
      if (lines.push(signature(event)) === 1) committed = await writer.ask('next 8');
    }
    expect(committed).toBe('wrote 48 all');
    expect(lines).toEqual(expected.read.slice(0, 7));
    expect(await collect(readSession({ harness: 'opencode', path, strict: true }))).toEqual(expected.read);
  });

  test('follow gives each committed row as it comes (checkpoints between) and ends at the finished turn', async () => {
    const { db, writer } = await liveDb();
    let handled = 0;
    const waiting: { count: number; resolve: () => void }[] = [];
    const follow = followSession({
      harness: 'opencode',
      path: `${db}#${ids.read}`,
      strict: true,
      endGraceMs: 100,
      onLine(line) {
        handled = line;
        for (const waiter of waiting.filter((w) => w.count <= handled)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve();
        }
      },
    });
    const until = (count: number) =>
      count <= handled ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }));
    const events: string[] = [];
    let eventWaiter: { count: number; resolve: () => void } | undefined;
    const reading = (async () => {
      for await (const event of follow) {
        events.push(signature(event));
        if (eventWaiter !== undefined && events.length >= eventWaiter.count) eventWaiter.resolve();
      }
    })();
    const eventsAtLeast = (count: number) =>
      events.length >= count ? Promise.resolve() : new Promise<void>((resolve) => (eventWaiter = { count, resolve }));
    for (let written = 0; written < writer.total;) {
      const answer = await writer.ask('next 6');
      written = Number(answer.split(' ')[1]);
      await until(written);
      if (written === 18) {
        // The events come as their rows are committed: the first step's text, read and usage, before row 19.
        await eventsAtLeast(3);
        expect(events).toEqual(expected.read.slice(0, 3));
      }
      // A checkpoint moves the committed rows into the main file and empties the WAL: nothing is read twice.
      if (written === 24) expect(await writer.ask('checkpoint')).toBe('checkpointed');
    }
    await reading;
    expect(events).toEqual(expected.read);
    expect(follow.metrics.input.rules['message.updated.1:finished']).toBe(1);
  });

  test('follow from the end of a session that is over gives nothing and ends after the quiet period', async () => {
    const follow = followSession({
      harness: 'opencode',
      path: `${fixtureDb('read')}#${ids.read}`,
      from: 'end',
      quietMs: 50,
    });
    expect(await collect(follow)).toEqual([]);
    expect(follow.metrics.input.lines).toBe(0);
  });

  test('a database deleted while it is followed is a session_deleted warning, and the follow ends', async () => {
    const { db, writer } = await liveDb();
    let handled = 0;
    let waiter: (() => void) | undefined;
    const follow = followSession({
      harness: 'opencode',
      path: `${db}#${ids.read}`,
      strict: true,
      onLine(line) {
        handled = line;
        if (handled >= 12) waiter?.();
      },
    });
    const events = collect(follow);
    expect(await writer.ask('next 12')).toBe('wrote 12 more');
    if (handled < 12) await new Promise<void>((resolve) => (waiter = resolve));
    // The writer still has it open; the files go away.
    for (const file of [`${db}-wal`, `${db}-shm`, db]) rmSync(file, { force: true });
    expect(await events).toEqual(['warning | session_deleted']);
  });

  test(
    'a database replaced by another (deleted and made again) is read ' + 'again from its start, with a warning',
    async () => {
      const { db, writer, dir } = await liveDb();
      let handled = 0;
      let waiter: (() => void) | undefined;
      const follow = followSession({
        harness: 'opencode',
        path: `${db}#${ids.read}`,
        endGraceMs: 50,
        onLine(line) {
          handled = line;
          if (handled >= 12) waiter?.();
        },
      });
      const events = collect(follow);
      expect(await writer.ask('next 12')).toBe('wrote 12 more');
      if (handled < 12) await new Promise<void>((resolve) => (waiter = resolve));
      // The first writer goes, its WAL with it; a second one writes the whole session into a new file, moved in.
      await writer.quit();
      for (const file of [`${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
      mkdirSync(join(dir, 'new'));
      const second = await startDbWriter(fixtureDb('read'), join(dir, 'new', 'opencode.db'));
      cleanup.push(() => second.quit());
      expect(await second.ask(`next ${second.total}`)).toBe(`wrote ${second.total} all`);
      expect(await second.ask('checkpoint')).toBe('checkpointed');
      renameSync(join(dir, 'new', 'opencode.db'), db);
      const lines = await events;
      expect(lines.filter((line) => line.startsWith('warning'))).toEqual(['warning | session_truncated']);
      expect(lines.slice(lines.indexOf('warning | session_truncated') + 1)).toEqual(expected.read);
    },
  );
});

describe('bad input in an OpenCode store', () => {
  test('a database that is not SQLite lists nothing, and reading it is an error naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-opencode-bad-'));
    try {
      const db = join(dir, '.local/share/opencode/opencode.db');
      mkdirSync(join(dir, '.local/share/opencode'), { recursive: true });
      writeFileSync(db, 'this is not a database, but long enough to have a header of a hundred bytes.'.repeat(3));
      expect(await listed('opencode', { home: dir })).toEqual([]);
      await expect(collect(readSession({ harness: 'opencode', path: `${db}#ses_x` }))).rejects.toThrow(
        `${db} is not a SQLite database`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(
    'a log row that is not JSON is a warning, an event type OpenCode ' + 'has not is unknown; the rest is read',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'harness-events-opencode-rows-'));
      try {
        const db = join(dir, 'opencode.db');
        const sql = (statement: string) =>
          execFileSync('python3', [
            '-c',
            'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2])',
            db,
            statement,
          ]);
        sql(
          'CREATE TABLE session (id text PRIMARY KEY, parent_id text, directory text, time_created integer, ' +
            'time_updated integer);' +
            'CREATE TABLE event (id text PRIMARY KEY, aggregate_id text, seq integer, type text, data text);' +
            "INSERT INTO session VALUES ('ses_a', NULL, '/w', 1, 2);" +
            "INSERT INTO event VALUES ('e1', 'ses_a', 0, 'message.part.updated.1', '{\"sessionID\": \"ses_a\", " +
            '"part": {\');' +
            "INSERT INTO event VALUES ('e2', 'ses_a', 1, 'session.renamed.9', '{\"sessionID\": \"ses_a\"}');" +
            "INSERT INTO event VALUES ('e3', 'ses_a', 2, 'message.part.updated.1', " +
            '\'{"sessionID": "ses_a", "part": {"id": "p", "type": "text", "text": "hi", "time": {"end": 1}}}\');',
        );
        const events = await collect(readSession({ harness: 'opencode', path: `${db}#ses_a` }));
        expect(events).toEqual(['warning | not_json', 'unknown session.renamed.9/', 'agent | hi']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
