/**
 * The CLI's session commands: `sessions` lists the agents' own session files, `follow` reads one
 * as it is written, and `--session` makes `normalize`, `view` and `report` read one.
 */
import { UsageError } from './usage-error.js';
import { statSync } from 'node:fs';
import type { Duplex, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { RunMetrics } from '../../kernel/events.js';
import type { Harness } from '../../kernel/harness.js';
import { followSession } from '../../runtime/sessions/follow.js';
import { serialize } from '../../transforms/serialize.js';
import { sessionFormats } from '../../runtime/registry.js';
import { findSessions, openSession, type SessionEntry } from '../../runtime/sessions/sessions.js';

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

export const sessionsUsage = `  harness-events sessions [--home <dir>] [--harness <name>] [--json]
      Lists the sessions the agents saved under the home directory (default: yours), one
      per line: harness, id, start, last activity, size, live or not, working directory,
      path (what --session takes), its further files (part) and subagents indented below
      it. --json: one JSON object per session. Read: ${[...sessionFormats.keys()].join(', ')}.`;

/** `harness-events sessions`: one line (or JSON object) per session found. */
export async function sessionsCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { home: { type: 'string' }, harness: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { home, harness, json } = parsed.values;
  if (harness !== undefined && !sessionFormats.has(harness))
    throw new UsageError(`no session reader for "${harness}" (read: ${[...sessionFormats.keys()].join(', ')})`);
  for await (const entry of findSessions({ home, harness }))
    stdout.write(json ? JSON.stringify(entry) + '\n' : line(entry));
  return 0;
}

function line(entry: SessionEntry): string {
  const size = `${Math.ceil(entry.bytes / 1024)} KiB`;
  const fields = [entry.harness, entry.id, entry.started ?? '-', entry.updated, size, entry.live ? 'live' : 'ended'];
  const parts = (entry.parts ?? []).map((path) => `    part ${path}\n`).join('');
  const agents = entry.subagents.map((agent) => `    subagent ${agent.id} ${agent.path}\n`).join('');
  return `${fields.join('  ')}  ${entry.cwd ?? '-'}\n    ${entry.path}\n${parts}${agents}`;
}

export const followUsage = `  harness-events follow --harness <name> --session <path> [--new] [--format pretty]
  harness-events follow --latest [--harness <name>] [--home <dir>] [--new] [--format pretty]
      Follows a session as the agent writes it (whoever started it): its events as JSONL
      (or as view shows them), from its start or, with --new, only what comes from now on;
      --latest takes the session written last. Ends at the session's end marker (see
      docs/sessions.md), after 10 minutes with nothing written, when the file is deleted,
      or on Ctrl-C.`;

/** `harness-events follow`: a session's events as they are written, until it ends or Ctrl-C. */
export async function followCommand(
  args: string[],
  stdout: NodeJS.WritableStream,
  pretty: (metrics: RunMetrics) => Promise<Duplex>,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        harness: { type: 'string' },
        session: { type: 'string' },
        home: { type: 'string' },
        latest: { type: 'boolean' },
        new: { type: 'boolean' },
        format: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { harness, session, home, latest, format } = parsed.values;
  if (format !== undefined && format !== 'jsonl' && format !== 'pretty')
    throw new UsageError(`--format takes jsonl or pretty, got "${format}"`);
  if (harness !== undefined && !sessionFormats.has(harness))
    throw new UsageError(`no session reader for "${harness}" (read: ${[...sessionFormats.keys()].join(', ')})`);
  const target = latest
    ? await latestSession(home, harness)
    : session && harness
      ? { harness, path: session }
      : undefined;
  if (target === undefined)
    throw new UsageError(latest ? 'no session found to follow' : 'follow needs --harness and --session, or --latest');
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    const follow = followSession({ ...target, from: parsed.values.new ? 'end' : 'start', signal: controller.signal });
    const print = format === 'pretty' ? await pretty(follow.metrics) : serialize();
    await pipeline(follow, print, stdout, { end: false });
  } finally {
    process.removeListener('SIGINT', stop).removeListener('SIGTERM', stop);
  }
  return controller.signal.aborted ? 130 : 0;
}

async function latestSession(home: string | undefined, harness: string | undefined) {
  let latest: SessionEntry | undefined;
  for await (const entry of findSessions({ home, harness }))
    if (latest === undefined || entry.updated > latest.updated) latest = entry;
  return latest && { harness: latest.harness, path: latest.path };
}
