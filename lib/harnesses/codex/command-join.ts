/**
 * Stdout's commands joined to the rollout's (docs/harnesses/codex.md "Runs: stdout and the rollout"): stdout's
 * `command_execution` item never says where it ran, and the rollout's `CommandExecution` item of the same call does,
 * but their ids differ (`item_N`, the `call_id`): they join by their command text, in order, and the call is one event.
 * A stdout item whose rollout item was read already is classified at once with its directory; else it is held until
 * that item comes (the rollout's reader classifies it then), until a later command of the rollout shows it will not
 * come (Codex writes both in the same order), or until the rollout ends or is not found (then without a directory).
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { Limits } from '../../kernel/harness.js';
import type { JsonObject } from '../../kernel/json.js';

/** Where a settled stdout record (`item.completed`) goes: the item table of the side that settled it. */
type Classify = (record: JsonObject) => void;

export interface CommandJoin {
  /** Stdout's thread id, for the rollout reader's events when it never read the rollout's own. */
  session: string | undefined;
  /**
   * Stdout's completed command (`record`'s item): to classify now (with its directory when known), or undefined: held
   * (one given up on, past the limits, goes to `classify`).
   */
  stdout(record: JsonObject, item: JsonObject, limits: Limits, classify: Classify): JsonObject | undefined;
  /** The rollout's command (`command` as stdout prints it) ran in `directory`: the held stdout items it settles. */
  rollout(command: string, directory: string | undefined, limits: Limits, classify: Classify): void;
  /** The rollout is not found yet: nothing more is held, what was is released at stdout's next pause. */
  unhold(): void;
  /** Nothing more is held; what was goes to `classify` (the rollout has ended, or is not found yet). */
  release(classify: Classify): void;
  /** Whether stdout holds nothing more. */
  readonly released: boolean;
}

export function commandJoin(): CommandJoin {
  // Stdout's records waiting for their directory, by item id, oldest first; given up on, classified without one.
  let held: BoundedMap<JsonObject> | undefined;
  // The rollout's directories no stdout item has claimed yet, by command text, in order.
  let directories: BoundedMap<(string | undefined)[]> | undefined;
  let released = false;
  let settle: Classify = () => {};
  let keys = 0;

  function heldMap(limits: Limits): BoundedMap<JsonObject> {
    return (held ??= new BoundedMap(limits, (record) => settle(record)));
  }

  return {
    session: undefined,
    stdout(record, item, limits, classify) {
      if (typeof item.command !== 'string') return item;
      const waiting = directories?.get(item.command);
      if (waiting !== undefined) {
        const directory = waiting.shift();
        if (waiting.length === 0) directories!.take(item.command);
        return directory === undefined ? item : { ...item, working_directory: directory };
      }
      if (released) return item;
      settle = classify;
      heldMap(limits).set(typeof item.id === 'string' ? item.id : `#${keys++}`, record);
      return undefined;
    },
    rollout(command, directory, limits, classify) {
      if (released) return;
      const key = held?.findKey((record) => itemOf(record).command === command);
      if (key === undefined) {
        directories ??= new BoundedMap(limits);
        const waiting = directories.take(command) ?? [];
        directories.set(command, [...waiting, directory]);
        return;
      }
      settle = classify;
      // The held items before it: the rollout has passed them, their directories will not come.
      while (held!.findKey(() => true) !== key) held!.evictOldest();
      const record = held!.take(key)!;
      classify(
        directory === undefined ? record : { ...record, item: { ...itemOf(record), working_directory: directory } },
      );
    },
    unhold() {
      released = true;
    },
    release(classify) {
      released = true;
      settle = classify;
      held?.evictAll();
    },
    get released() {
      return released;
    },
  };
}

const itemOf = (record: JsonObject) => record.item as JsonObject;
