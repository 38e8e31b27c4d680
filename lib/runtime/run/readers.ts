/**
 * A run's readers: its stdout's normalizer (the harness's reader, or its companion join's stdout reader) and the
 * companion file joined to it (companion.ts: Codex's rollout), whose events go out with stdout's. With `trace: true`,
 * the trace writer around both: the run starts now, and ends with the run's own last events, not with its stdout.
 */
import { now } from '../../kernel/clock.js';
import type { EventBody, RunMetrics } from '../../kernel/events.js';
import type { Harness } from '../../kernel/harness.js';
import type { TraceRecordOf } from '../../kernel/trace.js';
import { stamp } from '../../kernel/stamp.js';
import type { TraceWriter } from '../../transforms/trace.js';
import { createNormalizer, traceWriterOf, type Normalizer } from '../normalizer.js';
import { joinCompanion, type JoinedFile } from './companion.js';
import type { RunItem } from './output.js';
import { childEnv, type SpawnHarnessOptions } from './spawn-options.js';

export interface RunReaders {
  /** Stdout's reader: the child's stdout is piped into it. */
  readonly normalizer: Normalizer<unknown>;
  readonly metrics: RunMetrics;
  /** With `trace: true`: the run's own records go through it. */
  readonly trace: TraceWriter | undefined;
  /** The companion file joined to the run, for a harness that writes one. */
  readonly joined: JoinedFile | undefined;
  /** What stdout's reader holds goes out now: before a stderr line's warning, when a joined file gives up holding. */
  flushStdout(): void;
  /** Sends one of the run's own events (stamped now), in the trace when it is on. */
  emit(body: EventBody): void;
}

/** What the readers tell the run. */
export interface ReaderHooks {
  /** A record of stdout (each parsed line), after the joined file has seen it. */
  record(record: unknown): void;
  /** An event or trace record for the run's stream; false: the reader is behind. */
  send(item: RunItem): boolean;
  /** The joined file is done: the run may end. */
  settled(): void;
  /** A model call the joined file said (it is in the trace already, when the trace is on). */
  modelCall(record: TraceRecordOf<'model_call'>): void;
}

export function createReaders(
  harness: Harness,
  options: SpawnHarnessOptions & { trace?: boolean },
  /** The run starts a new session (launch's `startsSession`): a session's total on stdout is the run's own. */
  startsSession: boolean,
  hooks: ReaderHooks,
): RunReaders {
  const join = harness.companion?.join(harness);
  const normalizer = createNormalizer({
    ...options,
    // `~` in the child's paths is the child's home.
    home: options.home ?? (options.env ?? process.env).HOME,
    env: childEnv(options),
    idleFlushMs: options.idleFlushMs ?? 200,
    harness: join?.stdout ?? harness,
    output: 'objects',
    onRecord(record) {
      options.onRecord?.(record);
      joined?.record(record);
      hooks.record(record);
    },
  });
  const { metrics } = normalizer;
  const trace = traceWriterOf(normalizer);
  trace?.endLater();
  trace?.start(startsSession);
  const flushStdout = flushing(normalizer);
  const send = (event: Parameters<TraceWriter['event']>[0]) =>
    trace ? trace.event(event, hooks.send) : hooks.send(event);
  const emit = (body: EventBody) => send(stamp(body, now(), metrics.session_id));
  const joined =
    join &&
    joinCompanion(harness.companion!, join, options, {
      metrics,
      send,
      warn: (message) => emit({ type: 'warning', message }),
      settled: hooks.settled,
      unheld: flushStdout,
      modelCall(record) {
        if (trace) hooks.send(record);
        hooks.modelCall(record);
      },
    });
  return { normalizer, metrics, trace, joined, flushStdout, emit };
}

/** Flushes a normalizer's held events; a stage that throws then destroys it, as one that throws on a write. */
function flushing(normalizer: Normalizer<unknown>): () => void {
  return () => {
    try {
      normalizer.flush();
    } catch (error) {
      normalizer.destroy(error as Error);
    }
  };
}
