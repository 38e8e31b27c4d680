/** What tests of process handling ask the system: is a process, or any of its group, still there. */
import { readFileSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The fields of /proc/PID/stat after the command name (which may hold spaces): state, ppid, pgrp, ... */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether a process still runs (a zombie, dead but not yet reaped, does not). */
export function alive(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

/** The process group a process belongs to. */
export function groupOf(pid: number): number {
  const fields = statFields(pid);
  if (fields === undefined) throw new Error(`no process ${pid}`);
  return Number(fields[2]);
}

/** The live (not zombie) processes of a process group. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    if (fields !== undefined && fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(name));
  }
  return members;
}

/**
 * Waits until no process of the group is alive; resolves with those still there after `withinMs`
 * (a bound for a machine under load, not a measurement: what was SIGKILLed is gone in
 * microseconds, what was missed stays forever).
 */
export async function groupGone(pgid: number, withinMs = 10_000): Promise<number[]> {
  for (let waited = 0; ; waited += 20) {
    const members = groupMembers(pgid);
    if (members.length === 0 || waited >= withinMs) return members;
    await sleep(20);
  }
}

/** Waits until a process is gone; false when it is still there after `withinMs` (see groupGone). */
export async function gone(pid: number, withinMs = 10_000): Promise<boolean> {
  for (let waited = 0; alive(pid); waited += 20) {
    if (waited >= withinMs) return false;
    await sleep(20);
  }
  return true;
}
