/**
 * The usage ground truth from stdout (docs/usage.md "From stdout"): what `accountUsage` gives over each run's trace,
 * against what the model served that run: its calls less exactly those the harness's stdout cannot carry, and every
 * token where the run's own total is on stdout (Gemini CLI's `result.stats`; Claude Code's results' own shares, or
 * `result.modelUsage` in a run that started its session).
 */
import { expect } from 'vitest';
import { accountUsage } from '../lib/index.js';
import type { Tokens } from '../lib/kernel/events.js';
import type { LoggedRequest } from '../lib/testing/index.js';
import type { RowId } from './harnesses.js';
import { asServed, servedTotals, type ServedTotals, type UsageRun } from './usage-runs.js';

/** Input and output as the model counts them: input with its cached part, output with its reasoning part. */
function inputOutput(tokens: Tokens): { input: number; output: number } {
  const { input = 0, output = 0, cache_read = 0, cache_write = 0, reasoning = 0 } = tokens;
  return { input: input + cache_read + cache_write, output: output + reasoning };
}

/** The rows whose stdout is checked (the others' rows add themselves once measured). */
const measured = new Set<RowId>(['claude-code', 'codex', 'gemini', 'qwen', 'pi']);

/**
 * The requests a run's stdout accounts as calls: Claude Code's and Qwen Code's subagents' calls are not on their
 * stdout (Claude Code's tool-using messages come with `message_start`'s usage, Qwen Code's with zero usage, their
 * text-only ones not at all); nor are OpenCode's and Kilo's (a subagent is a child session: stdout prints only the
 * parent's `task` call); Gemini CLI's stdout has no call's usage (only the run's total, in the metrics); the others'
 * are every request (Codex's: its rollout, joined to stdout under spawnHarness, gives each of the run's own calls,
 * its sub-agents' too; Cline's subagent's calls: its `usage` lines are on stdout).
 */
export function onStdout(row: RowId, requests: readonly LoggedRequest[]): readonly LoggedRequest[] {
  if (row === 'gemini') return [];
  if (row === 'claude-code') return requests.filter((request) => request.conversation !== 'subagent');
  // A Qwen Code subagent's tool-using messages are on stdout with zero usage, its answer not at all.
  if (row === 'qwen') return requests.filter((request) => request.conversation !== 'subagent');
  if (row === 'opencode' || row === 'kilo') return requests.filter((request) => request.conversation !== 'subagent');
  return requests;
}

/**
 * Whether the account of a run's stdout has every token the model served it: Gemini CLI's (its `result.stats`, the
 * run's own); Claude Code's where its `result` gives the run's own share (`model_usage_since_last_result`, 2.1.328
 * on), or in its first run, which starts the session (spawnHarness built its command line: `result.modelUsage`).
 */
function everyToken(row: RowId, run: UsageRun, index: number): boolean {
  if (row === 'gemini') return true;
  if (row !== 'claude-code') return false;
  const last = run.stdout.at(-1);
  return index === 0 || (last !== undefined && 'model_usage_since_last_result' in JSON.parse(last));
}

/** The totals a run's stdout gives besides its calls: Claude Code's `result.modelUsage`, Gemini CLI's metrics. */
function runTotal(row: RowId, run: UsageRun): Tokens | undefined {
  if (row === 'gemini') return run.result.metrics.tokens;
  if (row !== 'claude-code') return undefined;
  const last = run.stdout.at(-1);
  return modelUsageTotal(last === undefined ? undefined : JSON.parse(last));
}

/** The sum over models of a Claude Code `result`'s `modelUsage`: the session's running total, subagents included. */
function modelUsageTotal(result: unknown): Tokens | undefined {
  const models = (result as { modelUsage?: Record<string, Record<string, number>> } | undefined)?.modelUsage;
  if (models === undefined) return undefined;
  const sum = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  for (const model of Object.values(models)) {
    sum.input += model.inputTokens ?? 0;
    sum.output += model.outputTokens ?? 0;
    sum.cache_read += model.cacheReadInputTokens ?? 0;
    sum.cache_write += model.cacheCreationInputTokens ?? 0;
  }
  return sum;
}

/**
 * Asserts, run by run, that stdout's calls are exactly what the model served it (less what the harness's stdout does
 * not carry), and that the totals stdout gives besides its calls are exact: Gemini CLI's `result.stats`, the run's
 * own; Claude Code's `result.modelUsage`, the session's running total, subagents included, whose difference from the
 * session's total before the run (the parent's, for a fork) is the run's.
 */
export async function expectStdout(
  row: RowId,
  harness: string,
  runs: readonly UsageRun[],
  context: string,
): Promise<void> {
  if (!measured.has(row)) return;
  let session: ServedTotals = { calls: 0, input: 0, output: 0 };
  for (const [index, run] of runs.entries()) {
    const { total } = await accountUsage(run.trace, { harness });
    const accounted = asServed(total);
    const served = servedTotals(run.requests);
    const calls = servedTotals(onStdout(row, run.requests));
    const expected = everyToken(row, run, index) ? { ...served, calls: calls.calls } : calls;
    expect(accounted, `run ${index + 1} from stdout\n${context}`).toEqual(expected);
    const reported = runTotal(row, run);
    if (reported === undefined) continue;
    // A running total: the served tokens of the session so far (every run here continues the first's session).
    session = row === 'claude-code' ? plus(session, served) : served;
    expect(inputOutput(reported), `run ${index + 1}'s total on stdout\n${context}`).toEqual({
      input: session.input,
      output: session.output,
    });
  }
}

const plus = (a: ServedTotals, b: ServedTotals): ServedTotals => ({
  calls: a.calls + b.calls,
  input: a.input + b.input,
  output: a.output + b.output,
});
