/**
 * The backpressure figure: a child writes 256 MB of Claude Code lines as fast as it can; the
 * consumer reads events from spawnHarness at a fixed slow rate. Reports the parent's peak RSS
 * and the most bytes ever in flight (written by the child, not yet read as events).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnHarness } from '../dist/lib/index.js';

const total = 256 * 1024 * 1024;
const eventsPerTick = 100;
const tickMs = 50;
const lineBytes = 16 * 1024 + 90; // flood.mjs writes lines of one length
const dir = mkdtempSync(join(tmpdir(), 'harness-events-backpressure-'));
const progress = join(dir, 'progress');
const flood = new URL('../test/children/flood.mjs', import.meta.url).pathname;

const run = spawnHarness({ harness: 'claude-code', command: process.execPath, args: [flood, String(total), progress] });
const written = () => {
  try {
    // "BYTES STATE" (see flood.mjs).
    return Number(readFileSync(progress, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
};

let read = 0;
let maxInFlight = 0;
let peakRss = 0;
const started = performance.now();
let tick = 0;
for await (const event of run) {
  if (event.type !== 'agent') continue;
  read++;
  if (read % eventsPerTick === 0) {
    tick++;
    maxInFlight = Math.max(maxInFlight, written() - read * lineBytes);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    // A consumer at a fixed rate: eventsPerTick events every tickMs.
    const due = started + tick * tickMs;
    await sleep(Math.max(0, due - performance.now()));
  }
}
const seconds = (performance.now() - started) / 1000;
const childWrote = written();
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    childWroteMb: childWrote / 1024 / 1024,
    consumerRateMbPerSecond: (eventsPerTick * lineBytes * (1000 / tickMs)) / 1024 / 1024,
    seconds,
    maxInFlightMb: maxInFlight / 1024 / 1024,
    parentPeakRssMb: Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1024 / 1024,
  }),
);
