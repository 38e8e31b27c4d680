/** What the JetStream tests share: a replayed capture published through a sink, and reading it back. */
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HarnessEvent, RunMetrics } from '../../../lib/kernel/events.js';
import type { HarnessName } from '../../../lib/index.js';
import { spawnHarness, type HarnessRun, type SpawnHarnessOptions } from '../../../lib/runtime/run/spawn.js';
import { acpLabRequests } from '../../helpers.js';
import type { JetStreamSinkOptions } from '../../../lib/interfaces/jetstream/options.js';
import { toJetStream, type JetStreamSink } from '../../../lib/interfaces/jetstream/sink.js';
import {
  fromJetStream,
  type JetStreamRecord,
  type JetStreamSourceOptions,
} from '../../../lib/interfaces/jetstream/source.js';

export const children = new URL('../../children/', import.meta.url).pathname;

export interface Publishing {
  run: HarnessRun;
  sink: JetStreamSink;
  /** Every event the sink was given, in order. */
  events: HarnessEvent[];
  /** The most events the sink ever had unacknowledged when it was given one more. */
  maxInFlight: number;
  /** The pipeline: resolves when every event is acknowledged. */
  done: Promise<void>;
}

/** A child to run through spawnHarness (an ACP agent with the prompt and model to send). */
export interface Spawned extends Pick<SpawnHarnessOptions, 'prompt' | 'model'> {
  harness: HarnessName;
  command: string;
  args: string[];
}

/** Runs a child through spawnHarness into a sink, its run metrics as the final message. */
export function startPublishing(spawn: Spawned, sinkOptions: Omit<JetStreamSinkOptions, 'harness'>): Publishing {
  const run = spawnHarness(spawn);
  const sink = toJetStream({ harness: spawn.harness, metrics: () => run.metrics, ...sinkOptions });
  const publishing: Publishing = { run, sink, events: [], maxInFlight: 0, done: Promise.resolve() };
  const tap = new Transform({
    objectMode: true,
    transform(event: HarnessEvent, _encoding, done) {
      publishing.events.push(event);
      publishing.maxInFlight = Math.max(publishing.maxInFlight, sink.inFlight);
      done(null, event);
    },
  });
  publishing.done = pipeline(run, tap, sink);
  return publishing;
}

export async function publishRun(
  spawn: Spawned,
  sinkOptions: Omit<JetStreamSinkOptions, 'harness'>,
): Promise<Publishing & { metrics: RunMetrics }> {
  const publishing = startPublishing(spawn, sinkOptions);
  await publishing.done;
  return { ...publishing, metrics: publishing.run.metrics };
}

/** Waits for a condition, checking every 10 ms (the test's timeout bounds the wait). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

/**
 * A real capture replayed by a child as fast as the pipe takes it (an ACP agent is asked what its lab client asked).
 */
export function replaying(harness: HarnessName, file: string): Spawned {
  return {
    harness,
    command: process.execPath,
    args: [join(children, 'replay.mjs'), file, '0'],
    ...(harness === 'acp' ? acpLabRequests(file) : {}),
  };
}

export async function readAll(options: JetStreamSourceOptions & { output: 'records' }): Promise<JetStreamRecord[]>;
export async function readAll(options: JetStreamSourceOptions): Promise<HarnessEvent[]>;
export async function readAll(options: JetStreamSourceOptions): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of fromJetStream(options)) items.push(item);
  return items;
}

/** What a run's metrics look like once they have been through JSON. */
export function asStored(metrics: RunMetrics): RunMetrics {
  return JSON.parse(JSON.stringify(metrics));
}

/** Deep equality of long lists of big items, reporting the first difference, not the whole lists. */
export function expectSame(actual: unknown[], expected: unknown[]): void {
  const index = expected.findIndex((item, at) => JSON.stringify(item) !== JSON.stringify(actual[at]));
  if (index !== -1)
    expect({ index, item: JSON.stringify(actual[index])?.slice(0, 300) }).toEqual({
      index,
      item: JSON.stringify(expected[index]).slice(0, 300),
    });
  expect(actual.length).toBe(expected.length);
}
