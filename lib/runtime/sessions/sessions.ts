/**
 * Sessions on disk: each harness's own session files (lib/harnesses/<name>/session.ts), found
 * under a home directory and read into the same events and metrics as the run's stdout.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { SessionEnv, SessionFormat, SessionLocation } from '../../kernel/session.js';
import { mergeLines } from './merge-lines.js';
import { sessionFormats } from '../registry.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { createNormalizer, type NormalizeOptions, type Normalizer } from '../normalizer.js';
import { fileFacts } from './session-facts.js';
import { storeFacts, storeInput } from './session-store.js';

/** A session found on disk: what `harness-events sessions --json` prints, one per line. */
export interface SessionEntry {
  /** The harness whose session it is (`claude-code`, `codex`, ...). */
  harness: string;
  /** The harness's session id. */
  id: string;
  /** The main file: what `readSession`, `followSession` and `--session` take. */
  path: string;
  /** The working directory its first record names, if any. */
  cwd?: string;
  /** The first and last record times (ISO 8601); the file's modification time when its records have none. */
  started?: string;
  /** The last record time (ISO 8601); the file's modification time when its records have none. */
  updated: string;
  /** The bytes of its files, subagents' included. */
  bytes: number;
  /** Whether it is still being written: a file of it changed within `liveWithinMs`. */
  live: boolean;
  /** Its subagents' transcripts (Claude Code: read merged into it; Codex: each read on its own). */
  subagents: {
    /** The subagent's id. */
    id: string;
    /** Its transcript file. */
    path: string;
    /** The transcript's size in bytes. */
    bytes: number;
  }[];
  /** Further files of the same session, read with its main file (Gemini CLI: a resume in a later minute). */
  parts?: string[];
}

/** Where {@link findSessions} looks, and which sessions it lists. */
export interface FindSessionsOptions {
  /** The home directory whose agents' files are searched. Default: the user's. */
  home?: string;
  /**
   * The variables that move an agent's files away from the home (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, ...; each
   * harness's docs page names its own). Default: `process.env` when `home` is not given, none when it is (a home
   * given is searched as the agents lay it out).
   */
  env?: SessionEnv;
  /** Only this harness's sessions. */
  harness?: string;
  /** A session whose files changed this recently (ms) is live. Default 60,000. */
  liveWithinMs?: number;
  /**
   * Told of each session left out because its main file cannot be read (its mode, or deleted since it was listed),
   * of each subagent's or part's file left out of its session for the same reason, and of each store kept in a layout
   * the reader does not know (OpenCode 2.x's tables); the listing goes on. Default: `process.emitWarning`.
   */
  onWarning?: (message: string) => void;
}

const DEFAULT_LIVE_WITHIN_MS = 60_000;

/** The latest of some times (ISO 8601, any zone or precision), by the instant each names; unparsable ones last. */
export function latestTime(times: readonly string[]): string | undefined {
  let latest: string | undefined;
  let latestMs = -Infinity;
  for (const time of times) {
    const ms = Date.parse(time);
    if (latest === undefined || ms > latestMs) [latest, latestMs] = [time, Number.isNaN(ms) ? -Infinity : ms];
  }
  return latest;
}

/** The session format of a harness, or a TypeError naming the ones there are. */
export function sessionFormat(harness: string): SessionFormat {
  const format = sessionFormats.get(harness);
  if (format === undefined)
    throw new TypeError(
      `no session reader for harness "${harness}" (sessions are read for ${[...sessionFormats.keys()].join(', ')})`,
    );
  return format;
}

/**
 * Every session under the home, harness by harness.
 *
 * @example
 * ```ts
 * for await (const session of findSessions({ harness: 'claude-code' })) console.log(session.id, session.path);
 * ```
 */
export async function* findSessions(options: FindSessionsOptions = {}): AsyncGenerator<SessionEntry> {
  const home = resolve(options.home ?? homedir());
  const env = options.env ?? (options.home === undefined ? process.env : {});
  const formats = options.harness === undefined ? [...sessionFormats.values()] : [sessionFormat(options.harness)];
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'SessionWarning'));
  for (const format of formats) {
    // A store in a layout the reader does not know is said, not listed as nothing.
    for (const message of (await format.drift?.(home, env)) ?? []) warn(message);
    for await (const location of format.find(home, env)) {
      const entry = await describe(format, location, options, warn).catch((error: NodeJS.ErrnoException) => {
        warn(`${format.harness} session ${JSON.stringify(location.path)} left out: ${unreadable(error)}`);
      });
      if (entry !== undefined) yield entry;
    }
  }
}

/** Why a file could not be read, in a few words (its code; the path is said by the caller). */
const unreadable = (error: NodeJS.ErrnoException) => error.code ?? error.message;

