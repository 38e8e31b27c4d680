/**
 * One live scenario, start to end: a fresh place (HOME and workspace), a scripted model server
 * on a free loopback port, the CLI through `spawnHarness`, then the sweep for processes the run
 * left behind. Everything it started is gone when it returns.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { HarnessEvent } from '../lib/kernel/events.js';
import { spawnHarness, type RunResult, type SpawnHarnessOptions } from '../lib/index.js';
import { startModelServer, type LoggedRequest } from '../lib/testing/index.js';
import { launch, type LiveHarness } from './harnesses.js';
import type { Installed } from './install.js';
import type { Scenario } from './scenario.js';
import { changedFiles, createPlace, hashTree, type Place } from './workspace.js';

/**
 * Only for a CLI that hangs: a run still going then is aborted (its process group killed) and fails. Far above any
 * run's length, even on a loaded machine.
 */
const RUN_TIMEOUT_MS = 600_000;

/**
 * `LIVE_CAPTURE=<dir>`: each run's stdout, one parsed record a line, into `<dir>/<row>/<scenario>.jsonl` (how the ACP
 * lab transcripts of test/fixtures/acp/ are made).
 */
function captureFile(row: LiveHarness, scenario: Scenario): string | undefined {
  const dir = process.env.LIVE_CAPTURE;
  if (dir === undefined || dir === '') return undefined;
  mkdirSync(join(dir, row.id), { recursive: true });
  const file = join(dir, row.id, `${scenario.name}.jsonl`);
  rmSync(file, { force: true });
  return file;
}

export interface LiveRun {
  events: HarnessEvent[];
  result: RunResult;
  requests: readonly LoggedRequest[];
  /** Whether each scripted main turn was played as the script says (served, or failed when it always fails). */
  turnsPlayed: boolean[];
  /** Processes of the run still alive after the CLI exited (helpers it did not wait for): killed, and reported. */
  leftovers: string[];
  place: Place;
  /** The scripted model's origin. */
  serverUrl: string;
  /** The workspace files the run added, changed or removed (the offline setup written before it aside). */
  changed: string[];
}

/**
 * Runs the scenario; `inspect` sees the place and the run before the place is removed (awaited, if it returns a
 * promise). `onEvent` sees each event as the run gives it, with the place (the live sessions test starts following
 * the agent's session file from it).
 */
export async function runScenario<T>(
  row: LiveHarness,
  cli: Installed,
  scenario: Scenario,
  inspect: (run: LiveRun) => T,
  onEvent?: (event: HarnessEvent, place: Place) => void,
): Promise<Awaited<T>> {
  const place = createPlace(scenario.files);
  const turns = scenario.turns(place);
  const server = await startModelServer({
    conversations: [
      ...(row.side ?? []),
      ...(scenario.conversations?.(place) ?? []),
      { name: 'main', match: { user: scenario.prompt }, turns },
    ],
  });
  const marker = `${process.env.HARNESS_EVENTS_LIVE_SUITE ?? 'solo'}:${randomUUID()}`;
  try {
    const { env, ...options } = launch(row, place, server.url, scenario.args, scenario.permissions);
    const capture = captureFile(row, scenario);
    const before = hashTree(place.workspace);
    // The library builds the command line from the prompt (an ACP agent's from its preset, the prompt sent by its
    // client).
    // The environment is the suite's alone; a scenario's non-zero exit is its result, not a failure of the suite's.
    const run = spawnHarness({
      ...liveOptions(row, cli, place, marker, { ...env, ...scenario.env }),
      prompt: scenario.prompt,
      ...options,
      signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
      onRecord: capture === undefined ? undefined : (record) => appendFileSync(capture, JSON.stringify(record) + '\n'),
    } as SpawnHarnessOptions);
    const events: HarnessEvent[] = [];
    for await (const event of run) {
      events.push(event);
      onEvent?.(event, place);
    }
    const result = await run.done;
    const turnsPlayed = turns.map((turn, index) =>
      server.requests.some(
        (r) =>
          r.conversation === 'main' &&
          r.turn === index &&
          r.outcome === (turn.failAlways !== undefined ? 'failed' : 'served'),
      ),
    );
    return await inspect({
      events,
      result,
      requests: server.requests,
      turnsPlayed,
      leftovers: await leftovers(marker),
      changed: changedFiles(before, hashTree(place.workspace)),
      place,
      serverUrl: server.url,
    });
  } finally {
    sweep(marker);
    await server.close();
    place.remove();
  }
}

/**
 * What every live run of `row` gives spawnHarness besides its prompt and launch options: the suite's environment
 * alone (nothing of this process's) with `env` over it, and the marker the sweep finds its processes by (inherited
 * by whatever the CLI starts).
 */
export function liveOptions(row: LiveHarness, cli: Installed, place: Place, marker: string, env: object) {
  return {
    harness: row.harness,
    command: cli.bin,
    reject: false,
    extendEnv: false,
    cwd: place.workspace,
    env: {
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: place.home,
      USER: 'live',
      LOGNAME: 'live',
      LANG: 'C.UTF-8',
      SHELL: '/bin/bash',
      TERM: 'dumb',
      TMPDIR: place.tmp,
      ...cli.env,
      ...env,
      HARNESS_EVENTS_LIVE_RUN: marker,
    },
    killGraceMs: 2000,
  };
}

/**
 * Kills every process whose environment carries the marker (or, ending in `:`, any marker it starts); returns their
 * command lines.
 */
export function sweep(marker: string, kill = true): string[] {
  const needle = `HARNESS_EVENTS_LIVE_RUN=${marker}`;
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (!environ.split('\0').some((entry) => (marker.endsWith(':') ? entry.startsWith(needle) : entry === needle)))
      continue;
    let command = pid;
    try {
      command = `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
    } catch {
      // Gone meanwhile.
    }
    try {
      process.kill(Number(pid), kill ? 'SIGKILL' : 0);
      found.push(command);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** How long a run's last processes may take to go by themselves once it has ended. */
const SETTLE_MS = 2_000;

/**
 * What a run left (killed, and named): what is still there once the processes ending by themselves have had
 * SETTLE_MS. A process that left the agent's group exits on its own when the agent's end closes its input (OpenCode's
 * snapshot `git cat-file --batch` under `opencode acp`, measured: a moment after the run), which is not a leftover;
 * one still there after it is.
 */
export async function leftovers(marker: string): Promise<string[]> {
  const deadline = Date.now() + SETTLE_MS;
  while (sweep(marker, false).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return sweep(marker);
}
