/**
 * A harness's companion file joined to a live run (`Harness.companion`: Codex's rollout): once a stdout record names
 * it, it is looked for under the child's environment and followed as the CLI writes it (the session follower's
 * tail), through its own reader, whose events (what stdout lacks, and what stdout held for it) join the run's, within
 * the run's own bounds. When the child exits it is read to its end, and the run ends after it. Not found within
 * `HOLD_MS`, stdout holds nothing more for it; not found by the child's exit (`codex exec --ephemeral`, an unwritable
 * home): one warning, and the run is its stdout alone. Its model calls (the trace's `model_call` records) go to the run
 * too, each once, but for those written before the run started: a resumed thread's file holds its earlier runs'.
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { resolve } from 'node:path';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import type { TraceRecord, TraceRecordOf } from '../../kernel/trace.js';
import type { CompanionJoin, Companion, Harness } from '../../kernel/harness.js';
import { createNormalizer, type NormalizeOptions } from '../normalizer.js';
import { tailFile } from '../sessions/tail.js';
import { childEnv, type SpawnHarnessOptions } from './spawn-options.js';

/** How often the file is looked for until it exists, and its growth polled behind fs.watch (ms). */
const POLL_MS = 100;
/** How long stdout may hold events for a file not found yet (ms): Codex writes the rollout before any call. */
export const HOLD_MS = 2_000;
/** The most related files (sub-agents' threads) a run follows, and model call ids kept, without `maxPendingTools`. */
const MAX_RELATED = 10_000;

export interface JoinedFile {
  /** A record of the run's stdout: the first that names the file starts the joining. */
  record(record: unknown): void;
  /** The child exited: the file is read to its current end, or, not found now, given up on. */
  exited(): void;
  /** Whether nothing of it is left to give (never named, given up on, or read to its end). */
  readonly done: boolean;
}

/** Where the joined file's events go: the run's. */
interface JoinSink {
  /** The run's metrics: each joined event is counted in them. */
  metrics: RunMetrics;
  /** A joined event, to go out with the run's. */
  send(event: HarnessEvent): void;
  /** A model call of the run's, said by the file (each once). */
  modelCall(record: TraceRecordOf<'model_call'>): void;
  warn(message: string): void;
  /** It is done (the run may end). */
  settled(): void;
  /** Stdout holds nothing more for it (not found in time): what stdout held is to go out now. */
  unheld(): void;
}

export function joinCompanion(
  companion: Companion,
  join: CompanionJoin,
  run: SpawnHarnessOptions,
  sink: JoinSink,
): JoinedFile {
  const env = childEnv(run);
  // As the run's stdout is read: its directory, the child's home, the same bounds.
  const normalize: Omit<NormalizeOptions, 'harness'> = {
    cwd: resolve(run.cwd ?? '.'),
    home: run.home ?? env.HOME,
    strict: run.strict,
    maxLineBytes: run.maxLineBytes,
    streamLinesAbove: run.streamLinesAbove,
    maxPendingTools: run.maxPendingTools,
    maxPendingBytes: run.maxPendingBytes,
    maxSpanBytes: run.maxSpanBytes,
  };
  const finish = new AbortController();
  let id: string | undefined;
  // The files being read (the run's, its related ones): the run ends once none is left.
  let reading = 0;
  // The related files named so far, each read once (bounded, as a correlator's state is).
  const related = new Set<string>();
  // Whether stdout was told to hold nothing more (the file not found in time).
  let given = false;
  // Rows written before now are an earlier run's (a resumed thread appends to its file).
  const since = Date.now();
  // The model calls said, by id: each once (bounded, as a correlator's state is).
  const calls = new BoundedMap<true>(run.maxPendingTools ?? MAX_RELATED);

  /** Whether a model call read from the file is this run's, and new. */
  function ours(call: TraceRecordOf<'model_call'>): boolean {
    if (call.at_source === 'harness' && Date.parse(call.at) < since) return false;
    if (call.model_call_id === undefined) return true;
    if (calls.has(call.model_call_id)) return false;
    calls.set(call.model_call_id, true);
    return true;
  }

  /** Reads a file named by stdout with `reader`; the run may end when it and the others are done. */
  function start(named: string, reader: Harness, main: boolean): void {
    reading++;
    follow(named, reader, main)
      .catch((error: Error) => sink.warn(`the ${companion.what} could not be read: ${error.message}`))
      .finally(() => {
        if (--reading === 0) sink.settled();
      });
  }

  /** The file's path once found; undefined when the child exited first (one warning). */
  async function look(named: string, main: boolean): Promise<string | undefined> {
    const since = Date.now();
    for (;;) {
      const exited = finish.signal.aborted;
      const path = await companion.find(named, env);
      if (path !== undefined) return path;
      if (exited) {
        sink.warn(
          main
            ? `no ${companion.what} for ${named} was found (an ephemeral run, or its home not writable): ` +
                'the events are its stdout alone'
            : `no ${companion.what} for ${named}, which the run named, was found: its events are not the run's`,
        );
        return undefined;
      }
      if (main && !given && Date.now() - since >= HOLD_MS) {
        given = true;
        join.unheld();
        sink.unheld();
      }
      // One listener at a time: a poll that times out takes its own off (a long run would pile them up).
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          finish.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, POLL_MS);
        finish.signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Reads the file named `named` as it is written, to its end after the child's exit; none found, nothing. */
  async function follow(named: string, reader: Harness, main: boolean): Promise<void> {
    // Made now: its end gives what stdout held for the file, found or not.
    // The trace's records, for the model calls in them: the events go out unwrapped, and the run's trace wraps them.
    const normalizer = createNormalizer({ ...normalize, harness: reader, output: 'objects', trace: true });
    normalizer.on('data', (record: TraceRecord) => {
      if (record.kind === 'model_call' && ours(record)) sink.modelCall(record);
      if (record.kind !== 'event') return;
      const { event } = record;
      sink.metrics.events[event.type] = (sink.metrics.events[event.type] ?? 0) + 1;
      sink.send(event);
    });
    // A stage that throws (a strict schema violation) ends the joining, not the run: stdout goes on.
    normalizer.on('error', (error) => sink.warn(`the ${companion.what} could not be read: ${error.message}`));
    const over = finished(normalizer).catch(() => {});
    const path = await look(named, main).catch((error: Error) => {
      sink.warn(`the ${companion.what} could not be read: ${error.message}`);
      return undefined;
    });
    if (path !== undefined) {
      const tail = { quietMs: Infinity, endGraceMs: Infinity, ended: () => false, pollMs: POLL_MS };
      for await (const chunk of tailFile(path, { ...tail, finish: finish.signal })) {
        if (normalizer.destroyed) break;
        if (Buffer.isBuffer(chunk) && !normalizer.write(chunk))
          await Promise.race([once(normalizer, 'drain').catch(() => {}), over]);
      }
    }
    if (!normalizer.destroyed) normalizer.end();
    await over;
  }

  return {
    record(record) {
      if (id === undefined) {
        id = companion.id(record);
        if (id !== undefined) start(id, join.file, true);
      }
      for (const named of companion.related?.(record) ?? []) {
        if (related.has(named) || related.size >= (run.maxPendingTools ?? MAX_RELATED)) continue;
        related.add(named);
        start(named, join.related!, false);
      }
    },
    exited: () => finish.abort(),
    get done() {
      return id === undefined || reading === 0;
    },
  };
}
