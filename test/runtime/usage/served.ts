/**
 * A saved usage capture's ground truth (test/fixtures/<harness>/usage/resume-fork/served.json, from
 * live/usage.live.ts): what the scripted model served, as it counts tokens (input with its cached part, output with
 * its reasoning part), in all or in one run.
 */
import { readFileSync } from 'node:fs';
import { accountUsage, type HarnessName } from '../../../lib/index.js';
import type { Tokens } from '../../../lib/kernel/events.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { fixturePath } from '../../helpers.js';

interface Served {
  run: number;
  outcome?: string;
  conversation?: string;
  turn?: number;
  usage?: { input: number; output: number };
}

export interface Totals {
  calls: number;
  input: number;
  output: number;
}

/** The capture's folder. */
export const captureDir = (harness: string) => fixturePath(`${harness}/usage/resume-fork`);

/**
 * The requests that reported usage (in `run`, when given; those `keep` keeps), but OpenCode's and Kilo's title request:
 * a model call neither their store nor their stdout records.
 */
export function servedTotals(harness: string, run?: number, keep: (request: Served) => boolean = () => true): Totals {
  const served = servedLog(harness).filter(
    (r) => r.usage !== undefined && r.conversation !== 'title' && (run === undefined || r.run === run) && keep(r),
  );
  const sum = (pick: (r: Served) => number) => served.reduce((total, r) => total + pick(r), 0);
  return { calls: served.length, input: sum((r) => r.usage!.input), output: sum((r) => r.usage!.output) };
}

/** Every request the model answered, in order. */
const servedLog = (harness: string) =>
  JSON.parse(readFileSync(`${captureDir(harness)}/served.json`, 'utf8')) as Served[];

/** The attempts that failed (a scripted HTTP error or cut stream, which the CLI retried): they served no usage. */
export const failedAttempts = (harness: string) =>
  servedLog(harness)
    .filter((r) => r.outcome === 'failed' || r.outcome === 'dropped')
    .map(({ run, outcome, conversation, turn }) => ({ run, outcome, conversation, turn }));

/** Accounted tokens as the model counts them. */
export function asServed(calls: number, tokens: Tokens): Totals {
  const { input = 0, output = 0, cache_read = 0, cache_write = 0, reasoning = 0 } = tokens;
  return { calls, input: input + cache_read + cache_write, output: output + reasoning };
}

/** Run `run`'s saved stdout in a capture folder: the lines `keep` keeps, as `edit` leaves them. */
export function stdoutLines(
  dir: string,
  run: number,
  keep: (line: string) => boolean = () => true,
  edit: (line: string) => string = (line) => line,
): string[] {
  const lines = readFileSync(`${dir}/stdout-${run}.jsonl`, 'utf8').split(/(?<=\n)/);
  return lines.filter(keep).map(edit);
}

/** A trace's account as the model counts tokens: its calls and tokens, those no call itemizes, its warnings. */
export async function accountOf(trace: readonly TraceRecord[], harness: HarnessName) {
  const { total, warnings } = await accountUsage(trace, { harness });
  return { accounted: asServed(total.calls, total.tokens), unitemized: asServed(0, total.unitemized), warnings };
}

/**
 * A Claude Code stdout line as Claude Code before 2.1.328 wrote it: its `result` without
 * `model_usage_since_last_result`, so only `modelUsage`, the session's running total, says the run's tokens.
 */
export function withoutShare(line: string): string {
  const record = JSON.parse(line) as Record<string, unknown>;
  if (record.type !== 'result') return line;
  delete record.model_usage_since_last_result;
  return JSON.stringify(record) + '\n';
}
