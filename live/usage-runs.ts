/**
 * Several runs of one CLI in one place (HOME and workspace), against one scripted model: a first run, then runs that
 * resume or fork its session. The model serves known usage per response and logs it (`LoggedRequest.usage`): the
 * ground truth the usage account is checked against (live/usage.live.ts).
 */
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceRecord } from '../lib/kernel/trace.js';
import { accountUsage, spawnHarness, type RunResult, type SpawnHarnessOptions, type UsageRow } from '../lib/index.js';
import { startModelServer, type Conversation, type LoggedRequest, type Turn } from '../lib/testing/index.js';
import { launch, type LiveHarness } from './harnesses.js';
import type { Installed } from './install.js';
import { liveOptions, sweep } from './run.js';
import { createPlace, type Place } from './workspace.js';

/** One run: its prompt (a marker in it picks its conversation), its turns, and the arguments it adds. */
export interface UsageStep {
  prompt: string;
  /** The model's turns, for a first run; a later run's single answer is `reply`. */
  turns?: Turn[];
  /** The answer to every request of this run (a resumed or forked conversation has the history of another). */
  reply?: Turn;
  /** Other conversations of this run (a subagent's, by a marker in its prompt). */
  conversations?: Conversation[];
  /** Arguments, given the session id of the first run (`--resume ID`, `resume ID`). */
  args?: (first: string) => string[];
}

export interface UsageRun {
  trace: TraceRecord[];
  result: RunResult;
  /** Stdout's records as JSON lines, in order. */
  stdout: string[];
  /** When it was spawned (ISO 8601). */
  started: string;
  /** Its arguments besides the library's. */
  args: string[];
  requests: readonly LoggedRequest[];
}

export interface UsageRuns {
  place: Place;
  /** Each run: its trace and result, stdout as read, when it started, the requests the model had meanwhile. */
  runs: UsageRun[];
  requests: readonly LoggedRequest[];
  /** The first run's session id. */
  first: string;
}

/** Tokens as the scripted model counts them: input with its cached part, output with its reasoning part. */
export interface ServedTotals {
  calls: number;
  input: number;
  output: number;
}

/**
 * What the model served: every response that reported usage, but those to the conversations named in `besides`
 * (a row's side requests: OpenCode's title request is a model call its store and its stdout do not record).
 */
export function servedTotals(requests: readonly LoggedRequest[], besides: readonly string[] = []): ServedTotals {
  const served = requests.filter(
    (r) => r.outcome === 'served' && r.usage !== undefined && !besides.includes(r.conversation ?? ''),
  );
  const sum = (pick: (r: LoggedRequest) => number) => served.reduce((total, r) => total + pick(r), 0);
  return { calls: served.length, input: sum((r) => r.usage!.input), output: sum((r) => r.usage!.output) };
}

/** A usage row's totals as the model counts them (input with its cached part, output with its reasoning part). */
export function asServed(row: UsageRow): ServedTotals {
  const { input, output, cache_read, cache_write, reasoning } = row.tokens;
  return { calls: row.calls, input: input + cache_read + cache_write, output: output + reasoning };
}

/**
 * The stdout ground truth: per run, what `accountUsage` gives from that run's stdout (its trace records, as
 * spawnHarness gave them) and what the model served during it (its side requests left out, as `servedTotals`), of
 * the requests `onStdout` keeps (default: all).
 */
export async function stdoutAccounts(
  runs: UsageRuns['runs'],
  row: LiveHarness,
  onStdout: (requests: readonly LoggedRequest[]) => readonly LoggedRequest[] = (requests) => requests,
): Promise<{ stdout: ServedTotals; served: ServedTotals }[]> {
  const besides = (row.side ?? []).map((side) => side.name);
  const accounts = [];
  for (const run of runs) {
    const { total } = await accountUsage(run.trace, { harness: row.harness });
    accounts.push({ stdout: asServed(total), served: servedTotals(onStdout(run.requests), besides) });
  }
  return accounts;
}

