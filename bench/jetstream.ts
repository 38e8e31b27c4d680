/**
 * Events per second through toJetStream to a local nats-server (Debian's, JetStream on a
 * temporary file store), beside the same events written as JSONL to a file and to stdout,
 * and published by the NATS client alone (the sink's ceiling), measured in the same run, each
 * case in a fresh process (bench/jetstream-measure.mjs).
 * The events: every real capture of every harness, normalized, repeated to BENCH_NATS_EVENTS
 * (default 100,000). Part of `npm run bench`; alone: `npm run build && tsx bench/jetstream.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createNormalizer } from '../lib/index.js';
import { toJetStream } from '../lib/interfaces/jetstream/index.js';
import { allCaptures, fixturePath } from '../test/helpers.js';
import { startNatsServer } from '../test/nats-server.js';

const eventCount = Number(process.env.BENCH_NATS_EVENTS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const measure = new URL('./jetstream-measure.mjs', import.meta.url).pathname;

export interface JetStreamRow {
  case: string;
  events: number;
  eventsPerSecond: number;
  ratioToFile: number;
}

/** The events of every capture, as JSONL, repeated until there are `count`. */
async function realEvents(count: number): Promise<string[]> {
  const lines: string[] = [];
  for (const { harness, file } of allCaptures()) {
    const normalizer = createNormalizer({ harness, cwd: '/ws' });
    normalizer.end(readFileSync(fixturePath(file)));
    for await (const event of normalizer) lines.push(JSON.stringify(event));
  }
  return Array.from({ length: count }, (_, index) => lines[index % lines.length]!);
}

function once(which: string, file: string, url: string, output: string): number {
  const child = spawnSync(process.execPath, [measure, which, file, url, output], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`${which}: exit ${child.status}: ${child.stderr}`);
  return JSON.parse(child.stderr.trim().split('\n').at(-1)!).seconds;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function jetstreamBench(): Promise<JetStreamRow[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'harness-events-bench-nats-'));
  const server = await startNatsServer();
  try {
    // The stream, as a sink creates it, before the client case publishes into it.
    await pipeline(Readable.from([]), toJetStream({ servers: server.url, harness: 'bench', run: 'setup' }));
    const events = await realEvents(eventCount);
    const file = join(tmp, 'events.jsonl');
    writeFileSync(file, events.join('\n') + '\n');
    // One at a time is slow: a tenth of the events says as much.
    const fewer = join(tmp, 'fewer.jsonl');
    writeFileSync(fewer, events.slice(0, Math.ceil(eventCount / 10)).join('\n') + '\n');
    const cases = [
      { name: 'file', input: file, count: eventCount },
      { name: 'stdout', input: file, count: eventCount },
      { name: 'client', input: file, count: eventCount },
      { name: 'jetstream', input: file, count: eventCount },
      { name: 'jetstream-1', input: fewer, count: Math.ceil(eventCount / 10) },
    ];
    const seconds = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let run = 0; run < runs; run++) {
      for (const c of cases) seconds.get(c.name)!.push(once(c.name, c.input, server.url, join(tmp, 'out.jsonl')));
    }
    const rate = (c: (typeof cases)[number]) => c.count / median(seconds.get(c.name)!);
    const fileRate = rate(cases[0]!);
    const rows = cases.map((c) => ({
      case: c.name,
      events: c.count,
      eventsPerSecond: rate(c),
      ratioToFile: rate(c) / fileRate,
    }));
    for (const row of rows)
      console.error(
        `jetstream bench ${row.case}: ${Math.round(row.eventsPerSecond).toLocaleString('en')} events/s, ` +
          `${row.ratioToFile.toFixed(3)}x file`,
      );
    return rows;
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function jetstreamTable(rows: JetStreamRow[]): string {
  return [
    '| sink | events | events/s | x file |',
    '|---|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.case} | ${row.events.toLocaleString('en')} | ` +
        `${Math.round(row.eventsPerSecond).toLocaleString('en')} | ${row.ratioToFile.toFixed(3)} |`,
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(jetstreamTable(await jetstreamBench()));
