/**
 * OpenCode's session store (and Kilo's, the same schema): one SQLite database for every project,
 * `$XDG_DATA_HOME/opencode/opencode.db` (`opencode-<channel>.db` for other release channels,
 * `OPENCODE_DB` overriding it). A session is a `session` row; a subagent is a row whose
 * `parent_id` names its parent, listed with the root session it descends from. What a session
 * says is read from its change log, the `event` table (every state of every part in the order it
 * was written: what `run --format json` printed is among them), read without SQLite and without
 * a lock (lib/sqlite/). A session's path is `<database>#<session id>`.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import {
  envDir,
  type SessionEnv,
  type SessionLocation,
  type SessionStore,
  type StoreFacts,
} from '../../kernel/session.js';
import { filesIn } from '../../files/session-dirs.js';
import { lastRow, readTable, tableNames } from '../../sqlite/database.js';

/** Where one fork keeps its database. */
export interface StoreLayout {
  /** The directory under `$XDG_DATA_HOME` (`opencode`, `kilo`). */
  readonly dir: string;
  /** The database's name for the default channels, and for others (`opencode.db`, `opencode-<channel>.db`). */
  readonly names: RegExp;
  /** The variable that names the database (`OPENCODE_DB`): an absolute path or a name in the data directory. */
  readonly dbEnv: string;
}

/** The separator between the database and the session id in a session's path. */
const SEPARATOR = '#';

/** The databases under a home (or the one the variable names); `:memory:` names none on disk. */
export async function databases(layout: StoreLayout, home: string, env: SessionEnv): Promise<string[]> {
  const dataDir = join(envDir(env, 'XDG_DATA_HOME') ?? join(home, '.local', 'share'), layout.dir);
  const named = env[layout.dbEnv];
  if (named === ':memory:') return [];
  if (named !== undefined && named !== '') {
    const path = isAbsolute(named) ? named : join(dataDir, named);
    return (await stat(path).catch(() => undefined))?.isFile() ? [path] : [];
  }
  return filesIn(dataDir, layout.names);
}

/** The sessions of a database: root sessions, each with every session below it as a subagent. */
async function* sessionsIn(db: string): AsyncGenerator<SessionLocation> {
  const parents = new Map<string, string | undefined>();
  for await (const row of readTable(db, 'session')) {
    if (typeof row.id === 'string') parents.set(row.id, typeof row.parent_id === 'string' ? row.parent_id : undefined);
  }
  yield* grouped(db, parents);
}

/**
 * The databases whose sessions are kept where this reader does not look (OpenCode 2.x moved them to `session_v2`),
 * or that have no `session` or `event` table: one message each, naming the tables and the store's last migration
 * (its layout's version).
 */
export async function storeDrift(cli: string, dbs: readonly string[]): Promise<string[]> {
  const messages: string[] = [];
  for (const db of dbs) {
    const tables = await tableNames(db).catch(() => undefined);
    if (tables === undefined) continue;
    const missing = ['session', 'event'].filter((name) => !tables.includes(name));
    if (!tables.includes('session_v2') && missing.length === 0) continue;
    const layout = tables.includes('session_v2')
      ? 'a session_v2 table (the 2.x layout)'
      : `no ${missing.join(' or ')} table`;
    const version = await lastMigration(db);
    messages.push(
      `${cli} store ${JSON.stringify(db)} has ${layout}, migration ${version ?? '(none named)'}: a layout this ` +
        'reader does not read, its sessions are not listed',
    );
  }
  return messages;
}

/** The store's newest migration id (`20260622202450_simplify_session_input`): the version of its layout. */
async function lastMigration(db: string): Promise<string | undefined> {
  let last: string | undefined;
  try {
    for await (const row of readTable(db, 'migration'))
      if (typeof row.id === 'string' && row.id > (last ?? '')) last = row.id;
  } catch {
    // A store whose migrations cannot be read is named without one.
  }
  return last;
}

/** The sessions of every database that can be read: one that is damaged or not SQLite lists nothing. */
export async function* readableSessions(dbs: readonly string[]): AsyncGenerator<SessionLocation> {
  for (const db of dbs) {
    const found: SessionLocation[] = [];
    try {
      for await (const location of sessionsIn(db)) found.push(location);
    } catch {
      // Reading it says why (`readSession` on its path); the listing goes on with the others.
      continue;
    }
    yield* found;
  }
}

function* grouped(db: string, parents: ReadonlyMap<string, string | undefined>): Generator<SessionLocation> {
  const rootOf = (id: string): string => {
    const seen = new Set<string>();
    let at = id;
    // A parent that is gone (deleted) makes its child a root; a cycle stops where it closes.
    for (let parent = parents.get(at); parent !== undefined && parents.has(parent) && !seen.has(parent);) {
      seen.add(at);
      at = parent;
      parent = parents.get(at);
    }
    return at;
  };
  const below = new Map<string, string[]>();
  for (const id of parents.keys()) {
    const root = rootOf(id);
    if (root !== id) below.set(root, [...(below.get(root) ?? []), id]);
  }
  for (const id of parents.keys()) {
    if (rootOf(id) !== id) continue;
    const subagents = (below.get(id) ?? []).map((child) => ({ id: child, path: pathOf(db, child) }));
    yield { id, path: pathOf(db, id), subagents };
  }
}

