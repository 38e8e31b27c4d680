/** `harness-events follow`: a session's events as the agent writes them, until it ends or a stop signal. */
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { followSession } from '../../runtime/sessions/follow.js';
import { sessionFormats } from '../../runtime/registry.js';
import { findSessions, type SessionEntry } from '../../runtime/sessions/sessions.js';
import { serialize } from '../../transforms/serialize.js';
import { loadPretty } from './output.js';
import { UsageError } from './usage-error.js';

/** `harness-events follow`: a session's events as they are written, until it ends or Ctrl-C. */
export async function followCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
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
    const print = format === 'pretty' ? (await loadPretty({}, stdout))(follow.metrics) : serialize();
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
