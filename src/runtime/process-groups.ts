/**
 * Nothing a run started outlives this process. Each harness runs in a process group of its own
 * (spawned `detached`), so one signal reaches everything it started. The groups still alive
 * are remembered here, and when this process ends (its event loop empties, `process.exit()`, an
 * uncaught exception, or a signal it has no handler for: SIGINT, SIGTERM, SIGHUP, SIGQUIT, ...)
 * each gets SIGKILL: a process that is going away cannot wait out a grace period.
 *
 * signal-exit, not our own signal listeners: a host that handles a signal itself keeps it (the
 * hook stays out of the way while any other listener exists), and two libraries that each
 * wait for "the other listener" to act would together swallow the signal; signal-exit keeps one
 * count shared by every copy of it loaded (execa's `cleanup` uses it), so exactly one acts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { onExit } from 'signal-exit';

const live = new Set<number>();
let removeHook: (() => void) | undefined;

/** Remembers a group (its leader's pid) until `release`; the exit hook is loaded only while there is one. */
export function track(pgid: number): void {
  live.add(pgid);
  removeHook ??= onExit(() => {
    for (const group of live) signalGroup(group, 'SIGKILL');
  });
}

export function release(pgid: number): void {
  live.delete(pgid);
  if (live.size > 0 || removeHook === undefined) return;
  removeHook();
  removeHook = undefined;
}

/** Sends a signal to every process of a group, if any is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // None left: nothing to end.
  }
}

/** Whether any process of the group still runs (EPERM: one does, but it is not ours to signal any more). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !onlyZombies(pgid);
}

/**
 * Whether every process left in the group has exited and waits to be reaped. An orphan's
 * zombie is reaped by init, but in many containers init reaps nothing, and a group of zombies
 * would hold a run open until its SIGKILL. Linux only (/proc); elsewhere, no.
 */
function onlyZombies(pgid: number): boolean {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return false;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue;
    }
    // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    if (Number(group) === pgid && state !== 'Z') return false;
  }
  return true;
}
