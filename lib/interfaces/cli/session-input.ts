/** `--session`: `normalize`, `view` and `report` read an agent's own session file instead of FILE. */
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Harness } from '../../kernel/harness.js';
import { sessionFormats } from '../../runtime/registry.js';
import { openSession } from '../../runtime/sessions/sessions.js';
import { UsageError } from './usage-error.js';

/** The option `normalize`, `view` and `report` take to read a session file instead of FILE. */
export const sessionFlags = { session: { type: 'string' } } as const;

/** With --session: the session's records (subagents merged in) and the reader of its format; else undefined. */
export async function sessionInput(
  values: { session?: string; harness?: string },
  file: string | undefined,
): Promise<{ input: Readable; reader: Harness } | undefined> {
  if (values.session === undefined) return undefined;
  if (file !== undefined) throw new UsageError('--session reads the session: give no FILE with it');
  const harness = values.harness;
  if (harness === undefined || !sessionFormats.has(harness))
    throw new UsageError(`--session needs --harness, one of ${[...sessionFormats.keys()].join(', ')}`);
  const stored = checkSessionFile(harness, values.session);
  const source = await openSession(harness, values.session).catch((error: Error) => {
    // A stored session that is not there (no such database or session id) is the caller's mistake, like a file.
    throw stored ? new UsageError(`cannot read ${values.session}: ${error.message}`) : error;
  });
  return { input: source.input, reader: source.format.reader };
}

/**
 * Checks, before anything opens it, that a session's path names a regular file: not a FIFO (open() would wait for a
 * writer, deaf to Ctrl-C), a directory or nothing; for a stored session (`<db>#<id>`), its database (then its format
 * checks the id). A usage error if not; true for a stored session.
 */
export function checkSessionFile(harness: string, path: string): boolean {
  const stored = sessionFormats.get(harness)?.store !== undefined;
  const file = stored && path.includes('#') ? path.slice(0, path.lastIndexOf('#')) : path;
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`cannot read ${path}: not a file`);
  return stored;
}

/** --home for `sessions` and `follow --latest`: a directory that is there, else a usage error (not an empty list). */
export function homeOption(home: string | undefined): string | undefined {
  if (home === undefined) return undefined;
  const stats = statSync(home, { throwIfNoEntry: false });
  if (stats === undefined) throw new UsageError(`--home ${home} does not exist`);
  if (!stats.isDirectory()) throw new UsageError(`--home ${home} is not a directory`);
  return home;
}
