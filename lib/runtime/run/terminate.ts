/**
 * Ending a run's processes: SIGTERM to its whole process group (and what the child started outside it), SIGKILL
 * after the grace period, and once the child has exited, whatever of its group is left. A process that escaped the
 * group (`setsid`) and holds the run's pipes is ended at the run's deadline too, and the pipes are closed after its
 * grace period, so a stopped run always settles (docs/processes.md).
 */
import { groupAlive, holdersOf, release, signalEach, signalGroup, strays } from './process-groups.js';

interface TerminationOptions {
  /** The child's pid, the leader of its group. */
  readonly pgid: number;
  readonly graceMs: number;
  /** Whether the child has exited (its strays can no longer be looked up). */
  readonly exited: () => boolean;
  /** The child's ends of its pipes that the run still reads (`outputEnds`), or none where they cannot be named. */
  readonly openPipes: () => string[];
  /** Whether the run still reads any of the child's pipes. */
  readonly reading: () => boolean;
  /** Stops reading the pipes: what is left in them is lost. */
  readonly closePipes: () => void;
  /** The group is gone (or has had its SIGKILL). */
  readonly groupEnded: () => void;
}

export interface Termination {
  /** SIGTERM to the group now, SIGKILL when the grace period is over (or at once with `force`). */
  terminate(force?: boolean): void;
  /** The child has exited: what is left of its group (what it started and did not end) is ended too. */
  childExited(): void;
  /** Whether the library has signalled the group. */
  readonly stopping: boolean;
  /** Whether the group is gone or has had its SIGKILL. */
  readonly groupDone: boolean;
  /** Forgets its timers (the run is over). */
  dispose(): void;
}

export function createTermination(options: TerminationOptions): Termination {
  const { pgid, graceMs } = options;
  let stopping = false;
  let groupDone = false;
  // A deadline came (a stop, the timeout, a failure): what holds the pipes is not waited for past it.
  let deadline = false;
  let killTimer: NodeJS.Timeout | undefined;
  let groupPoll: NodeJS.Timeout | undefined;
  let holderTimer: NodeJS.Timeout | undefined;
  // What the child started outside its group (Cline's commands), found while it still ran: ended with the group.
  const strayPids = new Set<number>();

  function terminate(force = false): void {
    deadline = true;
    if (groupDone) return endHolders(force);
    stopGroup(force);
  }

  function stopGroup(force: boolean): void {
    if (!stopping) {
      stopping = true;
      signalTree('SIGTERM');
      killTimer = setTimeout(killGroup, graceMs);
    }
    if (force) killGroup();
  }

  function killGroup(): void {
    signalTree('SIGKILL');
    endGroup();
  }

  /** The group, and the processes the child started outside it (looked up while the child is there to ask). */
  function signalTree(signal: NodeJS.Signals): void {
    if (!options.exited()) for (const pid of strays(pgid, pgid)) strayPids.add(pid);
    signalEach(strayPids, signal);
    signalGroup(pgid, signal);
  }

  function endGroup(): void {
    groupDone = true;
    clearTimeout(killTimer);
    clearInterval(groupPoll);
    release(pgid);
    if (deadline) endHolders(false);
    options.groupEnded();
  }

  /**
   * Past the deadline with the group gone, what still holds the run's pipes escaped the group: it gets SIGTERM, then
   * SIGKILL after the grace period, and the pipes are closed then whatever is left (a holder this process may not
   * signal, or none found where there is no /proc).
   */
  function endHolders(force: boolean): void {
    if (!options.reading()) return;
    if (holderTimer === undefined) {
      signalEach(holdersOf(options.openPipes()), 'SIGTERM');
      holderTimer = setTimeout(killHolders, graceMs);
    }
    if (force) killHolders();
  }

  function killHolders(): void {
    clearTimeout(holderTimer);
    signalEach(holdersOf(options.openPipes()), 'SIGKILL');
    options.closePipes();
  }

  function childExited(): void {
    if (groupDone) return;
    if (!groupAlive(pgid)) return endGroup();
    // No deadline of the caller's: what escaped the group and holds the pipes may still speak.
    stopGroup(false);
    // Nothing announces that the last process of a group has gone: look now and then.
    groupPoll ??= setInterval(() => {
      if (!groupAlive(pgid)) endGroup();
    }, 100);
  }

  return {
    terminate,
    childExited,
    get stopping() {
      return stopping;
    },
    get groupDone() {
      return groupDone;
    },
    dispose() {
      clearTimeout(holderTimer);
    },
  };
}
