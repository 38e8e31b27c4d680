/**
 * The public pipeline: raw harness output in, normalized events out.
 *
 * The five stages of lib/transforms/ are fused into one Transform rather than joined as five
 * streams: each stage boundary would otherwise cost a stream hop per line (see the README's
 * Performance section). Each stage is still its own file, usable on its own in
 * `stream.pipeline`; here they are the same code, called directly.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import type { Duplex } from 'node:stream';
import { harnessFrom, type HarnessOption } from './registry.js';
import { classify } from '../transforms/classify.js';
import { correlator, type Correlated } from '../transforms/correlate.js';
import { parseJson } from '../transforms/parse-json.js';
import { DEFAULT_MAX_LINE_BYTES, DEFAULT_STREAM_LINES_ABOVE, splitLines } from '../transforms/split-lines.js';
import { limit } from '../kernel/limits.js';
import { validate } from '../transforms/validate.js';
import type { HarnessEvent, RunMetrics } from '../kernel/events.js';
import type { TraceRecord } from '../kernel/trace.js';
import type { TraceWriter } from '../transforms/trace.js';
import { createMetrics } from '../kernel/metrics.js';
import { compose, toTransform, type Sink } from '../kernel/stage.js';

/** What {@link createNormalizer} and {@link normalize} take: the harness, the run's context, and the limits. */
export interface NormalizeOptions {
  /** The harness whose output this is, by name (`claude-code`, `codex`, ...) or a `Harness` of your own. */
  harness: HarnessOption;
  /**
   * The run's working directory (itself resolved against the process's when relative); relative paths in events resolve
   * against it.
   */
  cwd?: string;
  /**
   * The run's home directory: `~` and `~/...` in a path expand against it (docs/contract.md "Paths"). Default the
   * process's own; `spawnHarness` passes the child's `HOME`.
   */
  home?: string;
  /**
   * The harness process's environment, for the rules that depend on it (docs/contract.md "Paths": `HOME` when `home` is
   * not given, Claude Code's `CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR`). `spawnHarness` passes the child's.
   */
  env?: NodeJS.ProcessEnv;
  /** A schema violation is a stream error, not a warning plus an `unknown` event. Default false. */
  strict?: boolean;
  /** The longest input line kept, in bytes; longer ones become `line_too_long` warnings. Default 64 MiB. */
  maxLineBytes?: number;
  /**
   * Lines longer than this, in bytes, are parsed incrementally as they arrive and keep at most
   * this much of their content (strings cut, the rest dropped, with a `truncated` warning), so
   * memory does not grow with the line. Default 8 MiB.
   */
  streamLinesAbove?: number;
  /** Tool calls that may wait for a result at once; past it the oldest is emitted unresolved. Default 10,000. */
  maxPendingTools?: number;
  /**
   * The bytes those calls may hold at once (their inputs, by their strings' lengths); past it the oldest is emitted
   * unresolved. Default 64 MiB.
   */
  maxPendingBytes?: number;
  /** The longest accumulated text span, in bytes; past it the text is emitted in parts. Default 16 MiB. */
  maxSpanBytes?: number;
  /**
   * Called once per input line with its 1-based number and the name of the rule that handled it: an audit trail of
   * where each line went.
   */
  onLine?: (line: number, rule: string) => void;
  /**
   * Called with each parsed JSON line (any JSON value), after the events it gave: how a client
   * that answers the harness reads what it says (ACP, where the library is the agent's client).
   */
  onRecord?: (record: unknown) => void;
  /**
   * `objects` (default): the readable side gives `HarnessEvent` objects. `jsonl`: it gives the
   * wire form, one JSON line per event, batched per input chunk (what the CLI writes).
   */
  output?: 'objects' | 'jsonl';
  /**
   * Live input: when no input has arrived for this many milliseconds, held text (an agent
   * message waiting for its message to end) is emitted rather than waiting for the next line.
   * Off by default, so a file normalizes the same however fast it is read; `spawnHarness` and
   * the CLI on standard input use 200.
   */
  idleFlushMs?: number;
  /**
   * The trace stream instead of the plain events (docs/contract.md "Trace stream"): each event, unchanged and in the
   * same order, wrapped in an `event` record with the tool call, agent and model call it came from, between
   * lifecycle records (`run_started`, `call_started`, `call_ended`, `agent_started`, `agent_ended`, `model_call`,
   * `run_ended`) with the harness's own times where its records have them. With `output: 'jsonl'`, one JSON line
   * per record. Default false.
   */
  trace?: boolean;
}

