/**
 * Stdout's commands joined to the rollout's (docs/harnesses/codex.md "Runs: stdout and the rollout"): stdout's
 * `command_execution` item never says where it ran, and the rollout's `CommandExecution` item of the same call does,
 * but their ids differ (`item_N`, the `call_id`): they join by their command text, in order, and the call is one event.
 * A stdout item whose rollout item was read already is classified at once with its directory; else it is held until
 * that item comes, until a later command of the rollout shows it will not come (Codex writes both in the same order),
 * or until the rollout ends or is not found (then without a directory). While a command is held, stdout's later
 * events wait behind it, so the run's events keep stdout's order; stdout's reader sends them (`drain`), told by
 * `ready` once the rollout has settled what it holds.
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import { approximateBytes } from '../../kernel/byte-size.js';
import type { Limits } from '../../kernel/harness.js';
import type { JsonObject } from '../../kernel/json.js';

/** Where a settled stdout record (`item.completed`) goes: stdout's item table. */
type Classify = (record: JsonObject) => void;

/** A held stdout command (settled: its directory known, or given up on), or stdout's output waiting behind one. */
type Entry =
  | { record: JsonObject; command: unknown; settled: boolean; directory?: string; bytes: number }
  | { send: () => void; bytes: number };

export interface CommandJoin {
  /** Stdout's thread id, for the rollout reader's events when it never read the rollout's own. */
  session: string | undefined;
  /**
   * Stdout's completed command (`record`'s item): to classify now (with its directory when known), or undefined: held
   * (past the limits the oldest held is given up on and what waits behind it goes to `classify`).
   */
  stdout(record: JsonObject, item: JsonObject, limits: Limits, classify: Classify): JsonObject | undefined;
  /** Whether stdout's output waits behind a held command (then it goes to `later`). */
  readonly holding: boolean;
  /**
   * Stdout's output (`value`, sent by `send`) that came after a held command, or the run's own event (`limits` unset:
   * stdout's): it goes out in order behind it.
   */
  later(send: () => void, value: unknown, limits?: Limits): void;
  /** The rollout's command (`command` as stdout prints it) ran in `directory`: the held stdout items it settles. */
  rollout(command: string, directory: string | undefined, limits: Limits): void;
  /** The rollout is not found yet: nothing more is held, what was is released at stdout's next pause. */
  unhold(): void;
  /** The rollout has ended: nothing more is held, what was goes out (stdout's reader is told, `ready`). */
  release(): void;
  /** Stdout's reader: what may go out goes, in order; `all`: everything (stdout has ended). */
  drain(classify: Classify, all?: boolean): void;
  /** Whether stdout holds nothing more. */
  readonly released: boolean;
  /** Stdout's reader has what it held to send (the run flushes it); set by the run. */
  ready: () => void;
}

export function commandJoin(): CommandJoin {
  // Stdout's held commands and what waits behind them, oldest first.
  const entries: Entry[] = [];
  let bytes = 0;
  // The rollout's directories no stdout item has claimed yet, by command text, in order.
  let directories: BoundedMap<(string | undefined)[]> | undefined;
  let released = false;
  let draining = false;
  // Stdout's item table, where a held command goes once settled, and its limits.
  let settle: Classify = () => {};
  let bounds: Limits | undefined;

  const waiting = (entry: Entry | undefined) => entry !== undefined && 'record' in entry && !entry.settled;

  function push(entry: Entry, limits: Limits): void {
    entries.push(entry);
    bytes += entry.bytes;
    if (entries.length <= limits.maxPendingTools && bytes <= limits.maxPendingBytes) return;
    // Past the limits: the oldest held command goes out without a directory, and what waited behind it.
    const oldest = entries.find((held) => 'record' in held);
    if (oldest !== undefined && 'record' in oldest) oldest.settled = true;
    join.drain(settle);
  }

  const join: CommandJoin = {
    session: undefined,
    stdout(record, item, limits, classify) {
      if (typeof item.command !== 'string') return item;
      const waitingDirs = directories?.get(item.command);
      if (waitingDirs !== undefined) {
        const directory = waitingDirs.shift();
        if (waitingDirs.length === 0) directories!.take(item.command);
        return directory === undefined ? item : { ...item, working_directory: directory };
      }
      if (released) return item;
      [settle, bounds] = [classify, limits];
      push({ record, command: item.command, settled: false, bytes: approximateBytes(record) }, limits);
      return undefined;
    },
    get holding() {
      return entries.length > 0 && !draining;
    },
    later(send, value, limits = bounds!) {
      push({ send, bytes: approximateBytes(value) }, limits);
    },
    rollout(command, directory, limits) {
      if (released) return;
      const at = entries.findIndex((entry) => waiting(entry) && (entry as { command: unknown }).command === command);
      if (at === -1) {
        directories ??= new BoundedMap(limits);
        const earlier = directories.take(command) ?? [];
        directories.set(command, [...earlier, directory]);
        return;
      }
      // The held commands before it: the rollout has passed them, their directories will not come.
      for (const entry of entries.slice(0, at)) if ('record' in entry) entry.settled = true;
      Object.assign(entries[at]!, { settled: true, directory });
      join.ready();
    },
    unhold() {
      released = true;
    },
    release() {
      released = true;
      join.ready();
    },
    drain(classify, all = false) {
      if (draining) return;
      draining = true;
      try {
        while (entries.length > 0 && (all || released || !waiting(entries[0]))) {
          const entry = entries.shift()!;
          bytes -= entry.bytes;
          if (!('record' in entry)) entry.send();
          else if (entry.directory === undefined) classify(entry.record);
          else classify({ ...entry.record, item: { ...itemOf(entry.record), working_directory: entry.directory } });
        }
      } finally {
        draining = false;
      }
    },
    get released() {
      return released;
    },
    ready: () => {},
  };
  return join;
}

const itemOf = (record: JsonObject) => record.item as JsonObject;
