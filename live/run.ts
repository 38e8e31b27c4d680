/**
 * One live scenario, start to end: a fresh place (HOME and workspace), a scripted model server
 * on a free loopback port, the CLI through `spawnHarness`, then the sweep for processes the run
 * left behind. Everything it started is gone when it returns.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HarnessEvent } from '../lib/events.js';
import type { Harness } from '../lib/harness.js';
import { harnesses, spawnHarness, type RunResult } from '../lib/index.js';
import { startModelServer, type LoggedRequest } from '../testing/index.js';
import { driveAcp } from './acp-client.js';
import { launch, type LiveHarness } from './harnesses.js';
import type { Installed } from './install.js';
import type { Scenario } from './scenario.js';
import { createPlace, type Place } from './workspace.js';

/** Only for a CLI that hangs: a run still going then is aborted (its process group killed) and fails. Far above any run's length, even on a loaded machine. */
const RUN_TIMEOUT_MS = 600_000;
/** After an ACP prompt is answered and stdin closed, how long the agent may take to exit before it is stopped (acp.md: 2 s). */
const ACP_EXIT_GRACE_MS = 2000;

export interface LiveRun {
  events: HarnessEvent[];
  result: RunResult;
  requests: readonly LoggedRequest[];
  /** Whether each scripted main turn was played as the script says (served, or failed when it always fails). */
  turnsPlayed: boolean[];
  /** Processes of the run still alive after the CLI exited (helpers it did not wait for): killed, and reported. */
  leftovers: string[];
  /** An ACP run the suite's own client drove: whether the agent answered the prompt (it is then stopped if it does not exit by itself). */
  acpAnswered?: boolean;
  /** The library harness normalized the run (false: raw mode, each stdout record an `unknown`). */
  normalized: boolean;
  place: Place;
  /** The scripted model's origin. */
  serverUrl: string;
}

/** Every JSON record as an `unknown` event: how a CLI is run before the library has its harness. */
function rawHarness(name: string): Harness {
  const records = { 'any JSON': { handling: 'unknown, verbatim', rules: { raw: 'raw record: unknown' } } };
  return {
    name: `${name} (raw)`,
    records,
    tools: new Map(),
    correlator: (run) => ({
      record(value) {
        run.emit({ type: 'unknown', raw: value });
        return records['any JSON'].rules.raw;
      },
      end() {},
    }),
  };
}

/** Runs the scenario; `inspect` sees the place and the run before the place is removed. */
export async function runScenario<T>(row: LiveHarness, cli: Installed, scenario: Scenario, inspect: (run: LiveRun) => T): Promise<T> {
  const place = createPlace(scenario.files);
  const turns = scenario.turns(place);
  const server = await startModelServer({
    conversations: [...(row.side ?? []), { name: 'main', match: { user: scenario.prompt }, turns }],
  });
  const marker = `${process.env.HARNESS_EVENTS_LIVE_SUITE ?? 'solo'}:${randomUUID()}`;
  try {
    const { args, env } = launch(row, place, server.url, scenario.prompt, scenario.args);
    const library = harnesses.get(row.harness);
    // The library's acp harness is an ACP client itself (spawnHarness sends the prompt); until it
    // lands, live/acp-client.ts drives the agent and its stdout is checked raw.
    const clientDriven = row.acp === true && !(library !== undefined && 'client' in library);
    const js = cli.bin.endsWith('.js');
    const run = spawnHarness({
      harness: library ?? rawHarness(row.harness),
      command: js ? process.execPath : cli.bin,
      args: js ? [cli.bin, ...args] : args,
      ...(row.acp && !clientDriven ? { prompt: scenario.prompt } : {}),
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
        ...scenario.env,
        // Inherited by whatever the CLI starts: the sweep finds its processes by it.
        HARNESS_EVENTS_LIVE_RUN: marker,
      },
      stdin: clientDriven ? 'pipe' : 'ignore',
      signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
      killGraceMs: 2000,
    });
    let stopTimer: NodeJS.Timeout | undefined;
    const acp = clientDriven
      ? driveAcp(run.child, place.workspace, scenario.prompt).then((answered) => {
          stopTimer = setTimeout(() => run.stop(), ACP_EXIT_GRACE_MS);
          return answered;
        })
      : undefined;
    const events: HarnessEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.done;
    const acpAnswered = await acp;
    clearTimeout(stopTimer);
    const turnsPlayed = turns.map((turn, index) =>
      server.requests.some((r) => r.conversation === 'main' && r.turn === index && r.outcome === (turn.failAlways !== undefined ? 'failed' : 'served')),
    );
    return inspect({ events, result, requests: server.requests, turnsPlayed, leftovers: sweep(marker), acpAnswered, normalized: library !== undefined, place, serverUrl: server.url });
  } finally {
    sweep(marker);
    await server.close();
    place.remove();
  }
}

/** Kills every process whose environment carries the marker (or, ending in `:`, any marker it starts); returns their command lines. */
export function sweep(marker: string): string[] {
  const needle = `HARNESS_EVENTS_LIVE_RUN=${marker}`;
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      continue;
    }
    if (!environ.split('\0').some((entry) => (marker.endsWith(':') ? entry.startsWith(needle) : entry === needle))) continue;
    let command = pid;
    try {
      command = `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
    } catch {
      // Gone meanwhile.
    }
    try {
      process.kill(Number(pid), 'SIGKILL');
      found.push(command);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
