/**
 * The seam between the runtime's session commands (lib/runtime/sessions/sessions.ts) and one harness's
 * own session files: where they live under a home directory, which files make up one session,
 * what a record says about the session (for the listing), and the reader that turns the records
 * into events. The reader is a `Harness` like the stdout one (its own record table, the same
 * tool table), so a session file goes through the same stages as a captured stdout.
 */
import { resolve } from 'node:path';
import type { Harness } from './harness.js';
import { isObject } from './json.js';

/** One session as a harness's format finds it on disk, before the runtime reads its times. */
export interface SessionLocation {
  /** The session id (the one stdout reports as the run's session). */
  readonly id: string;
  /** The main file: what `readSession` and the CLI's `--session` take. */
  readonly path: string;
  /** Subagent transcripts that belong to it (listed with their parent, read merged into it). */
  readonly subagents: readonly {
    /** The subagent's id. */
    readonly id: string;
    /** Its transcript file. */
    readonly path: string;
  }[];
  /**
   * Further files of the same session, read merged with the main file by time and counted in its listing (Gemini CLI:
   * a `--resume` in a later minute starts a second file of the same session id).
   */
  readonly parts?: readonly string[];
  /** The working directory the format knows from where the files are, when no record names one (Gemini CLI). */
  readonly cwd?: string;
}

/** What one record tells the listing about its session; each field only when the record has it. */
export interface RecordFacts {
  /** The working directory the record names. */
  readonly cwd?: string;
  /** An ISO 8601 time. */
  readonly time?: string;
  /** The session id the record names. */
  readonly id?: string;
}

/** The facts of a record that names them as `cwd`, `timestamp` and `sessionId` (Claude Code's and Qwen Code's). */
export function transcriptFacts(record: unknown): RecordFacts {
  if (!isObject(record)) return {};
  return {
    cwd: typeof record.cwd === 'string' ? record.cwd : undefined,
    time: typeof record.timestamp === 'string' ? record.timestamp : undefined,
    id: typeof record.sessionId === 'string' ? record.sessionId : undefined,
  };
}

/** The environment a format reads to find its files (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, ...). */
export type SessionEnv = Readonly<Record<string, string | undefined>>;

/** The variable's value as an absolute directory, or undefined when it is unset or empty. */
export function envDir(env: SessionEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : resolve(value);
}

/**
 * How one harness keeps its sessions on disk (docs/sessions.md): where the files are, how to find and read them, and
 * what marks a session's end. Each harness's folder has its own (`session.ts`); `sessionFormats` lists them.
 */
export interface SessionFormat {
  /** The harness whose files these are (a registry name). */
  readonly harness: string;
  /** The session files' directory under a home, for the docs (`.claude/projects/<project>/<id>.jsonl`). */
  readonly where: string;
  /** Reads the records into events: its own record table, the harness's tool table. */
  readonly reader: Harness;
  /**
   * The sessions under `home`, in no particular order; nothing when the harness never ran there. `env` holds the
   * variables that move the harness's files away from `home` (the ones `env` below names).
   */
  find(home: string, env: SessionEnv): AsyncIterable<SessionLocation>;
  /** The environment variables that move its files, in the order they take precedence (for the docs). */
  readonly env: readonly string[];
  /**
   * The working directory a session's place on disk says, for a format whose records name none (Gemini CLI's project
   * root): relative paths in its events resolve against it. Synchronous, as a reader's working directory is fixed
   * when it is made.
   */
  cwdOf?(path: string): string | undefined;
  /** The session a main file belongs to (for a path given on a command line). */
  locate(path: string): Promise<SessionLocation>;
  /**
   * Whether reading a session merges its subagents' files into it by time (Claude Code: one run, one usage total), or
   * reads the main file alone (Codex: a sub-agent is a thread of its own, with its own turns and totals; its file is
   * read as a session of its own).
   */
  readonly mergesSubagents: boolean;
  /** What a parsed record says of its session. */
  facts(record: unknown): RecordFacts;
  /**
   * The reader's rule ids that mean the session's process has ended (Claude Code's `cost-state`): `follow` stops at one
   * when nothing more is written within its grace period.
   */
  readonly endRules: ReadonlySet<string>;
  /**
   * Set for a format whose sessions are rows of a database rather than JSONL files (OpenCode's and Kilo's SQLite
   * store): the listing, `readSession` and `follow` ask it for the session's facts and records instead of reading
   * `path` as a file. `facts` is then not used.
   */
  readonly store?: SessionStore;
  /**
   * What under `home` is kept in a layout the reader does not know (a newer CLI's store), one message each naming
   * it: the listing warns rather than finding nothing.
   */
  drift?(home: string, env: SessionEnv): Promise<string[]>;
}

/** What the listing says of a session kept in a store (a file's facts, for files). */
export interface StoreFacts {
  /** The session's working directory, when the store keeps one. */
  readonly cwd?: string;
  /** ISO 8601 times. */
  readonly started?: string;
  /** When the session's last record was written (ISO 8601). */
  readonly updated?: string;
  /** The bytes of its own records (a subagent is described on its own). */
  readonly bytes: number;
  /** When it was last written (epoch ms): what `live` is judged by. */
  readonly mtimeMs: number;
}

/** One record of a store, as the JSONL line its reader takes, and the cursor to read on after it. */
export interface StoreRecord {
  /** The record as one JSONL line. */
  readonly line: string;
  /** Where the store reads on from after it. */
  readonly cursor: bigint;
}

/** Sessions kept in a database rather than in files (OpenCode's and Kilo's SQLite store), read record by record. */
export interface SessionStore {
  /** What the listing says of one session, its subagents left out (each is described on its own). */
  describe(location: SessionLocation): Promise<StoreFacts>;
  /** The session's records committed after `cursor` (from its first without one), in the order they were written. */
  records(location: SessionLocation, after?: bigint): AsyncIterable<StoreRecord>;
  /** The cursor after the newest record now: following from the end reads on from it. */
  end(location: SessionLocation): Promise<bigint | undefined>;
  /** The files a commit changes (the database and its `-wal`): `follow` watches their directory. */
  files(location: SessionLocation): readonly string[];
}
