/** `harness-events follow`: a session's events as the agent writes them, until it ends or a stop signal. */
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { followSession } from '../../runtime/sessions/follow.js';
import { sessionFormats } from '../../runtime/registry.js';
import { findSessions, latestTime, type SessionEntry } from '../../runtime/sessions/sessions.js';
import { serialize } from '../../transforms/serialize.js';
import { otlpUrl, startExporting } from './otel.js';
import { loadPretty, readerGone, reportFailure } from './output.js';
import { checkSessionFile, homeOption } from './session-input.js';
import { trapStopSignals } from './signals.js';
import { commandHelp, writeHelp } from './help.js';
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
        otlp: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return writeHelp(stdout, commandHelp('follow'));
  const { harness, session, latest, format } = parsed.values;
  const home = homeOption(parsed.values.home);
  const url = otlpUrl(parsed.values.otlp);
  if (format !== undefined && format !== 'jsonl' && format !== 'pretty' && format !== 'trace')
    throw new UsageError(`--format takes jsonl, pretty or trace, got "${format}"`);
  if (harness !== undefined && !sessionFormats.has(harness))
    throw new UsageError(`no session reader for "${harness}" (read: ${[...sessionFormats.keys()].join(', ')})`);
  const target = latest
    ? await latestSession(home, harness)
    : session && harness
      ? await checkedTarget(harness, session)
      : undefined;
  if (target === undefined)
    throw new UsageError(latest ? 'no session found to follow' : 'follow needs --harness and --session, or --latest');
  const controller = new AbortController();
  const signals = trapStopSignals(() => controller.abort());
  // A session's records carry the agent's own times; what it wrote before now is read back.
  const exporting =
    parsed.values.otlp === undefined
      ? undefined
      : await startExporting({
          url,
          kind: 'internal',
          clock: 'harness',
          harness: target.harness,
          // What is printed: the records themselves with --format trace, else the events.
          pass: (record) => (format === 'trace' ? record : record.kind === 'event' ? record.event : undefined),
        });
  let lost: string | undefined;
  try {
    const from = parsed.values.new ? 'end' : 'start';
    const trace = format === 'trace' || exporting !== undefined;
    const follow = followSession({ ...target, from, signal: controller.signal, trace });
    const print = format === 'pretty' ? (await loadPretty({}, stdout))(follow.metrics) : serialize();
    await pipeline([follow, ...(exporting ? [exporting.stage] : []), print, stdout], { end: false });
  } catch (error) {
    // A file that went away or was damaged mid-follow: one line, as the other commands say a read error.
    if (!readerGone(error as Error)) return reportFailure(error as Error, signals.exitCode ?? 1);
  } finally {
    signals.off();
    lost = await exporting?.finish();
  }
  if (lost !== undefined) return reportFailure(new Error(lost), 1);
  return signals.exitCode ?? 0;
}

/** --harness and --session, checked as `normalize --session` checks them: a usage error, not a stack trace. */
async function checkedTarget(harness: string, path: string) {
  if (checkSessionFile(harness, path))
    await sessionFormats
      .get(harness)!
      .locate(resolve(path))
      .catch((error: Error) => {
        throw new UsageError(`cannot read ${path}: ${error.message}`);
      });
  return { harness, path };
}

async function latestSession(home: string | undefined, harness: string | undefined) {
  let latest: SessionEntry | undefined;
  for await (const entry of findSessions({ home, harness }))
    if (latest === undefined || latestTime([latest.updated, entry.updated]) !== latest.updated) latest = entry;
  return latest && { harness: latest.harness, path: latest.path };
}
