/**
 * Helpers for the OpenCode and Kilo session stores: a real writer process (db-writer.py, python3's
 * sqlite3) replaying a captured database's change log into a live WAL database, one commit per
 * row, answering each command once it has committed; and the stats the tests compare to show the
 * reader wrote nothing.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

import { findSessions, type FindSessionsOptions, type SessionEntry } from '../../../lib/runtime/sessions/sessions.js';

const script = new URL('./db-writer.py', import.meta.url).pathname;

export interface DbWriter {
  child: ChildProcessWithoutNullStreams;
  /** The event rows the source has. */
  total: number;
  /** Sends a command and resolves with the writer's answer (after its commit). */
  ask(command: string): Promise<string>;
  /** Ends the writer without a checkpoint (the WAL stays as it is) and waits for it to exit. */
  quit(): Promise<void>;
}

export async function startDbWriter(source: string, target: string): Promise<DbWriter> {
  const child = spawn('python3', [script, source, target], { stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (command: string) => {
    const answer = await answers.next();
    if (answer.done === true) throw new Error(`the writer ended before answering ${command}`);
    return answer.value;
  };
  const ready = await next('start');
  return {
    child,
    total: Number(ready.split(' ')[1]),
    async ask(command) {
      child.stdin.write(command + '\n');
      return next(command);
    },
    async quit() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.stdin.end('quit\n');
      await exited;
    },
  };
}

/** A file's size, modification time and bytes: what reading must leave as it was. */
export function fileState(path: string): { size: number; mtimeMs: number; bytes: string } {
  const stats = statSync(path);
  return { size: stats.size, mtimeMs: stats.mtimeMs, bytes: readFileSync(path).toString('base64') };
}

/** The sessions findSessions lists for one harness. */
export async function listed(harness: string, options: FindSessionsOptions): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const session of findSessions({ ...options, harness })) entries.push(session);
  return entries;
}
