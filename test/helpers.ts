import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createNormalizer, harnesses, type HarnessName, type NormalizeOptions } from '../lib/index.js';
import type { EventBody, HarnessEvent, RunMetrics } from '../lib/kernel/events.js';
import type { Harness } from '../lib/kernel/harness.js';
import { sharedRecords, verbatimRules } from '../lib/kernel/record-table.js';
import type { HarnessRun, HarnessRunError, RunResult } from '../lib/index.js';
import type { TraceRecord } from '../lib/kernel/trace.js';
import * as validators from '../lib/kernel/validators.js';

export const fixturesDir = new URL('./fixtures/', import.meta.url);

export function fixturePath(relative: string): string {
  return new URL(relative, fixturesDir).pathname;
}

/**
 * Every harness output (`.jsonl`) of a fixture folder and of its subfolders (`lab/`, ACP's one
 * per agent), relative to test/fixtures; not what a client sent the harness (`.client.jsonl`).
 */
export function fixtureFiles(harness: string): string[] {
  const files: string[] = [];
  const folder = new URL(`${harness}/`, fixturesDir);
  if (!existsSync(folder)) return files;
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const dirs = [harness, ...entries.filter((entry) => entry.isDirectory()).map((entry) => `${harness}/${entry.name}`)];
  for (const dir of dirs) {
    for (const name of readdirSync(new URL(`${dir}/`, fixturesDir)).sort()) {
      if (name.endsWith('.jsonl') && !name.endsWith('.client.jsonl')) files.push(`${dir}/${name}`);
    }
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
export async function run(
  input: Buffer | string | (Buffer | string)[],
  options: NormalizeOptions & { output?: 'objects' },
): Promise<Run> {
  const rules: string[] = [];
  const normalizer = createNormalizer({
    strict: true,
    ...options,
    trace: false,
    onLine: (line, rule) => (rules[line] = rule),
  });
  const chunks = Array.isArray(input) ? input : [input];
  Readable.from(
    chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk)),
    { objectMode: false },
  ).pipe(normalizer);
  const events: HarnessEvent[] = [];
  for await (const event of normalizer) events.push(event);
  return { events, metrics: normalizer.metrics, rules: rules.slice(1) };
}

export function runFixture(relative: string, options: NormalizeOptions & { output?: 'objects' }): Promise<Run> {
  return run(readFileSync(fixturePath(relative)), options);
}

/** The trace stream of a fixture (docs/contract.md "Trace stream"), each record checked against trace.schema.json. */
export async function traceFixture(relative: string, options: NormalizeOptions): Promise<TraceRecord[]> {
  const normalizer = createNormalizer({ ...options, output: 'objects', trace: true });
  Readable.from([readFileSync(fixturePath(relative))], { objectMode: false }).pipe(normalizer);
  const records: TraceRecord[] = [];
  for await (const record of normalizer) {
    if (!validators.trace(record)) throw new Error(`invalid trace record ${JSON.stringify(record)}`);
    records.push(record);
  }
  return records;
}

/** Records as lines of JSONL. */
export function jsonl(...records: unknown[]): string {
  return records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record)) + '\n').join('');
}

