/**
 * `usage` accounting (docs/usage.md) against reading the same files raw, in CPU time: the paired captures' homes
 * (test/fixtures/<harness>/transcripts/<run>/home, every harness with a session reader) copied until they hold
 * BENCH_USAGE_MB (default 200), accounted as one set of homes. The raw floor reads every file and parses every JSONL
 * line; accounting also normalizes the records, follows the trace and counts each call once.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface UsageBenchRow {
  mb: number;
  homes: number;
  /** Model calls read (each copy's; counted once each). */
  calls: number;
  cpuMs: number;
  rawCpuMs: number;
  /** The raw floor's CPU time over the accounting's: 1 is the floor's speed. */
  ratioToRaw: number;
  /** MB accounted per second of CPU time. */
  mbPerCpuSecond: number;
  /** The accounting process's peak RSS (its largest run's). */
  peakRssMb: number;
}

const fixtures = new URL('../test/fixtures/', import.meta.url).pathname;

function captureHomes(): string[] {
  return readdirSync(fixtures).flatMap((harness) => {
    const dir = join(fixtures, harness, 'transcripts');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((run) => join(dir, run, 'home'))
      .filter((home) => existsSync(home));
  });
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

export function usageBench(tmp: string, runs: number): UsageBenchRow {
  const wanted = Number(process.env.BENCH_USAGE_MB ?? 200) * 1024 * 1024;
  const sources = captureHomes();
  const homes: string[] = [];
  let bytes = 0;
  for (let copy = 0; bytes < wanted; copy++)
    for (const source of sources) {
      const home = join(tmp, 'usage', `${copy}-${homes.length}`);
      mkdirSync(home, { recursive: true });
      cpSync(source, home, { recursive: true });
      homes.push(home);
      bytes += bytesUnder(home);
    }
  const here = new URL('.', import.meta.url).pathname;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const pass = (which: string) =>
    JSON.parse(
      execFileSync(process.execPath, [join(here, 'usage-read.mjs'), which, ...homes], {
        encoding: 'utf8',
        maxBuffer: 1 << 20,
      }),
    ) as { cpuMs: number; calls: number; peakRssMb: number };
  const cpu: number[] = [];
  const raw: number[] = [];
  let calls = 0;
  let peakRssMb = 0;
  for (let run = 0; run < runs; run++) {
    raw.push(pass('raw').cpuMs);
    const usage = pass('usage');
    cpu.push(usage.cpuMs);
    calls = usage.calls;
    peakRssMb = Math.max(peakRssMb, usage.peakRssMb);
  }
  const mb = Math.round(bytes / 1024 / 1024);
  const row = {
    mb,
    homes: homes.length,
    calls,
    cpuMs: median(cpu),
    rawCpuMs: median(raw),
    ratioToRaw: median(raw) / median(cpu),
    mbPerCpuSecond: bytes / 1024 / 1024 / (median(cpu) / 1000),
    peakRssMb,
  };
  const figures =
    `${row.cpuMs.toFixed(0)} ms CPU (${row.mbPerCpuSecond.toFixed(1)} MB/s), raw ${row.rawCpuMs.toFixed(0)} ms, ` +
    `peak RSS ${peakRssMb.toFixed(0)} MB`;
  console.error(`usage: ${mb} MB in ${homes.length} homes, ${calls} calls: ${figures}`);
  return row;
}
