/**
 * What joining Codex's rollout adds to each event of a live run (docs/harnesses/codex.md "Runs: stdout and the
 * rollout"): a child plays `codex exec --json` (bench/codex-join-child.mjs), one command every BENCH_JOIN_GAP_MS (20),
 * BENCH_JOIN_CALLS of them (200), and each command event's delay is the time it left spawnHarness minus the time the
 * child wrote the call's first line. `stdout-only` is stdout read without the join (the baseline); `stdout-first`
 * (the held case: stdout's item waits for the rollout's) and `rollout-first` are one event per command, with its
 * directory; `itemless`, a call no item reports, comes from the rollout alone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harnesses, spawnHarness, type Harness } from '../lib/index.js';

const modes = ['stdout-only', 'stdout-first', 'rollout-first', 'itemless'] as const;

export interface JoinRow {
  mode: (typeof modes)[number];
  calls: number;
  /** Delays in ms: median, 90th and 99th percentile, max. */
  median: number;
  p90: number;
  p99: number;
  max: number;
  /** The commands that came with the rollout's directory. */
  withDirectory: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

async function measure(mode: JoinRow['mode'], calls: number, gapMs: number): Promise<JoinRow> {
  const dir = mkdtempSync(join(tmpdir(), 'codex-join-bench-'));
  try {
    const codex = harnesses.get('codex')!;
    // The baseline: the same stdout through the harness without its rollout.
    const harness: Harness = mode === 'stdout-only' ? { ...codex, companion: undefined } : codex;
    const timesFile = join(dir, 'times.json');
    const run = spawnHarness({
      harness,
      command: process.execPath,
      args: [new URL('codex-join-child.mjs', import.meta.url).pathname, mode, String(calls), String(gapMs), timesFile],
      cwd: dir,
      env: { CODEX_HOME: join(dir, 'home') },
    });
    const left = new Map<number, number>();
    let withDirectory = 0;
    for await (const event of run) {
      if (event.type !== 'command') continue;
      left.set(Number(/^make c(\d+)$/.exec(event.command)![1]), Date.now());
      if (event.working_directory === '/bench/sub') withDirectory++;
    }
    await run.done;
    const written = JSON.parse(readFileSync(timesFile, 'utf8')) as number[];
    const delays = written.map((at, i) => left.get(i)! - at).sort((a, b) => a - b);
    if (delays.length !== calls || delays.some(Number.isNaN)) throw new Error(`codex-join ${mode}: events lost`);
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      mode,
      calls,
      median: round(quantile(delays, 0.5)),
      p90: round(quantile(delays, 0.9)),
      p99: round(quantile(delays, 0.99)),
      max: round(delays[delays.length - 1]!),
      withDirectory,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function codexJoinBench(runs: number): Promise<JoinRow[]> {
  const calls = Number(process.env.BENCH_JOIN_CALLS ?? 200);
  const gapMs = Number(process.env.BENCH_JOIN_GAP_MS ?? 20);
  const rows: JoinRow[] = [];
  for (let run = 0; run < runs; run++)
    for (const mode of modes) {
      const row = await measure(mode, calls, gapMs);
      rows.push(row);
      console.error(
        `codex-join: ${mode} ${calls} calls ${gapMs} ms apart: median ${row.median} ms, p90 ${row.p90}, ` +
          `p99 ${row.p99}, max ${row.max}; ${row.withDirectory} with the rollout's directory`,
      );
    }
  return rows;
}