async function describe(
  format: SessionFormat,
  location: SessionLocation,
  options: FindSessionsOptions,
  warn: (message: string) => void,
): Promise<SessionEntry> {
  const { store } = format;
  const factsOf = (id: string, path: string) =>
    store ? storeFacts(store, { id, path, subagents: [] }) : fileFacts(path, format.facts);
  const main = await factsOf(location.id, location.path);
  // A subagent's or a part's file that cannot be read is left out of its session, which is listed without it.
  const readable = async <T>(path: string, read: () => Promise<T>): Promise<T[]> =>
    read().then(
      (value) => [value],
      (error: NodeJS.ErrnoException) => {
        warn(`${format.harness} file ${JSON.stringify(path)} left out of its session: ${unreadable(error)}`);
        return [];
      },
    );
  const parts = (
    await Promise.all((location.parts ?? []).map((path) => readable(path, () => fileFacts(path, format.facts))))
  ).flat();
  const subagents = (
    await Promise.all(
      location.subagents.map((agent) =>
        readable(agent.path, async () => ({ ...agent, facts: await factsOf(agent.id, agent.path) })),
      ),
    )
  ).flat();
  const mtime = Math.max(main.mtimeMs, ...parts.map((part) => part.mtimeMs), ...subagents.map((a) => a.facts.mtimeMs));
  // The latest of the files' last times, by the instant each names (as strings, a time without milliseconds or in
  // another zone would sort wrong).
  const updated = latestTime([main, ...parts].flatMap((file) => (file.updated === undefined ? [] : [file.updated])));
  const liveWithin = options.liveWithinMs ?? DEFAULT_LIVE_WITHIN_MS;
  const entry: SessionEntry = {
    harness: format.harness,
    id: main.id ?? location.id,
    path: location.path,
    cwd: main.cwd ?? location.cwd,
    started: main.started,
    updated: updated ?? new Date(main.mtimeMs).toISOString(),
    bytes: [main, ...parts, ...subagents.map((agent) => agent.facts)].reduce((sum, file) => sum + file.bytes, 0),
    live: Date.now() - mtime < liveWithin,
    subagents: subagents.map((agent) => ({ id: agent.id, path: agent.path, bytes: agent.facts.bytes })),
  };
  if (location.parts !== undefined && location.parts.length > 0) entry.parts = [...location.parts];
  if (entry.cwd === undefined) delete entry.cwd;
  if (entry.started === undefined) delete entry.started;
  return entry;
}

interface SessionSource {
  readonly format: SessionFormat;
  readonly location: SessionLocation;
  /** The session's records as JSONL bytes (subagents merged in by time, for the formats that do). */
  readonly input: Readable;
}

/** A session's records as one stream, and the format that reads them. */
export async function openSession(harness: string, path: string): Promise<SessionSource> {
  const format = sessionFormat(harness);
  const location = await format.locate(resolve(path));
  if (format.store) return { format, location, input: storeInput(format.store, location) };
  const files = [
    location.path,
    ...(location.parts ?? []),
    ...(format.mergesSubagents ? location.subagents.map((agent) => agent.path) : []),
  ];
  return { format, location, input: mergeLines(files, (record) => format.facts(record).time) };
}

/** The session file {@link readSession} reads, and the normalizer's options (`cwd` defaults to the session's). */
export interface ReadSessionOptions extends Omit<NormalizeOptions, 'harness' | 'idleFlushMs'> {
  /** The harness whose session file this is, by registry name. */
  harness: string;
  /** The session's main file (`SessionEntry.path`). */
  path: string;
}

/**
 * A session file read into the events and metrics normalizing the run's stdout gives, but for
 * the differences the harness's docs page lists. A file that cannot be read ends the stream with
 * its error.
 */
export function readSession(options: ReadSessionOptions & { output?: 'objects'; trace?: false }): Normalizer;
/** A session file read into the trace stream (docs/contract.md "Trace stream"), with the records' own times. */
export function readSession(options: ReadSessionOptions & { output?: 'objects'; trace: true }): Normalizer<TraceRecord>;
/** A session file read into JSON lines: the events', or with `trace: true` the trace's. */
export function readSession(options: ReadSessionOptions & { output: 'jsonl' }): Normalizer<Buffer>;
export function readSession(options: ReadSessionOptions): Normalizer<unknown> {
  const { path, harness, ...rest } = options;
  const format = sessionFormat(harness);
  const normalizer = createNormalizer({
    ...rest,
    cwd: rest.cwd ?? format.cwdOf?.(resolve(path)),
    harness: format.reader,
  });
  openSession(harness, path).then(
    (source) => pipeline(source.input, normalizer, () => {}),
    (error: Error) => normalizer.destroy(error),
  );
  return normalizer;
}
