/**
 * `npm run bench`: throughput and memory of the pipeline against a floor measured in the same
 * run, on generated streams shaped like the real captures (bench/generate.ts).
 *
 * Environment: BENCH_MB (size per harness, default 300), BENCH_RUNS (runs per case, default 3;
 * the median is reported), BENCH_GB_MB (size of the memory figure's big input, default 1024),
 * BENCH_HARNESSES (comma-separated subset).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, createReadStream } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generated, harnessNames, sizeOf, type BenchHarness } from './generate.js';

const megabytes = Number(process.env.BENCH_MB ?? 300);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const bigMegabytes = Number(process.env.BENCH_GB_MB ?? 1024);
const selected = (process.env.BENCH_HARNESSES?.split(',') ?? harnessNames) as BenchHarness[];

const here = new URL('.', import.meta.url).pathname;
const bin = new URL('../bin/harness-events.js', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'harness-events-bench-'));

interface Sample {
  seconds: number;
  maxRssMb: number;
}

function inProcess(which: string, harness: string, file: string): Sample {
  return JSON.parse(execFileSync(process.execPath, [join(here, 'measure.mjs'), which, harness, file], { encoding: 'utf8' }));
}

/** The CLI as a user runs it, stdout to /dev/null; its peak RSS comes from a preloaded reporter. */
function throughCli(harness: string, file: string): Promise<Sample> {
  const rssFile = join(tmp, 'cli-rss');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', join(here, 'rss-on-exit.cjs'), bin, 'normalize', '--harness', harness, file], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, BENCH_RSS_FILE: rssFile },
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`CLI exited ${code}`));
      resolve({ seconds: (performance.now() - started) / 1000, maxRssMb: Number(readFileSync(rssFile, 'utf8')) });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return lines;
}

const cases = ['floor', 'stream-json', 'stages', 'api', 'cli'] as const;
type Case = (typeof cases)[number];

interface Row {
  harness: string;
  case: Case;
  mb: number;
  seconds: number;
  mbPerSecond: number;
  linesPerSecond: number;
  ratioToFloor: number;
  maxRssMb: number;
}

async function throughput(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const harness of selected) {
    const file = await generated(harness, megabytes);
    const mb = sizeOf(file) / 1024 / 1024;
    const lines = await countLines(file);
    const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));
    // Interleaved, so drift on a shared machine hits every case alike.
    for (let run = 0; run < runs; run++) {
      for (const which of cases) {
        samples.get(which)!.push(which === 'cli' ? await throughCli(harness, file) : inProcess(which, harness, file));
      }
    }
    const floorSeconds = median(samples.get('floor')!.map((s) => s.seconds));
    for (const which of cases) {
      const seconds = median(samples.get(which)!.map((s) => s.seconds));
      rows.push({
        harness,
        case: which,
        mb,
        seconds,
        mbPerSecond: mb / seconds,
        linesPerSecond: lines / seconds,
        ratioToFloor: floorSeconds / seconds,
        maxRssMb: median(samples.get(which)!.map((s) => s.maxRssMb)),
      });
      console.error(`${harness} ${which}: ${(mb / seconds).toFixed(0)} MB/s, ${(floorSeconds / seconds).toFixed(2)}x floor, ${rows.at(-1)!.maxRssMb.toFixed(0)} MB RSS`);
    }
  }
  return rows;
}

/** Peak RSS of the API case on inputs of growing size: it must not grow with the input. */
async function memory() {
  const sizes = [100, megabytes, bigMegabytes];
  const rows: { mb: number; maxRssMb: number }[] = [];
  for (const size of sizes) {
    const file = await generated('claude-code', size);
    rows.push({ mb: sizeOf(file) / 1024 / 1024, maxRssMb: inProcess('api', 'claude-code', file).maxRssMb });
  }
  console.error(`memory: ${rows.map((row) => `${row.mb.toFixed(0)} MB -> ${row.maxRssMb.toFixed(0)} MB RSS`).join('; ')}`);
  return rows;
}

function backpressure() {
  const out = execFileSync(process.execPath, [join(here, 'backpressure.mjs')], { encoding: 'utf8' });
  const result = JSON.parse(out);
  console.error(`backpressure: ${JSON.stringify(result)}`);
  return result;
}

/** Hostile records through the CLI: long lines, deep nesting, a repeated tool id (bench/hostile.mjs). */
function hostile() {
  const result = JSON.parse(execFileSync(process.execPath, [join(here, 'hostile.mjs')], { encoding: 'utf8' }));
  console.error(`hostile: ${JSON.stringify(result)}`);
  return result;
}

const rows = await throughput();
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  megabytes,
  runs,
  rows,
  memory: await memory(),
  backpressure: backpressure(),
  hostile: hostile(),
};
writeFileSync(join(here, 'results.json'), JSON.stringify(results, null, 2) + '\n');

console.log(`| harness | case | MB/s | lines/s | x floor | peak RSS MB |`);
console.log(`|---|---|---:|---:|---:|---:|`);
for (const row of rows) {
  console.log(`| ${row.harness} | ${row.case} | ${row.mbPerSecond.toFixed(0)} | ${Math.round(row.linesPerSecond).toLocaleString('en')} | ${row.ratioToFloor.toFixed(2)} | ${row.maxRssMb.toFixed(0)} |`);
}
