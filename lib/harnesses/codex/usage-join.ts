/**
 * A live run's usage from its rollout (docs/harnesses/codex.md "Runs: stdout and the rollout"): stdout's
 * `turn.completed` gives the thread's running total, which after `exec resume` or in an `exec fork` counts calls no
 * process of this run made, and one share per turn however many calls it took. The rollout's `token_usage_record`
 * rows give each response's own usage: those written since the run started are its usage events, one per call. Until
 * the rollout gives one, stdout's turn shares wait; they go out only if it gives none (not found, or a Codex that
 * writes no such rows), and whichever side goes out first is the run's usage, never both.
 */
import type { Tokens } from '../../kernel/events.js';
import { addTokens } from '../../kernel/metrics.js';

type Emit = (tokens: Tokens) => void;

export interface UsageJoin {
  /** Stdout's share of a turn: held, sent (stdout's shares are the run's usage), or dropped (the rollout's are). */
  stdout(share: Tokens, emit: Emit): void;
  /**
   * A rollout row's usage at its time (`at`, the line's `timestamp`): sent when written since the run started and the
   * rollout's rows are the run's usage; else dropped (a row of the thread's earlier processes, restated by a resume).
   */
  rollout(tokens: Tokens, at: unknown, emit: Emit): void;
  /** The rollout's reader is made: it will release what is held at its end. */
  open(): void;
  /** Whether the rollout's reader was made (stdout named the thread). */
  readonly opened: boolean;
  /** The rollout has ended (or will never be read): stdout's held shares go out, if still held. */
  release(emit: Emit): void;
  /** The rollout is not found in time: the stdout side releases what is held at its next pause. */
  unhold(): void;
  /** Whether the stdout side is to release the held shares. */
  readonly releasing: boolean;
}

/** The most turn shares held apart; later ones are added to the last (a run is a turn or a few). */
const MAX_HELD = 64;

/** The join of a run started at `startedAt` (ms since the epoch). */
export function usageJoin(startedAt: number): UsageJoin {
  let source: 'held' | 'stdout' | 'rollout' = 'held';
  let held: Tokens[] = [];
  let releasing = false;
  let opened = false;
  return {
    stdout(share, emit) {
      if (source === 'stdout') emit(share);
      else if (source === 'held' && held.length < MAX_HELD) held.push({ ...share });
      else if (source === 'held') addTokens(held[held.length - 1]!, share);
    },
    rollout(tokens, at, emit) {
      const time = typeof at === 'string' ? Date.parse(at) : NaN;
      if (source === 'stdout' || Number.isNaN(time) || time < startedAt) return;
      [source, held, releasing] = ['rollout', [], false];
      emit(tokens);
    },
    release(emit) {
      releasing = false;
      if (source !== 'held') return;
      source = 'stdout';
      for (const share of held.splice(0)) emit(share);
    },
    open() {
      opened = true;
    },
    get opened() {
      return opened;
    },
    unhold() {
      if (source === 'held') releasing = true;
    },
    get releasing() {
      return releasing;
    },
  };
}
