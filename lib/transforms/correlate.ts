/**
 * Stage 3, the correlator: parsed lines in, events and tool calls out.
 *
 * The harness-specific work (which record means what, pairing a tool call with its result,
 * accumulating text) lives in harnesses/<name>/correlate.ts; this stage does what every
 * harness shares (docs/contract.md): a line that is not JSON or is too long becomes a warning,
 * the session id and working directory are captured once, events are stamped, and every
 * line is counted against the rule that handled it.
 */
import { now } from '../kernel/clock.js';
import type { ErrorEvent, EventBody, HarnessEvent, RunMetrics } from '../kernel/events.js';
import { classifyError, type FailureClass } from '../kernel/failures.js';
import { isDetecting, type Correlator, type Harness, type Limits, type RunContext } from '../kernel/harness.js';
import { stamp } from '../kernel/stamp.js';
import type { EventIds, TraceRecord } from '../kernel/trace.js';
import { TraceWriter } from './trace.js';
import type { Transform } from 'node:stream';
import { toTransform, type Sink, type Stage, type StageFactory } from '../kernel/stage.js';
import { ToolCall } from '../kernel/tool-call.js';
import { resolvePath } from '../kernel/paths.js';
import { createMetrics, MetricsNote } from '../kernel/metrics.js';
import { TextSpan } from '../kernel/text-span.js';
import { sharedRecords } from '../kernel/record-table.js';
import { limit } from '../kernel/limits.js';
import { BLANK, NotJson, type Cut, type Parsed } from './parse-json.js';
import { EncodingNote, InputBytes, LineTooLong } from './split-lines.js';

/** The default `maxPendingTools`: 10,000. */
export const DEFAULT_MAX_PENDING_TOOLS = 10_000;
/** 64 MiB: 600 unanswered 1 MB `Write` calls held 730 MB when only their count was bounded. */
export const DEFAULT_MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** The default `maxSpanBytes`: 16 MiB. */
export const DEFAULT_MAX_SPAN_BYTES = 16 * 1024 * 1024;

/** What the correlator gives the classifier: events, tool calls still to classify, and its note of the metrics. */
export type Correlated = HarnessEvent | ToolCall | MetricsNote;

/** What the {@link correlate} stage takes: the harness, the run's context and its bounds. */
export interface CorrelateOptions {
  /**
   * The harness: one of the registry's (`harnesses.get('codex')`, `harnessFrom('auto')`) or a
   * `Harness` of your own. The classifier takes it from the tool calls, so it is given once.
   */
  harness: Harness;
  /**
   * The run's working directory (itself resolved against the process's when relative); relative paths resolve against
   * it.
   */
  cwd?: string;
  /** The run's home directory, which `~` in a path means; default the `env` option's `HOME`, else this process's. */
  home?: string;
  /** The harness process's environment, for rules that depend on it (docs/contract.md "Paths"). */
  env?: Readonly<NodeJS.ProcessEnv>;
  /** Tool calls that may wait for a result at once; past it the oldest is emitted unresolved. Default 10,000. */
  maxPendingTools?: number;
  /** The bytes those calls may hold at once (by their strings' lengths); past it the oldest goes. Default 64 MiB. */
  maxPendingBytes?: number;
  /** The longest accumulated text span, in bytes; past it the text is emitted in parts. Default 16 MiB. */
  maxSpanBytes?: number;
  /** Filled as the run goes; readable when the input has ended. */
  metrics?: RunMetrics;
  /** Called once per input line with the 1-based line number and the rule that handled it. */
  onLine?: (line: number, rule: string) => void;
  /** Called with each parsed JSON line, after the events it gave. */
  onRecord?: (record: unknown) => void;
  /**
   * The trace stream's records go here (docs/contract.md "Trace stream"); the stages after this one must then hand
   * each event to the returned stage's `trace.event`, synchronously. Unset: no trace.
   */
  trace?: (record: TraceRecord) => void;
}

