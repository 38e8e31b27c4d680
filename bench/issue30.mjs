/**
 * Issue 30's memory and time bounds, measured through the CLI as a user runs it (each case a fresh process, its peak
 * RSS its own): node bench/issue30.mjs prints one JSON object of figures.
 *
 * - item 11: 600 unanswered 1 MB `Write` calls (main: 730 MB held by count alone);
 * - item 12: `report` of 25 warnings of 7.5 MB each (main: RangeError: Invalid string length);
 * - item 13: `view` of 20,000 and 40,000 subagents started and never ended (main: 3.9 s and 19.1 s, a ratio of 4.9).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const bin = join(here, '..', 'bin', 'harness-events.js');
const data = join(here, '.data');
mkdirSync(data, { recursive: true });

/** The CLI with `args`: exit code, seconds, peak RSS (MB), the bytes it wrote to stdout, the end of its stderr. */
function cli(args) {
  const rssFile = join(data, 'issue30-rss');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', join(here, 'rss-on-exit.cjs'), bin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_RSS_FILE: rssFile },
    });
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => (bytes += chunk.length));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-300)));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        exit: code,
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
        peakRssMb: Math.round(Number(readFileSync(rssFile, 'utf8'))),
        stdoutMb: Number((bytes / 1e6).toFixed(1)),
        stderr: stderr.trim().split('\n').at(-1) ?? '',
      }),
    );
  });
}

/** A file of JSON lines made once (kept in bench/.data between runs). */
function generated(name, count, line) {
  const file = join(data, name);
  if (existsSync(file)) return file;
  const fd = openSync(`${file}.tmp`, 'w');
  for (let n = 1; n <= count; n++) writeSync(fd, JSON.stringify(line(n)) + '\n');
  closeSync(fd);
  renameSync(`${file}.tmp`, file);
  return file;
}

const at = '2026-12-01T00:00:00.000Z';
const megabyte = 'x'.repeat(1_000_000);
const writes = generated('issue30-writes.jsonl', 600, (n) => ({
  type: 'assistant',
  message: {
    id: `m${n}`,
    type: 'message',
    role: 'assistant',
    content: [{ type: 'tool_use', id: `t${n}`, name: 'Write', input: { file_path: `/ws/f${n}`, content: megabyte } }],
  },
  parent_tool_use_id: null,
  session_id: 's',
}));
const warning = 'w'.repeat(7_500_000);
const warnings = generated('issue30-warnings.jsonl', 25, () => ({ type: 'warning', timestamp: at, message: warning }));
const subagents = (count) =>
  generated(`issue30-subagents-${count}.jsonl`, count, (n) => ({
    type: 'orchestration',
    timestamp: at,
    action: 'subagent_started',
    subagent_id: `a${n}`,
  }));

const pendingWrites = await cli(['normalize', '--harness', 'claude-code', writes]);
const report = await cli(['report', warnings]);
const view20k = await cli(['view', subagents(20_000)]);
const view40k = await cli(['view', subagents(40_000)]);
const view80k = await cli(['view', subagents(80_000)]);
console.log(
  JSON.stringify({
    pendingWrites,
    report,
    view: {
      20000: view20k,
      40000: view40k,
      80000: view80k,
      ratio40to20: Number((view40k.seconds / view20k.seconds).toFixed(2)),
      ratio80to40: Number((view80k.seconds / view40k.seconds).toFixed(2)),
    },
  }),
);