/**
 * A Duplex (a `node:stream` Transform): bytes in, `HarnessEvent` objects out, or with
 * `output: 'jsonl'` Buffers of JSON lines (`Normalizer<Buffer>`).
 */
export interface Normalizer<Out = HarnessEvent> extends Duplex {
  /** The run metrics; complete once the readable side has ended. */
  readonly metrics: RunMetrics;
  /** Emits held text now (a text span waiting for its message to end), as if the input had paused. */
  flush(): void;
  /** Iterates the events (or with `output: 'jsonl'`, the Buffers of JSON lines) as they leave. */
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<Out>;
}

/** Options that ask for the wire form: the normalizer gives Buffers of JSON lines. */
export type JsonlOptions = NormalizeOptions & {
  /** The wire form: one JSON line per event. */
  output: 'jsonl';
};

/** Options that ask for the trace stream as objects: the normalizer gives `TraceRecord`s. */
export type TraceOptions = NormalizeOptions & {
  /** The trace stream. */
  trace: true;
  /** Objects (the default). */
  output?: 'objects';
};

/**
 * Creates the pipeline for one run: a Transform that takes a harness's raw output (bytes, any chunking) and gives
 * normalized, schema-valid events as soon as the harness's mapping allows. Bad input never fails the stream: it is a
 * warning or an `unknown` event. `metrics` is complete once the readable side has ended.
 *
 * With `output: 'jsonl'` it gives Buffers of JSON lines (the wire form).
 *
 * @example
 * ```ts
 * import { spawn } from 'node:child_process';
 * import { Writable } from 'node:stream';
 * import { pipeline } from 'node:stream/promises';
 * import { createNormalizer } from 'harness-events';
 *
 * const child = spawn('claude', ['-p', 'fix the tests', '--output-format', 'stream-json', '--verbose']);
 * const normalizer = createNormalizer({ harness: 'claude-code', cwd: process.cwd() });
 * await pipeline(
 *   child.stdout,
 *   normalizer,
 *   new Writable({ objectMode: true, write: (event, _encoding, done) => (console.log(event), done()) }),
 * );
 * console.log(normalizer.metrics); // tokens, cost, turns, the final output, ...
 * ```
 */
