/**
 * `npm run bench`: throughput and memory of the pipeline against two floors measured in the same
 * run (split2 + JSON.parse, and the tighter readline one of bench/floor-readline.mjs), on
 * generated streams shaped like the real captures (bench/generate.ts) and on many small Claude
 * Code records (bench/gen-claude-stream.mjs); start-up against `node -e 0`; memory, backpressure
 * and hostile records.
 *
 * Environment: BENCH_MB (size per harness, default 300), BENCH_RUNS (runs per case, default 3;
 * the median is reported), BENCH_GB_MB (size of the memory figure's big input, default 1024),
 * BENCH_SMALL_RECORDS (gen-claude-stream's count, default 50000, about 200 MB),
 * BENCH_HARNESSES (comma-separated subset), BENCH_ONLY (comma-separated sections: throughput,
 * startup, memory, backpressure, hostile, issue30, sessions, store, directories, trace, codex-join, usage,
 * jetstream), BENCH_NATS_EVENTS (events through the JetStream sink, default 100,000; bench/jetstream.ts),
 * BENCH_SESSION_MB (size of each session file the sessions section reads, default 100), BENCH_STORE_MB (the SQLite
 * store of bench/store.ts, 100), BENCH_DIRECTORY_CALLS (the Claude Code calls of bench/directories.ts, 100,000),
 * BENCH_TRACE_MB (each stream of bench/trace.ts, 100), BENCH_JOIN_CALLS and BENCH_JOIN_GAP_MS (bench/codex-join.ts:
 * 200 commands, 20 ms apart), BENCH_USAGE_MB (the homes of bench/usage.ts, 200).
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { directoriesBench } from './directories.js';
import { generated, harnessNames, sizeOf, type BenchHarness } from './generate.js';
import { jetstreamBench, jetstreamTable } from './jetstream.js';
import { storeBench } from './store.js';
import { traceBench } from './trace.js';
import { codexJoinBench } from './codex-join.js';
import { usageBench } from './usage.js';

const megabytes = Number(process.env.BENCH_MB ?? 300);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const bigMegabytes = Number(process.env.BENCH_GB_MB ?? 1024);
const selected = (process.env.BENCH_HARNESSES?.split(',') ?? harnessNames) as BenchHarness[];
const smallRecords = Number(process.env.BENCH_SMALL_RECORDS ?? 50_000);
const only = process.env.BENCH_ONLY?.split(',');
const section = (name: string) => only === undefined || only.includes(name);

const here = new URL('.', import.meta.url).pathname;
const bin = new URL('../bin/harness-events.js', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'harness-events-bench-'));

interface Sample {
  seconds: number;
  maxRssMb: number;
}

function inProcess(which: string, harness: string, file: string): Sample {
  return JSON.parse(
    execFileSync(process.execPath, [join(here, 'measure.mjs'), which, harness, file], { encoding: 'utf8' }),
  );
}

/** A node script as a user runs it, stdout to /dev/null; its peak RSS comes from a preloaded reporter. */
function script(args: string[]): Promise<Sample> {
  const rssFile = join(tmp, 'cli-rss');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', join(here, 'rss-on-exit.cjs'), ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, BENCH_RSS_FILE: rssFile },
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      resolve({ seconds: (performance.now() - started) / 1000, maxRssMb: Number(readFileSync(rssFile, 'utf8')) });
    });
  });
}

/** The CLI as a user runs it. */
const throughCli = (harness: string, file: string) => script([bin, 'normalize', '--harness', harness, file]);
/** The tighter floor: readline + JSON.parse + one small object stringified per line, batched writes. */
const readlineFloor = (file: string) => script([join(here, 'floor-readline.mjs'), file]);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return lines;
}

const cases = ['floor', 'readline-floor', 'stream-json', 'stages', 'api', 'cli'] as const;
type Case = (typeof cases)[number];

interface Row {
  harness: string;
  /** Which input: the harness's generated stream, or gen-claude-stream's many small records. */
  input: string;
  case: Case;
  mb: number;
  seconds: number;
  mbPerSecond: number;
  linesPerSecond: number;
  ratioToFloor: number;
  ratioToReadlineFloor: number;
  maxRssMb: number;
}

function measureCase(which: Case, harness: string, file: string): Sample | Promise<Sample> {
  if (which === 'cli') return throughCli(harness, file);
  if (which === 'readline-floor') return readlineFloor(file);
  return inProcess(which, harness, file);
}