const pathOf = (db: string, id: string) => `${db}${SEPARATOR}${id}`;

/** The database and session id of a session's path; a path without `#<id>` names no session. */
function splitPath(path: string): { db: string; id: string } {
  const at = path.lastIndexOf(SEPARATOR);
  if (at <= 0 || at === path.length - 1)
    throw new TypeError(`${path} names no session: give <database>${SEPARATOR}<session id> (harness-events sessions)`);
  return { db: path.slice(0, at), id: path.slice(at + 1) };
}

export async function locate(path: string): Promise<SessionLocation> {
  const { db, id } = splitPath(path);
  for await (const location of sessionsIn(db)) {
    if (location.id === id) return location;
    const agent = location.subagents.find((subagent) => subagent.id === id);
    // A subagent's own path reads that session alone: its parent's events are not its.
    if (agent !== undefined) return { id, path, subagents: [] };
  }
  throw new Error(`no session ${id} in ${db}`);
}

const iso = (ms: unknown) => (typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined);

interface SessionRow {
  readonly cwd?: string;
  readonly created?: number;
  readonly updated?: number;
}

/** What the listing says of each session of one database state: its row's times and cwd, its log's bytes. */
interface Summary {
  readonly sessions: ReadonlyMap<string, SessionRow>;
  readonly bytes: ReadonlyMap<string, number>;
}

/** The last database summed up, for the listing of its sessions one after another. */
let summed: { db: string; stamp: string; summary: Summary } | undefined;

/** One scan of `session` and one of `event` per database state (its and its -wal's size and mtime). */
async function summary(db: string): Promise<Summary> {
  const stamps = await Promise.all([db, `${db}-wal`].map((file) => stat(file).catch(() => undefined)));
  const stamp = stamps.map((found) => `${found?.size}:${found?.mtimeMs}`).join('/');
  if (summed?.db === db && summed.stamp === stamp) return summed.summary;
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const sessions = new Map<string, SessionRow>();
  for await (const row of readTable(db, 'session')) {
    if (typeof row.id !== 'string') continue;
    const cwd = typeof row.directory === 'string' ? row.directory : undefined;
    sessions.set(row.id, { cwd, created: number(row.time_created), updated: number(row.time_updated) });
  }
  const bytes = new Map<string, number>();
  try {
    for await (const row of readTable(db, 'event')) {
      if (typeof row.aggregate_id === 'string' && typeof row.data === 'string')
        bytes.set(row.aggregate_id, (bytes.get(row.aggregate_id) ?? 0) + Buffer.byteLength(row.data));
    }
  } catch {
    // A damaged log: its sessions are still listed (sizes as far as read); reading one names the damage.
  }
  summed = { db, stamp, summary: { sessions, bytes } };
  return summed.summary;
}

/** A session's log rows in the order they were written (read through `event_aggregate_seq_idx` when it is there). */
const where = (id: string) => ({ column: 'aggregate_id', value: id, orderBy: 'seq' });

/** The store of a layout: its sessions' rows and change log. */
export const store: SessionStore = {
  async describe(location) {
    const { db } = splitPath(location.path);
    const { sessions, bytes } = await summary(db);
    const row = sessions.get(location.id);
    const facts: StoreFacts = {
      cwd: row?.cwd,
      started: iso(row?.created),
      updated: iso(row?.updated),
      bytes: bytes.get(location.id) ?? 0,
      mtimeMs: row?.updated ?? 0,
    };
    return facts;
  },
  async *records(location, after) {
    const { db } = splitPath(location.path);
    // A first read through the index (the session's rows, not the table's); a follow's next poll by rowid from its
    // cursor: the few rows written since, where the index would walk all of the session's again.
    const filter = after === undefined ? where(location.id) : { column: 'aggregate_id', value: location.id };
    for await (const row of readTable(db, 'event', after, filter)) {
      // `data` is the stored JSON text, given as it is: a row that is not JSON becomes the reader's warning.
      // A raw line break can only be JSON whitespace (one inside a string is not JSON): it must not split the line.
      const data = String(row.data).replace(/[\r\n]/g, ' ');
      // `data` first: a damaged value that holds `…,"type":…` cannot stand for the row's own, which come after it.
      const line = `{"data":${data},"type":${JSON.stringify(row.type)},"seq":${String(row.seq)}}`;
      yield { line, cursor: row.rowid };
    }
  },
  end: (location) => lastRow(splitPath(location.path).db, 'event'),
  files(location) {
    const { db } = splitPath(location.path);
    return [db, `${db}-wal`];
  },
};
