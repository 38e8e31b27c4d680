/** `harness-events sessions`: the sessions the agents saved under a home directory, one per line or JSON object. */
import { parseArgs } from 'node:util';
import { sessionFormats } from '../../runtime/registry.js';
import { findSessions, type SessionEntry } from '../../runtime/sessions/sessions.js';
import { oneLine } from '../view/invisible.js';
import { commandHelp, writeHelp } from './help.js';
import { homeOption } from './session-input.js';
import { UsageError } from './usage-error.js';

/** `harness-events sessions`: one line (or JSON object) per session found. */
export async function sessionsCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        home: { type: 'string' },
        harness: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return writeHelp(stdout, commandHelp('sessions'));
  const { harness, json } = parsed.values;
  const home = homeOption(parsed.values.home);
  if (harness !== undefined && !sessionFormats.has(harness))
    throw new UsageError(`no session reader for "${harness}" (read: ${[...sessionFormats.keys()].join(', ')})`);
  for await (const entry of findSessions({ home, harness }))
    stdout.write(json ? JSON.stringify(entry) + '\n' : line(entry));
  return 0;
}

/**
 * A session's lines: each value as `oneLine` shows it, since they come from the files (a transcript's cwd, a store's
 * ids): an escape sequence would reach the terminal, a line break forge a line of the listing.
 */
function line(entry: SessionEntry): string {
  const size = `${Math.ceil(entry.bytes / 1024)} KiB`;
  const fields = [entry.harness, entry.id, entry.started ?? '-', entry.updated, size, entry.live ? 'live' : 'ended'];
  const parts = (entry.parts ?? []).map((path) => `    part ${oneLine(path)}\n`).join('');
  const agents = entry.subagents.map((agent) => `    subagent ${oneLine(agent.id)} ${oneLine(agent.path)}\n`).join('');
  const where = `${oneLine(entry.cwd ?? '-')}\n    ${oneLine(entry.path)}\n`;
  return `${fields.map(oneLine).join('  ')}  ${where}${parts}${agents}`;
}