export function createNormalizer(options: JsonlOptions): Normalizer<Buffer>;
/** Creates the pipeline for one run, giving the trace stream's records (`trace: true`). */
export function createNormalizer(options: TraceOptions): Normalizer<TraceRecord>;
/** Creates the pipeline for one run, giving `HarnessEvent` objects (the default output). */
export function createNormalizer(options: NormalizeOptions & { output?: 'objects'; trace?: false }): Normalizer;
/** Creates the pipeline for one run, its output chosen at run time (`options.output`). */
export function createNormalizer(options: NormalizeOptions): Normalizer<HarnessEvent | TraceRecord | Buffer>;
export function createNormalizer(options: NormalizeOptions): Normalizer<HarnessEvent | TraceRecord | Buffer> {
  const harness = harnessFrom(options.harness);
  const metrics = createMetrics(harness);
  const maxLineBytes = limit('maxLineBytes', options.maxLineBytes, DEFAULT_MAX_LINE_BYTES);
  const streamLinesAbove = limit('streamLinesAbove', options.streamLinesAbove, DEFAULT_STREAM_LINES_ABOVE);
  if (options.idleFlushMs !== undefined) limit('idleFlushMs', options.idleFlushMs, 0);
  let correlation!: ReturnType<typeof correlator>;
  const jsonl = options.output === 'jsonl';
  // In jsonl mode the lines of one input chunk leave as one string: one write downstream, not one per event.
  let batch = '';
  let push!: Sink<HarnessEvent | TraceRecord | string>;
  function send(item: HarnessEvent | TraceRecord): void {
    if (jsonl) batch += JSON.stringify(item) + '\n';
    else push(item);
  }
  // The same stages as a hand-joined chain, called directly; each keeps its part of the metrics.
  const pipelineStages = compose(
    splitLines.stage({ maxLineBytes, streamLinesAbove }),
    parseJson.stage(),
    (sink: Sink<Correlated>) =>
      (correlation = correlator(sink, { ...options, harness, metrics, trace: options.trace ? send : undefined })),
    classify.stage(),
    validate.stage(options),
  );
  let idleTimer: NodeJS.Timeout | undefined;
  let ended = false;
  function sendBatch(): void {
    if (batch === '') return;
    push(batch);
    batch = '';
  }
  const stream = toTransform<Buffer, HarnessEvent | TraceRecord | string>(
    (sink) => {
      push = sink;
      // The trace wraps each event as it leaves the last stage (the stages are one synchronous call chain).
      const stages = pipelineStages(options.trace ? (event) => correlation.trace!.event(event) : send);
      return {
        write(chunk) {
          try {
            stages.write(chunk);
          } finally {
            sendBatch();
          }
          if (options.idleFlushMs !== undefined) {
            clearTimeout(idleTimer);
            idleTimer = setTimeout(flushIdle, options.idleFlushMs).unref();
          }
        },
        end() {
          ended = true;
          clearTimeout(idleTimer);
          stages.end();
          sendBatch();
        },
      };
    },
    { bytesIn: true, bytesOut: jsonl },
  ) as unknown as Normalizer;

  function flushHeld(): void {
    if (ended || stream.destroyed) return;
    correlation.flush();
    sendBatch();
  }
  function flushIdle(): void {
    try {
      flushHeld();
    } catch (error) {
      stream.destroy(error as Error);
    }
  }
  stream.once('close', () => clearTimeout(idleTimer));
  if (correlation.trace !== undefined) writers.set(stream, correlation.trace);
  Object.defineProperties(stream, {
    metrics: { value: metrics, enumerable: true },
    flush: { value: flushHeld },
  });
  return stream;
}

const writers = new WeakMap<Normalizer<unknown>, TraceWriter>();

/**
 * The trace writer of a normalizer made with `trace: true`: for the runtime's own events around it (a spawned run's
 * stderr and exit, a follower's notices) and its `run_ended`.
 */
export function traceWriterOf(normalizer: Normalizer<unknown>): TraceWriter | undefined {
  return writers.get(normalizer);
}

/**
 * Normalizes a readable stream of raw harness output: an async iterable of events (the
 * normalizer itself, with `metrics` complete once iteration ends). An input error ends the
 * iteration with that error.
 */
export function normalize(input: Readable | AsyncIterable<Buffer | string>, options: JsonlOptions): Normalizer<Buffer>;
export function normalize(
  input: Readable | AsyncIterable<Buffer | string>,
  options: TraceOptions,
): Normalizer<TraceRecord>;
export function normalize(
  input: Readable | AsyncIterable<Buffer | string>,
  options: NormalizeOptions & { output?: 'objects'; trace?: false },
): Normalizer;
export function normalize(
  input: Readable | AsyncIterable<Buffer | string>,
  options: NormalizeOptions,
): Normalizer<HarnessEvent | TraceRecord | Buffer>;
export function normalize(
  input: Readable | AsyncIterable<Buffer | string>,
  options: NormalizeOptions,
): Normalizer<HarnessEvent | TraceRecord | Buffer> {
  const normalizer = createNormalizer(options);
  // Errors reach the caller through the normalizer, which pipeline destroys with them.
  pipeline(input, normalizer, () => {});
  return normalizer;
}