async function throughputOf(harness: BenchHarness, input: string, file: string): Promise<Row[]> {
  const rows: Row[] = [];
  const mb = sizeOf(file) / 1024 / 1024;
  const lines = await countLines(file);
  const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));
  // Interleaved, so drift on a shared machine hits every case alike.
  for (let run = 0; run < runs; run++) {
    for (const which of cases) samples.get(which)!.push(await measureCase(which, harness, file));
  }
  const floorSeconds = median(samples.get('floor')!.map((s) => s.seconds));
  const readlineSeconds = median(samples.get('readline-floor')!.map((s) => s.seconds));
  for (const which of cases) {
    const seconds = median(samples.get(which)!.map((s) => s.seconds));
    rows.push({
      harness,
      input,
      case: which,
      mb,
      seconds,
      mbPerSecond: mb / seconds,
      linesPerSecond: lines / seconds,
      ratioToFloor: floorSeconds / seconds,
      ratioToReadlineFloor: readlineSeconds / seconds,
      maxRssMb: median(samples.get(which)!.map((s) => s.maxRssMb)),
    });
    const row = rows.at(-1)!;
    console.error(
      `${harness} (${input}) ${which}: ${row.mbPerSecond.toFixed(0)} MB/s, ${row.ratioToFloor.toFixed(2)}x floor, ` +
        `${row.ratioToReadlineFloor.toFixed(2)}x readline floor, ${row.maxRssMb.toFixed(0)} MB RSS`,
    );
  }
  return rows;
}

/** gen-claude-stream's many small records, written once into bench/.data. */
function smallRecordsFile(): string {
  const file = join(here, '.data', `gen-claude-stream-${smallRecords}.jsonl`);
  if (!existsSync(file)) {
    mkdirSync(join(here, '.data'), { recursive: true });
    execFileSync(process.execPath, [join(here, 'gen-claude-stream.mjs'), `${file}.partial`, String(smallRecords)]);
    renameSync(`${file}.partial`, file);
  }
  return file;
}

async function throughput(): Promise<Row[]> {
  const rows: Row[] = [];
  if (selected.includes('claude-code'))
    rows.push(...(await throughputOf('claude-code', 'many small records', smallRecordsFile())));
  for (const harness of selected)
    rows.push(...(await throughputOf(harness, 'generated', await generated(harness, megabytes))));
  return rows;
}

/**
 * Start-up: `harness-events normalize` on a 5-line capture against `node -e 0`, 15 runs each, interleaved. The
 * figure that counts is CPU time (getrusage of each child, bench/cpu-on-exit.cjs), which other work on the machine
 * barely moves; the wall-clock time to the first event on stdout is reported beside it. Medians.
 */
