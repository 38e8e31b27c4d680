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
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
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
 * The live processes descended from `pid` that are not in its group `pgid`: what a harness started
 * in a group or session of its own (Cline runs each command that way), which a signal to the group
 * misses. Read while `pid` still runs: once it has gone they belong to init. Linux only (/proc);
 * elsewhere none.
 */
export function strays(pid: number, pgid: number): number[] {
  const children = new Map<number, { pid: number; group: number }[]>();
  for (const { pid: child, ppid, group, state } of processTable()) {
    if (state === 'Z') continue;
    const siblings = children.get(ppid) ?? [];
    siblings.push({ pid: child, group });
    children.set(ppid, siblings);
  }
  const found: number[] = [];
  const queue = [pid];
  const seen = new Set(queue);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      queue.push(child.pid);
      if (child.group !== pgid) found.push(child.pid);
    }
  }
  return found;
}

/** Sends a signal to each process, if it is still there. */
export function signalEach(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

/** Every process /proc lists: pid, state, parent and group. */
function processTable(): { pid: number; state: string; ppid: number; group: number }[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const table: { pid: number; state: string; ppid: number; group: number }[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue;
    }
    // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
    const [state, ppid, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
    table.push({ pid: Number(name), state: state!, ppid: Number(ppid), group: Number(group) });
  }
  return table;
}

/**
 * Whether every process left in the group has exited and waits to be reaped. An orphan's
 * zombie is reaped by init, but in many containers init reaps nothing, and a group of zombies
 * would hold a run open until its SIGKILL. Linux only (/proc); elsewhere, no.
 */
function onlyZombies(pgid: number): boolean {
  const table = processTable();
  // No /proc: not known to be only zombies.
  if (table.length === 0) return false;
  return !table.some(({ group, state }) => group === pgid && state !== 'Z');
}

/**
 * What a child's stdout and stderr are, as /proc names them (`socket:[N]`, `pipe:[N]`): read once it has started, so
 * that whatever holds them later can be found. Linux only (/proc); elsewhere none.
 */
export function outputEnds(pid: number): { stdout?: string; stderr?: string } {
  return { stdout: link(`/proc/${pid}/fd/1`), stderr: link(`/proc/${pid}/fd/2`) };
}

/** The processes other than this one that hold any of `ends` (from `outputEnds`) open. Linux only (/proc). */
export function holdersOf(ends: readonly string[]): number[] {
  if (ends.length === 0) return [];
  const holders: number[] = [];
  for (const { pid } of processTable()) {
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    if (fds.some((fd) => ends.includes(link(`/proc/${pid}/fd/${fd}`) ?? ''))) holders.push(pid);
  }
  return holders;
}

function link(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