/** Runs the steps in order in one place; `inspect` sees everything before the place is removed. */
export async function runSteps<T>(
  row: LiveHarness,
  cli: Installed,
  stepsIn: (place: Place) => readonly UsageStep[],
  inspect: (runs: UsageRuns) => T | Promise<T>,
): Promise<Awaited<T>> {
  const place = createPlace();
  const steps = stepsIn(place);
  // Later runs first: their requests carry the first run's prompt in their history.
  const conversations = steps.flatMap((step, index): Conversation[] => [
    ...(step.conversations ?? []),
    index === 0
      ? { name: 'run1', match: { user: step.prompt }, turns: step.turns ?? [] }
      : { name: `run${index + 1}`, match: { lastUser: step.prompt }, reply: step.reply ?? {} },
  ]);
  const server = await startModelServer({
    conversations: [...(row.side ?? []), ...conversations.slice(1).reverse(), conversations[0]!],
  });
  const marker = `${process.env.HARNESS_EVENTS_LIVE_SUITE ?? 'solo'}:${randomUUID()}`;
  try {
    const runs: UsageRuns['runs'] = [];
    let first = '';
    for (const step of steps) {
      // The runs are one after the other: the requests logged while one ran are its own.
      const before = server.requests.length;
      const stdout: string[] = [];
      const args = step.args?.(first) ?? [];
      const { env, ...options } = launch(row, place, server.url, args);
      const started = new Date().toISOString();
      const run = spawnHarness({
        ...liveOptions(row, cli, place, marker, env),
        prompt: step.prompt,
        ...options,
        trace: true,
        onRecord: (record: unknown) => stdout.push(JSON.stringify(record)),
        signal: AbortSignal.timeout(300_000),
      } as SpawnHarnessOptions & { trace: true });
      const trace: TraceRecord[] = [];
      for await (const record of run) trace.push(record);
      const result = await run.done;
      runs.push({ trace, result, stdout, started, args, requests: server.requests.slice(before) });
      if (first === '') first = result.metrics.session_id ?? '';
    }
    return await inspect({ place, runs, requests: server.requests, first });
  } finally {
    sweep(marker);
    await server.close();
    place.remove();
  }
}

/** Where each harness keeps the session files its reader reads, under HOME. */
const sessionDirs: Readonly<Record<string, string>> = {
  'claude-code': '.claude/projects',
  codex: '.codex/sessions',
  gemini: '.gemini/tmp',
  qwen: '.qwen/projects',
  pi: '.pi/agent/sessions',
  opencode: '.local/share/opencode',
  kilo: '.local/share/kilo',
  copilot: '.copilot/session-state',
};

/**
 * `LIVE_CAPTURE_USAGE=<dir>`: the runs' session files (their HOME's, as the CLI wrote them), each run's stdout
 * (`stdout-<n>.jsonl`) and arguments and start (`runs.json`), and the model's log of what it served, each request with
 * the run it came in, into `<dir>/<row>/` (how test/fixtures/<harness>/usage/ is made).
 */
export function saveCapture(row: string, home: string, runs: UsageRuns['runs']): void {
  const dir = process.env.LIVE_CAPTURE_USAGE;
  if (dir === undefined || dir === '') return;
  const into = join(dir, row);
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const sessions = sessionDirs[row];
  if (sessions !== undefined && existsSync(join(home, sessions)))
    cpSync(join(home, sessions), join(into, 'home', sessions), { recursive: true });
  runs.forEach((run, n) => writeFileSync(join(into, `stdout-${n + 1}.jsonl`), run.stdout.join('\n') + '\n'));
  const started = runs.map(({ args, started }, n) => ({ run: n + 1, args, started }));
  writeFileSync(join(into, 'runs.json'), JSON.stringify(started, null, 2) + '\n');
  const served = runs.flatMap((run, n) =>
    run.requests.map(({ outcome, conversation, turn, usage }) => ({ run: n + 1, outcome, conversation, turn, usage })),
  );
  writeFileSync(join(into, 'served.json'), JSON.stringify(served, null, 2) + '\n');
}