export function correlator(
  sink: Sink<Correlated>,
  options: CorrelateOptions,
): Stage<Parsed> & { flush(): void; readonly trace: TraceWriter | undefined } {
  const harness = options.harness;
  if (typeof harness !== 'object' || harness === null || typeof harness.correlator !== 'function') {
    throw new TypeError('correlate: harness must be a Harness object (harnesses.get(name), harnessFrom(name))');
  }
  const metrics = options.metrics ?? createMetrics(harness);
  const rules = metrics.input.rules;
  let cwd = options.cwd === undefined ? undefined : resolvePath(options.cwd, process.cwd());
  let cwdReported = options.cwd !== undefined;
  let session: string | undefined;
  const home = options.home ?? options.env?.HOME;
  const limits: Limits = {
    maxPendingTools: limit('maxPendingTools', options.maxPendingTools, DEFAULT_MAX_PENDING_TOOLS),
    maxPendingBytes: limit('maxPendingBytes', options.maxPendingBytes, DEFAULT_MAX_PENDING_BYTES),
    maxSpanBytes: limit('maxSpanBytes', options.maxSpanBytes, DEFAULT_MAX_SPAN_BYTES),
  };

  // The harness's text spans: whatever else the run sends, their held text goes out first.
  const spans: TextSpan[] = [];
  function flushSpans(): void {
    for (const span of spans) span.flush();
  }

  const trace = options.trace && new TraceWriter(options.trace, () => metrics.harness, limits, flushSpans);
  const run: RunContext = {
    get cwd() {
      return cwd;
    },
    reportCwd(dir) {
      if (cwdReported || typeof dir !== 'string' || dir === '') return;
      cwdReported = true;
      cwd = resolvePath(dir);
    },
    home,
    env: options.env,
    reportSession(id) {
      if (session !== undefined || typeof id !== 'string' || id === '') return;
      session = id;
      metrics.session_id = id;
    },
    emit(body: EventBody, ids?: EventIds) {
      flushSpans();
      if (body.type === 'error') noteError(body);
      const event = stamp(body, now(), session);
      if (trace === undefined) return sink(event);
      trace.withIds(ids);
      sink(event);
      trace.withIds(undefined);
    },
    tool(fields) {
      flushSpans();
      const at = fields.directory === undefined ? cwd : (fields.directory ?? undefined);
      const call = new ToolCall(fields, at, now(), session, home, harness);
      if (trace === undefined || fields.call === false) return sink(call);
      trace.withIds(trace.callEnded(fields.id, fields.name, fields.is_success, fields.started_at, fields.ended_at));
      sink(call);
      trace.withIds(undefined);
    },
    textSpan(spanOptions) {
      const span = new TextSpan(run, spanOptions);
      spans.push(span);
      return span;
    },
    metrics,
    limits,
    trace,
  };
  // The run's first error that the harness's table of failures classifies (any error at all: `failed`).
  let failure: FailureClass | undefined;
  let failed = false;
  function noteError(error: Pick<ErrorEvent, 'message' | 'code'>): void {
    failed = true;
    const detected = isDetecting(harness) ? harness.detected : harness;
    failure ??= classifyError(detected?.failures ?? {}, error)?.class;
  }

  // `harness: 'auto'`: no correlator until the first lines have said which harness wrote them.
  const auto = isDetecting(harness) && harness.detected === undefined ? harness : undefined;
  // Where records go: the harness's correlator, or `holding` while auto detects.
  let activeCorrelator: Correlator = auto ? holding : harness.correlator(run);
  const held: Parsed[] = [];

  /** The stream's harness is known (or cannot be): it takes over, and reads the lines held so far. */
  function place(name: string | undefined): void {
    auto!.become(name);
    const seen = auto!.seen;
    // An input with no record at all (empty, or only text) is no harness's, and no error either.
    if (name === undefined && seen.length > 0) {
      run.emit({
        type: 'error',
        code: 'unknown_harness',
        message:
          `harness auto: no harness's stream begins like this one (it showed ${seen.join(', ')}); its ` +
          `records are kept as unknown events`,
      });
    }
    metrics.harness = harness.name;
    if (harness.terminal !== undefined) metrics.ended = false;
    activeCorrelator = harness.correlator(run);
    for (const item of held.splice(0)) handle(item);
  }

  function count(rule: string): void {
    rules[rule] = (rules[rule] ?? 0) + 1;
    options.onLine?.(metrics.input.lines, rule);
  }

  /** A warning about a line the harness never sees; text it holds goes out first, so events keep input order. */
  function warn(message: string, code?: string): void {
    activeCorrelator.flush?.();
    run.emit({ type: 'warning', message, code });
  }

  function handle(parsed: Parsed): void {
    if (parsed instanceof NotJson && parsed.fragment) {
      // The head of a line already counted (parse-json.ts): its text, so nothing is lost.
      return warn(parsed.line, 'interleaved_fragment');
    }
    // Not a line: what the first bytes said about the input.
    if (parsed instanceof EncodingNote) return warn(parsed.message, 'encoding');
    if (parsed instanceof InputBytes) {
      metrics.input.bytes += parsed.bytes;
      return;
    }
    if (parsed === BLANK || !('sameLine' in parsed)) metrics.input.lines++;
    if (parsed === BLANK) return count(sharedRecords['blank line'].rules.blank);
    if (parsed instanceof NotJson) {
      warn(parsed.line, 'not_json');
      return count(sharedRecords['not JSON'].rules.warning);
    }
    if (parsed instanceof LineTooLong) {
      const limit = parsed.limit === undefined ? '' : ` (maxLineBytes is ${parsed.limit})`;
      warn(
        `line ${metrics.input.lines} is ${parsed.bytes} bytes long${limit}; its content was skipped`,
        'line_too_long',
      );
      return count(sharedRecords['too long'].rules.warning);
    }
    if (parsed.cut) warn(describeCut(metrics.input.lines, parsed.bytes, parsed.cut), 'truncated');
    count(activeCorrelator.record(parsed.value));
    options.onRecord?.(parsed.value);
  }

  // The stages after this one count the run's events into its metrics.
  sink(new MetricsNote(metrics));
  return {
    write(parsed) {
      if (activeCorrelator !== holding) return handle(parsed);
      const record = typeof parsed === 'object' && 'value' in parsed;
      // Before the first record nothing waits for the harness: a banner line is a warning at once,
      // so however many there are, detection reads records, not lines.
      if (!record && held.length === 0) return handle(parsed);
      held.push(parsed);
      const name = record ? auto!.read(parsed.value) : undefined;
      if (name !== undefined) place(name);
      else if (held.length >= MAX_HELD_LINES) place(auto!.settle());
    },
    end() {
      if (activeCorrelator === holding) place(auto!.settle());
      activeCorrelator.end();
      // A run a refusal stopped (whatever its exit), one its harness says failed, or one with errors that it does
      // not say succeeded.
      if (metrics.stopped_by_permission === true) metrics.failure = 'permission_denied';
      else if (metrics.is_error === true || (metrics.is_error === undefined && failed))
        metrics.failure = failure ?? 'other';
      trace?.end(metrics.failure);
    },
    /** Emits the harness's held text now (live input that has paused). */
    flush() {
      activeCorrelator.flush?.();
    },
    trace,
  };
}