async function startup() {
  const five = join(tmp, 'five.jsonl');
  writeFileSync(
    five,
    readFileSync(new URL('../test/fixtures/claude-code/lab/read.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .slice(0, 5)
      .join('\n') + '\n',
  );
  const cpuFile = join(tmp, 'cpu');
  const timed = (args: string[], untilOutput: boolean) =>
    new Promise<{ ms: number; cpuMs: number }>((resolve, reject) => {
      const started = performance.now();
      let ms: number | undefined;
      const child = spawn(process.execPath, ['--require', join(here, 'cpu-on-exit.cjs'), ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, BENCH_CPU_FILE: cpuFile },
      });
      if (untilOutput) child.stdout.once('data', () => (ms ??= performance.now() - started));
      child.stdout.resume();
      child.on('error', reject);
      child.on('close', () =>
        resolve({ ms: ms ?? performance.now() - started, cpuMs: Number(readFileSync(cpuFile, 'utf8')) }),
      );
    });
  const node: { ms: number; cpuMs: number }[] = [];
  const cli: { ms: number; cpuMs: number }[] = [];
  for (let run = 0; run < 15; run++) {
    node.push(await timed(['-e', '0'], false));
    cli.push(await timed([bin, 'normalize', '--harness', 'claude-code', five], true));
  }
  const of = (samples: { ms: number; cpuMs: number }[], key: 'ms' | 'cpuMs') => median(samples.map((s) => s[key]));
  const result = {
    nodeCpuMs: Math.round(of(node, 'cpuMs')),
    cpuMs: Math.round(of(cli, 'cpuMs')),
    aboveNodeCpuMs: Math.round(of(cli, 'cpuMs') - of(node, 'cpuMs')),
    // Issue 29: at most 60 ms of CPU time above node -e 0.
    goalAboveNodeCpuMs: 60,
    nodeMs: Math.round(of(node, 'ms')),
    firstEventMs: Math.round(of(cli, 'ms')),
    aboveNodeMs: Math.round(of(cli, 'ms') - of(node, 'ms')),
  };
  console.error(`startup: ${JSON.stringify(result)}`);
  return result;
}

/** Peak RSS of the API case on inputs of growing size: it must not grow with the input. */
async function memory() {
  const sizes = [100, megabytes, bigMegabytes];
  const rows: { mb: number; maxRssMb: number }[] = [];
  for (const size of sizes) {
    const file = await generated('claude-code', size);
    rows.push({ mb: sizeOf(file) / 1024 / 1024, maxRssMb: inProcess('api', 'claude-code', file).maxRssMb });
  }
  console.error(
    `memory: ${rows.map((row) => `${row.mb.toFixed(0)} MB -> ${row.maxRssMb.toFixed(0)} MB RSS`).join('; ')}`,
  );
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

/** Issue 30's bounds through the CLI: pending Write calls, a report of huge warnings, unfinished subagents. */
function issue30() {
  const result = JSON.parse(execFileSync(process.execPath, [join(here, 'issue30.mjs')], { encoding: 'utf8' }));
  console.error(`issue30: ${JSON.stringify(result)}`);
  return result;
}

/**
 * Session files read by their readers against the floor on the same file: a real capture's session (Claude Code's
 * transcript, Codex's rollout, Gemini CLI's chat file with its rewrites) repeated to BENCH_SESSION_MB, each repeat's
 * ids made its own so no repeat reads as a rewrite of another.
 */
async function sessions() {
  const fixtures = join(here, '..', 'test', 'fixtures');
  const inputs = [
    [
      'claude-code',
      'claude-code/transcripts/bash/home/.claude/projects/-home-user-project/' +
        'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl',
    ],
    [
      'codex',
      'codex/transcripts/read/home/.codex/sessions/2026/12/01/' +
        'rollout-2026-12-01T20-01-26-01a23332-a378-7021-bbef-638214f98eab.jsonl',
    ],
    ['gemini', 'gemini/transcripts/file-tools/home/.gemini/tmp/project/chats/session-2026-12-01T19-59-fefd50be.jsonl'],
  ] as const;
  const target = Number(process.env.BENCH_SESSION_MB ?? 100) * 1024 * 1024;
  const rows: { harness: string; mb: number; mbPerSecond: number; ratioToFloor: number; maxRssMb: number }[] = [];
  for (const [harness, fixture] of inputs) {
    const lines = readFileSync(join(fixtures, fixture), 'utf8');
    const file = join(tmp, `session-${harness}.jsonl`);
    const ids = /\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:toolu|msg|call|req)_\w+)/g;
    const parts: string[] = [];
    for (let repeat = 0, bytes = 0; bytes < target; repeat++) {
      const part = lines.replace(ids, (id) => `${id}-${repeat}`);
      parts.push(part);
      bytes += Buffer.byteLength(part);
    }
    writeFileSync(file, parts.join(''));
    const floor: Sample[] = [];
    const read: Sample[] = [];
    for (let run = 0; run < runs; run++) {
      floor.push(inProcess('floor', harness, file));
      read.push(inProcess('session', harness, file));
    }
    const mb = sizeOf(file) / 1024 / 1024;
    const seconds = median(read.map((s) => s.seconds));
    rows.push({
      harness,
      mb,
      mbPerSecond: mb / seconds,
      ratioToFloor: median(floor.map((s) => s.seconds)) / seconds,
      maxRssMb: median(read.map((s) => s.maxRssMb)),
    });
    rmSync(file);
    const row = rows.at(-1)!;
    console.error(
      `sessions: ${harness} ${row.mb.toFixed(0)} MB: ${row.mbPerSecond.toFixed(0)} MB/s, ` +
        `${row.ratioToFloor.toFixed(2)}x floor, ${row.maxRssMb.toFixed(0)} MB RSS`,
    );
  }
  return rows;
}

const rows = section('throughput') ? await throughput() : [];
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  megabytes,
  runs,
  rows,
  startup: section('startup') ? await startup() : undefined,
  memory: section('memory') ? await memory() : undefined,
  backpressure: section('backpressure') ? backpressure() : undefined,
  hostile: section('hostile') ? hostile() : undefined,
  issue30: section('issue30') ? issue30() : undefined,
  sessions: section('sessions') ? await sessions() : undefined,
  store: section('store') ? storeBench(tmp, runs) : undefined,
  directories: section('directories') ? directoriesBench(tmp, runs) : undefined,
  trace: section('trace') ? await traceBench(selected, runs) : undefined,
  codexJoin: section('codex-join') ? await codexJoinBench(runs) : undefined,
  usage: section('usage') ? usageBench(tmp, runs) : undefined,
  jetstream: section('jetstream') ? await jetstreamBench() : undefined,
};
writeFileSync(
  join(here, only === undefined ? 'results.json' : 'results-partial.json'),
  JSON.stringify(results, null, 2) + '\n',
);

console.log(`| harness | input | case | MB/s | lines/s | x floor | x readline floor | peak RSS MB |`);
console.log(`|---|---|---|---:|---:|---:|---:|---:|`);
for (const row of rows) {
  console.log(
    `| ${row.harness} | ${row.input} | ${row.case} | ${row.mbPerSecond.toFixed(0)} | ` +
      `${Math.round(row.linesPerSecond).toLocaleString('en')} | ${row.ratioToFloor.toFixed(2)} | ` +
      `${row.ratioToReadlineFloor.toFixed(2)} | ${row.maxRssMb.toFixed(0)} |`,
  );
}
if (results.jetstream) console.log(`\n${jetstreamTable(results.jetstream)}`);
rmSync(tmp, { recursive: true, force: true });
