/**
 * What a run's events say against what the agent really did: every path and working directory an event names is
 * checked on the workspace after the run (a successful read names a file that is there, a write a file the run
 * changed, a listing, search or command a folder that is there), and the session file the CLI wrote is read back
 * with the library.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import type { EventBody, HarnessEvent } from '../lib/kernel/events.js';
import { findSessions, readSession } from '../lib/runtime/sessions/sessions.js';
import type { Place } from './workspace.js';

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();
const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/**
 * What is wrong with the paths of `events`, one line each (none: all real). `changed` is the workspace's changed
 * files (run.changed), relative to it.
 */
export function pathProblems(events: readonly EventBody[], place: Place, changed: readonly string[]): string[] {
  const problems: string[] = [];
  const inside = (path: string) => path === place.workspace || path.startsWith(`${place.workspace}/`);
  const check = (event: EventBody, path: string | undefined, real: (path: string) => boolean, what: string) => {
    if (path === undefined) return;
    if (!inside(path)) problems.push(`${JSON.stringify(event)}: ${path} is outside the workspace`);
    else if (!real(path)) problems.push(`${JSON.stringify(event)}: ${path} is not ${what}`);
  };
  for (const event of events) {
    if (event.type === 'command') check(event, event.working_directory, isFolder, 'a folder');
    if (!('is_success' in event) || event.is_success !== true) continue;
    if (event.type === 'read') check(event, event.path, isFile, 'a file');
    else if (event.type === 'list' || event.type === 'search')
      check(event, event.path, (path) => existsSync(path), 'there');
    else if (event.type === 'write')
      check(event, event.path, (path) => isFile(path) && changed.includes(relative(place.workspace, path)), 'written');
  }
  return problems;
}

/** What is wrong with the files the run left (`leaves`: content, or null for a file that must not be there). */
export function leftProblems(leaves: Readonly<Record<string, string | null>>, place: Place): string[] {
  return Object.entries(leaves).flatMap(([path, content]) => {
    const there = isFile(place.path(path)) ? readFileSync(place.path(path), 'utf8') : null;
    return there === content ? [] : [`${path}: ${JSON.stringify(there)}, not ${JSON.stringify(content)}`];
  });
}

/** The events of the one session file the run wrote under its HOME, read back whole. */
export async function sessionEvents(harness: string, place: Place): Promise<HarnessEvent[]> {
  const paths: string[] = [];
  for await (const entry of findSessions({ home: place.home, harness })) paths.push(entry.path);
  if (paths.length !== 1) throw new Error(`${paths.length} sessions of ${harness} under ${place.home}, not one`);
  const events: HarnessEvent[] = [];
  for await (const event of readSession({ harness, path: paths[0]! })) events.push(event);
  return events;
}