/**
 * With `harness: 'auto'`, the most lines held, from the first record on, before the stream must
 * have said which harness wrote it.
 */
export const MAX_HELD_LINES = 100;

/** The correlator while `harness: 'auto'` holds the first lines: nothing to do yet. */
const holding: Correlator = { record: () => '', end() {} };

/** What the budget of a line read incrementally cut, for its `truncated` warning. */
export function describeCut(line: number, bytes: number | undefined, cut: Cut): string {
  const parts: string[] = [];
  if (cut.strings > 0)
    parts.push(`${cut.strings} string${cut.strings === 1 ? '' : 's'} cut short by ${cut.characters} characters`);
  if (cut.items > 0)
    parts.push(
      `${cut.items} array element${cut.items === 1 ? '' : 's'} or object member${cut.items === 1 ? '' : 's'} dropped`,
    );
  return (
    `line ${line} (${bytes} bytes) was read incrementally and kept within its budget: ${parts.join(', ')} (at ` +
    `${cut.paths.join(', ')}${cut.morePaths ? ', ...' : ''})`
  );
}

/**
 * The correlator: `Parsed` objects in, events and `ToolCall`s out. `correlate(options)` is a
 * Transform whose `metrics` are complete when it ends; `correlate.stage(options)` the same stage
 * for `compose`.
 */
export const correlate = Object.assign(
  function correlate(options: CorrelateOptions): Transform & {
    /** The run metrics the correlator fills; complete when it ends. */
    readonly metrics: RunMetrics;
  } {
    const metrics = options.metrics ?? createMetrics(options.harness);
    const stream = toTransform<Parsed, Correlated>((sink) => correlator(sink, { ...options, metrics }));
    return Object.defineProperty(stream, 'metrics', { value: metrics, enumerable: true }) as Transform & {
      readonly metrics: RunMetrics;
    };
  },
  {
    /** The same stage as a factory for `compose`. */
    stage:
      (options: CorrelateOptions): StageFactory<Parsed, Correlated> =>
      (sink) =>
        correlator(sink, options),
  },
);
