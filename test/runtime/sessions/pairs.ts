/**
 * Paired captures (test/fixtures/<harness>/transcripts/<scenario>/, TRANSCRIPTS.md there): the
 * events of the run's stdout and of its session files, each as one comparable line, so a test
 * lists the documented differences and asserts that nothing else differs.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalize, type HarnessName } from '../../../lib/index.js';
import type { HarnessEvent, RunMetrics } from '../../../lib/kernel/events.js';
import { readSession } from '../../../lib/runtime/sessions/sessions.js';
import { fixturePath } from '../../helpers.js';

/** An event as the equivalence compares it: type, then path, command, query or code, then success. */
export function signature(event: HarnessEvent): string {
  const e = event as HarnessEvent & Record<string, unknown>;
  if (e.type === 'unknown') {
    const raw = e.raw as { type?: string; subtype?: string; tool_use?: { name?: string } };
    return raw?.tool_use?.name !== undefined
      ? `unknown tool ${raw.tool_use.name}`
      : `unknown ${raw?.type}/${raw?.subtype ?? ''}`;
  }
  const what = e.path ?? e.command ?? e.query ?? e.code ?? (typeof e.message === 'string' ? e.message : undefined);
  return [e.type, what, e.is_success].filter((part) => part !== undefined).join(' | ');
}

export interface Pair {
  stdout: { events: HarnessEvent[]; metrics: RunMetrics };
  session: { events: HarnessEvent[]; metrics: RunMetrics };
}

export const transcripts = (harness: string, scenario: string) => fixturePath(`${harness}/transcripts/${scenario}/`);

export async function readPair(
  fixtures: string,
  harness: HarnessName,
  scenario: string,
  session: string,
  /** The stdout files of the runs that wrote the session, in order (a resumed session has one per run). */
  stdouts = ['stdout.jsonl'],
): Promise<Pair> {
  const dir = transcripts(fixtures, scenario);
  // Every capture ran in /home/user/project (TRANSCRIPTS.md): stdout normalized as spawnHarness would, with that cwd.
  const out = normalize(Readable.from(stdouts.map((file) => readFileSync(join(dir, file)))), {
    harness,
    strict: true,
    cwd: '/home/user/project',
  });
  const stdoutEvents: HarnessEvent[] = [];
  for await (const event of out) stdoutEvents.push(event);
  const read = readSession({ harness, path: join(dir, 'home', session), strict: true });
  const sessionEvents: HarnessEvent[] = [];
  for await (const event of read) sessionEvents.push(event);
  return {
    stdout: { events: stdoutEvents, metrics: out.metrics },
    session: { events: sessionEvents, metrics: read.metrics },
  };
}

/** A capture's home copied into a temp dir (the test sets times on it and removes it). */
export function copyHome(fixtures: string, scenario: string): string {
  const home = mkdtempSync(join(tmpdir(), 'harness-events-sessions-'));
  cpSync(join(transcripts(fixtures, scenario), 'home'), home, { recursive: true });
  return home;
}
