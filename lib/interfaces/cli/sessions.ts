/** `harness-events sessions`: the sessions the agents saved under a home directory, one per line or JSON object. */
import { parseArgs } from 'node:util';
import { sessionFormats } from '../../runtime/registry.js';
import { findSessions, type SessionEntry } from '../../runtime/sessions/sessions.js';
import { UsageError } from './usage-error.js';

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