/** The events (bodies) one harness gives for records written as lines: what each harness's rules tests call. */
export function eventsOf(options: NormalizeOptions & { output?: 'objects' }) {
  return async (...records: unknown[]) => bodies((await run(jsonl(...records), options)).events);
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

/**
 * The parsed JSON of each line of a fixture (1-based: `parsedLines(f)[1]` is line 1); a line that is not JSON as its
 * text.
 */
export function parsedLines(relative: string): unknown[] {
  const text = readFileSync(fixturePath(relative), 'utf8');
  return [undefined, ...text.split('\n').map((line) => (line.trim() === '' ? undefined : parseOrText(line)))];
}

function parseOrText(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

/** The rules of every harness's tables that keep their record verbatim as an `unknown` event (the tables' field). */
const verbatim = verbatimRules(
  ...[...harnesses.values()].flatMap((harness) => [
    sharedRecords,
    harness.records,
    ...Object.values(harness.tables ?? {}),
  ]),
);

/** Whether the rule with this id keeps its line as an `unknown` event (its row's `verbatim` says so). */
export const keepsUnknown = (id: string) => verbatim.has(id);

/**
 * The lossless check (docs/contract.md "Nothing is lost"): every input line was handled by one of
 * the harness's named rules, and every line a rule turned into `unknown` appears verbatim in
 * an unknown event.
 */
export function expectLossless(result: Run, relative: string, namedRules: readonly string[]): void {
  const lines = parsedLines(relative);
  const text = readFileSync(fixturePath(relative), 'utf8');
  const physical = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  if (result.rules.length !== physical)
    throw new Error(`${relative}: ${result.rules.length} lines accounted, ${physical} in the file`);
  const unknownRaws = result.events
    .filter((e) => e.type === 'unknown')
    .map((e) => JSON.stringify((e as { raw: unknown }).raw));
  result.rules.forEach((rule, index) => {
    if (!namedRules.includes(rule)) throw new Error(`${relative}:${index + 1}: handled by "${rule}", not a named rule`);
    if (keepsUnknown(rule) && !unknownRaws.includes(JSON.stringify(lines[index + 1]))) {
      throw new Error(`${relative}:${index + 1}: "${rule}" but no unknown event carries the line`);
    }
  });
}

/** The harnesses with real captures (test/fixtures/<name>/): every one but gg, whose correlator is one rule. */
export function capturedHarnesses(): HarnessName[] {
  return [...harnesses.keys()].filter((harness) => fixtureFiles(harness).length > 0);
}

/** Every real capture of every harness, as { harness, file } (the folder is the harness's name). */
export function allCaptures(): { harness: HarnessName; file: string }[] {
  return [...harnesses.keys()].flatMap((harness) => fixtureFiles(harness).map((file) => ({ harness, file })));
}

/** A harness whose every record becomes an event that breaks its schema: with `strict`, a stage that throws. */
export const brokenHarness: Harness = {
  name: 'broken',
  records: {},
  tools: new Map(),
  correlator: (run) => ({
    record: () => (run.emit({ type: 'read' } as EventBody), 'broken'),
    end() {},
  }),
};

/**
 * What test/children/flood.mjs reports in its progress file ("BYTES STATE"): the bytes it has
 * handed to its stdout and what it is doing; 0 and "starting" before its first report.
 */
export function floodProgress(file: string): { bytes: number; state: string } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // Not written yet.
  }
  const [bytes, state] = text.split(' ');
  return { bytes: Number(bytes), state: state ?? 'starting' };
}

/**
 * What an ACP capture's lab client asked (its `NAME.client.jsonl`): the prompt, and the model it
 * selected, so a live run of the capture sends the same requests with the same ids.
 */
export function acpLabRequests(file: string): { prompt: string; model?: string } {
  const sent = readFileSync(file.replace(/\.jsonl$/, '.client.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { method?: string; params: { prompt?: { text: string }[]; modelId?: string } });
  const prompt = sent.find((message) => message.method === 'session/prompt')!.params.prompt![0]!.text;
  const model = sent.find((message) => message.method === 'session/set_model')?.params.modelId;
  return model === undefined ? { prompt } : { prompt, model };
}

/**
 * Writes `dir/name`, an executable shell script running `body` (a stand-in found on PATH, as the real program would
 * be); returns `{ PATH }` with `dir` first.
 */
export function onPath(dir: string, name: string, body: string): { PATH: string } {
  writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
  return { PATH: `${dir}:${process.env.PATH}` };
}

/** How a run ended, whether `done` resolved or rejected (a `HarnessRunError` is a `RunResult` too). */
export function settled(run: HarnessRun): Promise<RunResult> {
  return run.done.catch((error: HarnessRunError) => error);
}
