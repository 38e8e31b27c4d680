import { readFileSync, readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createNormalizer, type NormalizeOptions } from '../lib/index.js';
import type { HarnessEvent, RunMetrics } from '../lib/events.js';

export const fixturesDir = new URL('./fixtures/', import.meta.url);

export function fixturePath(relative: string): string {
  return new URL(relative, fixturesDir).pathname;
}

/** Every `.jsonl` file of a fixture folder and its `lab/`, relative to test/fixtures. */
export function fixtureFiles(harness: string): string[] {
  const files: string[] = [];
  for (const dir of [harness, `${harness}/lab`]) {
    let names: string[];
    try {
      names = readdirSync(new URL(`${dir}/`, fixturesDir));
    } catch {
      continue;
    }
    for (const name of names.sort()) if (name.endsWith('.jsonl')) files.push(`${dir}/${name}`);
  }
  return files;
}

export interface Run {
  events: HarnessEvent[];
  metrics: RunMetrics;
  /** The rule that handled each input line, by 1-based line number. */
  rules: string[];
}

/** Normalizes `input`, written in the given chunks (default: one chunk). */
export async function run(input: Buffer | string | (Buffer | string)[], options: NormalizeOptions): Promise<Run> {
  const rules: string[] = [];
  const normalizer = createNormalizer({ strict: true, ...options, onLine: (line, rule) => (rules[line] = rule) });
  const chunks = Array.isArray(input) ? input : [input];
  Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)), { objectMode: false }).pipe(normalizer);
  const events: HarnessEvent[] = [];
  for await (const event of normalizer) events.push(event);
  return { events, metrics: normalizer.metrics, rules: rules.slice(1) };
}

export function runFixture(relative: string, options: NormalizeOptions): Promise<Run> {
  return run(readFileSync(fixturePath(relative)), options);
}

/** Records as lines of JSONL. */
export function jsonl(...records: unknown[]): string {
  return records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record)) + '\n').join('');
}

/** Events without their observation time (which differs on every run), after checking its form. */
export function untimed(events: HarnessEvent[]): Omit<HarnessEvent, 'timestamp'>[] {
  return events.map(({ timestamp, ...rest }) => {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(timestamp)) throw new Error(`bad timestamp ${timestamp}`);
    return rest;
  });
}

/** Events without timestamps or session ids: what a test of one mapping rule compares. */
export function bodies(events: HarnessEvent[]): Record<string, unknown>[] {
  return untimed(events).map((event) => {
    const { session_id: _session, ...rest } = event as Record<string, unknown>;
    return rest;
  });
}
