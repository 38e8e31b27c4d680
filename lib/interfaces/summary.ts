/**
 * What a run did, added up event by event: the figures the live view's status line and the run
 * report share (files read and written, commands and their failures, tokens, cost, time span).
 * Pure: no streams, no clock.
 */
import type { CommandEvent, HarnessEvent, RunMetrics, Tokens } from '../kernel/events.js';
import { addTokens } from '../kernel/metrics.js';

/** The token classes in the contract's order, with the words the view and the report use. */
export const tokenClasses: [keyof Tokens, string][] = [
  ['input', 'input'],
  ['output', 'output'],
  ['cache_read', 'cache read'],
  ['cache_write', 'cache write'],
  ['reasoning', 'reasoning'],
];

/** What happened to one file in a run. */
export interface FileActivity {
  /** Reads and writes that did not fail (succeeded, or their outcome is unknown). */
  reads: number;
  /** Writes that did not fail, as `reads` counts reads. */
  writes: number;
  /** Reads and writes the harness reported as failed. */
  failed: number;
}

/** What a run did so far, added up event by event (`add`): the live view's status line and the run report. */
export class RunSummary {
  /** Events added. */
  events = 0;
  /** Events added, by type. */
  readonly types: Partial<Record<HarnessEvent['type'], number>> = {};
  /** Each file read or written, by path, in the order first seen. */
  readonly files = new Map<string, FileActivity>();
  /** `command` events. */
  commands = 0;
  /** Of those, the failed ones (reported so, or a non-zero exit code). */
  commandsFailed = 0;
  /** Tokens of the `usage` events, by class. */
  readonly tokens: Tokens = {};
  /** The cost of the `usage` events in USD, once one reported a cost. */
  cost: number | undefined;
  /** The first session id an event carried. */
  session_id: string | undefined;
  /** Observation times of the first and last events, in ms since the epoch. */
  first: number | undefined;
  /** The last event's observation time, in ms since the epoch. */
  last: number | undefined;

  /** Counts one event. */
  add(event: HarnessEvent): void {
    this.events++;
    this.types[event.type] = (this.types[event.type] ?? 0) + 1;
    this.session_id ??= event.session_id;
    const time = Date.parse(event.timestamp);
    if (!Number.isNaN(time)) {
      this.first = Math.min(this.first ?? time, time);
      this.last = Math.max(this.last ?? time, time);
    }
    if (event.type === 'read' || event.type === 'write') {
      const file = this.files.get(event.path) ?? { reads: 0, writes: 0, failed: 0 };
      if (event.is_success === false) file.failed++;
      else if (event.type === 'read') file.reads++;
      else file.writes++;
      this.files.set(event.path, file);
    } else if (event.type === 'command') {
      this.commands++;
      if (commandFailed(event)) this.commandsFailed++;
    } else if (event.type === 'usage') {
      addTokens(this.tokens, event.tokens);
      if (event.cost !== undefined) this.cost = (this.cost ?? 0) + event.cost;
    }
  }

  /** How many files were read (or written) at least once without a reported failure. */
  fileCount(kind: 'reads' | 'writes'): number {
    let count = 0;
    for (const file of this.files.values()) if (file[kind] > 0) count++;
    return count;
  }

  /** From the first event to the last, in ms. */
  get span(): number {
    return this.first === undefined || this.last === undefined ? 0 : this.last - this.first;
  }
}

/** A command failed when the harness said so or its exit code is not 0. */
export function commandFailed(event: CommandEvent): boolean {
  return event.is_success === false || (event.exit_code !== undefined && event.exit_code !== 0);
}

/** A tool event (or subagent, or stage) the harness reported as failed. */
export function isFailure(event: HarnessEvent): boolean {
  if (event.type === 'command') return commandFailed(event);
  if (event.type === 'orchestration') return event.action === 'subagent_failed' || event.is_success === false;
  if (event.type === 'system') return event.status === 'failed';
  return 'is_success' in event && event.is_success === false;
}

/** A run's tokens and cost so far, as one figure each. */
export interface Totals {
  /** All token classes added up (or the harness's own total when it gives no classes). */
  tokens: number | undefined;
  /** The cost in USD, when reported. */
  cost: number | undefined;
}

/**
 * Tokens and cost so far: from the run metrics when the normalizer runs in this process (Claude
 * Code, Codex and Goose report tokens only there), else from the `usage` events.
 */
export function totalsOf(summary: RunSummary, metrics?: RunMetrics): Totals {
  const tokens = metrics?.tokens ?? summary.tokens;
  const classes = Object.values(tokens);
  const sum = classes.length > 0 ? classes.reduce((a, b) => a + (b ?? 0), 0) : metrics?.total_tokens;
  return { tokens: sum, cost: metrics ? metrics.cost : summary.cost };
}
