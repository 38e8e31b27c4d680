/**
 * The CLI's session commands: `sessions` lists the agents' own session files, `follow` reads one
 * as it is written, and `--session` makes `normalize`, `view` and `report` read one.
 */
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Harness } from '../../kernel/harness.js';
import { findSessions, openSession, sessionFormats, type SessionEntry } from '../../runtime/sessions.js';

/** The option `normalize`, `view` and `report` take to read a session file instead of FILE. */
export const sessionFlags = { session: { type: 'string' } } as const;

export class SessionUsageError extends Error {}

/** With --session: the session's records (subagents merged in) and the reader of its format; else undefined. */
export async function sessionInput(
  values: { session?: string; harness?: string },
  file: string | undefined,
): Promise<{ input: Readable; reader: Harness } | undefined> {
  if (values.session === undefined) return undefined;
  if (file !== undefined) throw new SessionUsageError('--session reads the session: give no FILE with it');
  const harness = values.harness;
  if (harness === undefined || !sessionFormats.has(harness))
    throw new SessionUsageError(`--session needs --harness, one of ${[...sessionFormats.keys()].join(', ')}`);
  if (!statSync(values.session, { throwIfNoEntry: false })?.isFile())
    throw new SessionUsageError(`cannot read ${values.session}: not a file`);
  const source = await openSession(harness, values.session);
  return { input: source.input, reader: source.format.reader };
}

export const sessionsUsage = `  harness-events sessions [--home <dir>] [--harness <name>] [--json]
      Lists the sessions the agents saved under the home directory (default: yours), one
      per line: harness, id, start, last activity, size, live or not, working directory,
      path (what --session takes), subagents indented below their parent. --json: one JSON
      object per session. Read: ${[...sessionFormats.keys()].join(', ')}.`;

/** `harness-events sessions`: one line (or JSON object) per session found. */
export async function sessionsCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { home: { type: 'string' }, harness: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (error) {
    throw new SessionUsageError((error as Error).message);
  }
  const { home, harness, json } = parsed.values;
  if (harness !== undefined && !sessionFormats.has(harness))
    throw new SessionUsageError(`no session reader for "${harness}" (read: ${[...sessionFormats.keys()].join(', ')})`);
  for await (const entry of findSessions({ home, harness }))
    stdout.write(json ? JSON.stringify(entry) + '\n' : line(entry));
  return 0;
}

function line(entry: SessionEntry): string {
  const size = `${Math.ceil(entry.bytes / 1024)} KiB`;
  const fields = [entry.harness, entry.id, entry.started ?? '-', entry.updated, size, entry.live ? 'live' : 'ended'];
  const agents = entry.subagents.map((agent) => `    subagent ${agent.id} ${agent.path}\n`).join('');
  return `${fields.join('  ')}  ${entry.cwd ?? '-'}\n    ${entry.path}\n${agents}`;
}
