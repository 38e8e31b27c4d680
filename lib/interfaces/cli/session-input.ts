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
  // A stored session's path names a database and a session in it (`<db>#<id>`): its format checks it.
  const stored = sessionFormats.get(harness)?.store !== undefined;
  if (!stored && !statSync(values.session, { throwIfNoEntry: false })?.isFile())
    throw new UsageError(`cannot read ${values.session}: not a file`);
  const source = await openSession(harness, values.session).catch((error: Error) => {
    // A stored session that is not there (no such database or session id) is the caller's mistake, like a file.
    throw stored ? new UsageError(`cannot read ${values.session}: ${error.message}`) : error;
  });
  return { input: source.input, reader: source.format.reader };
}
