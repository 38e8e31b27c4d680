/**
 * What a run report shows, computed from the run's events (and its metrics, when given): the
 * summary, the timeline, files, commands, failures and warnings. Pure; lib/interfaces/report/html.ts and
 * lib/interfaces/report/markdown.ts only lay it out.
 */
import { metricsViolationOf } from '../../transforms/validate.js';
import type { EventType, HarnessEvent, RunMetrics, Tokens } from '../../kernel/events.js';
import { addTokens } from '../../kernel/metrics.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { commandFailed, isFailure, RunSummary, type FileActivity } from '../summary.js';
import { isTraceRecord } from '../trace-tree.js';
import { traceReport, type ReportTrace } from './tree.js';

/** What {@link buildReport} takes beside the events. */
export interface ReportOptions {
  /** The run metrics `normalize`/`run` wrote (or the in-process normalizer's): harness, tokens by class, cost, exit. */
  metrics?: RunMetrics;
  /** The run's working directory: paths under it are shown relative to it. */
  cwd?: string;
}

/** The report's summary: the run's figures at a glance. */
export interface ReportSummary {
  /** The harness (from the metrics, else a trace's `run_started`). */
  harness: string | undefined;
  /** The harness's session id. */
  session_id: string | undefined;
  /** The run's working directory. */
  cwd: string | undefined;
  /** The first and last events' observation times. */
  started: string | undefined;
  /** The last event's observation time. */
  finished: string | undefined;
  /** How long the run took, in ms (see `duration_from`). */
  duration_ms: number;
  /** `harness`: the duration the harness reported (metrics); `events`: first to last event. */
  duration_from: 'harness' | 'events';
  /** Tokens by class: the metrics', else the `usage` events' sum. */
  tokens: Tokens;
  /** The harness's own total, when it gives no classes (Goose). */
  total_tokens: number | undefined;
  /** The cost in USD, when reported. */
  cost: number | undefined;
  /** The model turns, when the harness counts them. */
  turns: number | undefined;
  /** How the run ended: `exit 0`, `exit 1`, `signal SIGTERM`, an exit error's message, or unknown. */
  exit: string | undefined;
  /** Whether the run succeeded, failed, ended without its terminal record, or (without metrics) reported no error. */
  outcome: 'succeeded' | 'failed' | 'incomplete' | 'no errors reported';
  /** How many events the run gave. */
  events: number;
  /** How many of each type. */
  types: Partial<Record<EventType, number>>;
  /** Files read at least once without a reported failure. */
  files_read: number;
  /** Files written at least once without a reported failure. */
  files_written: number;
  /** Commands run. */
  commands: number;
  /** Of those, the failed ones. */
  commands_failed: number;
}

/** One mark on the timeline: an event, or a span from one event to the one that ends it. */
export interface TimelineItem {
  /** The event's type: its lane. */
  type: EventType;
  /** Index (in `events`) of the event it shows, or the one that started the span. */
  index: number;
  /** A span's ending event. */
  end_index?: number;
  /** Position on the time axis, 0 to 1 (a point has `to === from`). */
  from: number;
  /** Where it ends on the time axis, 0 to 1. */
  to: number;
  /** The event (or the span's end) is a failure. */
  failed: boolean;
}

/** The run's events laid out in time, one lane per event type. */
export interface Timeline {
  /**
   * `time`: positions are observation times; `order`: the events were observed within one millisecond, so positions are
   * their order.
   */
  axis: 'time' | 'order';
  /** From the first event to the last, in ms. */
  span_ms: number;
  /** The types on the timeline, one lane each, in the contract's order. */
  lanes: EventType[];
  /** The marks, in event order. */
  items: TimelineItem[];
}

/** One file the run read or wrote. */
export interface FileRow extends FileActivity {
  /** The file (relative to the run's directory when under it). */
  path: string;
}

/** One command the run ran. */
export interface CommandRow {
  /** Its event's index in `events`. */
  index: number;
  /** The command line. */
  command: string;
  /** Its exit code, when reported. */
  exit_code: number | undefined;
  /** The directory it ran in, when reported. */
  working_directory: string | undefined;
  /** It failed (reported so, or a non-zero exit code). */
  failed: boolean;
}

/** A run report's content, computed from the events (and the metrics): what the HTML and Markdown lay out. */
export interface Report {
  /** The figures at a glance. */
  summary: ReportSummary;
  /** The events in time. */
  timeline: Timeline;
  /** The files read and written, in the order first seen. */
  files: FileRow[];
  /** The commands, in order. */
  commands: CommandRow[];
  /** Indexes of errors, warnings and failed tool calls, subagents and stages, in order. */
  problems: number[];
  /** The run's events. */
  events: HarnessEvent[];
  /** The run's working directory. */
  cwd: string | undefined;
  /**
   * From a trace: the subagent tree, each call and its duration (undefined for plain events). What the HTML and
   * Markdown writers draw; its shape may change between minor versions.
   *
   * @internal
   */
  trace: ReportTrace | undefined;
}

const laneOrder: EventType[] = [
  'agent',
  'reasoning',
  'command',
  'read',
  'write',
  'search',
  'list',
  'skill',
  'orchestration',
  'usage',
  'error',
  'warning',
  'system',
  'gg',
  'unknown',
];

/**
 * Computes a run report from its events (and its metrics, when given): what `reportHtml` and `reportMarkdown` lay out.
 * Given the trace stream's records instead (`createNormalizer({ trace: true })`), it also has the subagent tree and
 * each tool call's duration (`trace`).
 *
 * @example
 * ```ts
 * const events: HarnessEvent[] = [];
 * for await (const event of createReadStream('events.jsonl').pipe(readEvents())) events.push(event);
 * writeFileSync('report.html', reportHtml(buildReport(events, { metrics })));
 * ```
 */
export function buildReport(
  input: readonly HarnessEvent[] | readonly TraceRecord[],
  options: ReportOptions = {},
): Report {
  const { metrics, cwd } = options;
  const trace = isTraceRecord(input[0]) ? (input as readonly TraceRecord[]) : undefined;
  const events = trace
    ? trace.flatMap((record) => (record.kind === 'event' ? [record.event] : []))
    : [...(input as readonly HarnessEvent[])];
  const summary = new RunSummary();
  for (const event of events) summary.add(event);
  const commands: CommandRow[] = [];
  const problems: number[] = [];
  events.forEach((event, index) => {
    if (event.type === 'command') {
      commands.push({
        index,
        command: event.command,
        exit_code: event.exit_code,
        working_directory: event.working_directory,
        failed: commandFailed(event),
      });
    }
    if (event.type === 'error' || event.type === 'warning' || isFailure(event)) problems.push(index);
  });
  const files = [...summary.files]
    .map(([path, activity]) => ({ path, ...activity }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tree = trace && traceReport(trace);
  return {
    summary: summarize(events, summary, metrics, cwd, tree?.harness),
    timeline: timeline(events, summary),
    files,
    commands,
    problems,
    events,
    cwd,
    trace: tree,
  };
}

function summarize(
  events: HarnessEvent[],
  summary: RunSummary,
  metrics: RunMetrics | undefined,
  cwd: string | undefined,
  traceHarness: string | undefined,
): ReportSummary {
  const tokens: Tokens = {};
  addTokens(tokens, metrics?.tokens ?? summary.tokens);
  const errors = summary.types.error ?? 0;
  const failed =
    metrics?.is_error === true || errors > 0 || (metrics?.exit_code ?? 0) !== 0 || metrics?.signal !== undefined;
  return {
    harness: metrics?.harness ?? traceHarness,
    session_id: metrics?.session_id ?? summary.session_id,
    cwd,
    started: summary.first === undefined ? undefined : new Date(summary.first).toISOString(),
    finished: summary.last === undefined ? undefined : new Date(summary.last).toISOString(),
    duration_ms: metrics?.duration_ms ?? summary.span,
    duration_from: metrics?.duration_ms === undefined ? 'events' : 'harness',
    tokens,
    total_tokens: metrics?.total_tokens,
    cost: metrics ? metrics.cost : summary.cost,
    turns: metrics?.turns,
    exit: exitOf(events, metrics),
    outcome: failed
      ? 'failed'
      : metrics?.ended === false
        ? 'incomplete'
        : metrics?.is_error === false
          ? 'succeeded'
          : 'no errors reported',
    events: summary.events,
    types: summary.types,
    files_read: summary.fileCount('reads'),
    files_written: summary.fileCount('writes'),
    commands: summary.commands,
    commands_failed: summary.commandsFailed,
  };
}

/** The spawned run's ending codes (`spawnHarness`, CLI `run`): metrics say it; without them, the events do. */
const endingCodes = new Set(['exit_code', 'killed', 'spawn_failed', 'timeout', 'stage_failed', 'max_buffer']);

function exitOf(events: HarnessEvent[], metrics: RunMetrics | undefined): string | undefined {
  if (metrics?.signal !== undefined) return `signal ${metrics.signal}`;
  if (metrics?.exit_code !== undefined) return `exit ${metrics.exit_code}`;
  const ending = events.find(
    (event) => event.type === 'error' && event.code !== undefined && endingCodes.has(event.code),
  );
  return ending?.type === 'error' ? ending.message : undefined;
}

/**
 * Every event is a mark in its type's lane, except where the stream has both ends of
 * something: a subagent's start and its completion or failure (paired by subagent id), and a
 * system stage's start and end. Those are one span. (Each tool event carries one time, when its
 * result was observed: the contract has no start time for it.)
 */
function timeline(events: HarnessEvent[], summary: RunSummary): Timeline {
  const axis = summary.span > 0 ? 'time' : 'order';
  const first = summary.first ?? 0;
  const position = (index: number) => {
    if (axis === 'order') return events.length > 1 ? index / (events.length - 1) : 0;
    const time = Date.parse(events[index]!.timestamp);
    return Number.isNaN(time) ? 0 : (time - first) / summary.span;
  };
  const items: TimelineItem[] = [];
  const open = new Map<string, TimelineItem>();
  events.forEach((event, index) => {
    const at = position(index);
    const key = spanKey(event);
    const started =
      key !== undefined &&
      (event.type === 'orchestration'
        ? event.action === 'subagent_started'
        : event.type === 'system' && event.status === 'started');
    const opened = key === undefined || started ? undefined : open.get(key);
    if (opened) {
      open.delete(key!);
      opened.end_index = index;
      opened.to = at;
      opened.failed = isFailure(event);
      return;
    }
    const item: TimelineItem = { type: event.type, index, from: at, to: at, failed: isFailure(event) };
    items.push(item);
    if (started) open.set(key!, item);
  });
  const present = new Set(items.map((item) => item.type));
  return { axis, span_ms: summary.span, lanes: laneOrder.filter((type) => present.has(type)), items };
}

function spanKey(event: HarnessEvent): string | undefined {
  if (event.type === 'orchestration') return `subagent ${event.subagent_id ?? event.subagent_name ?? ''}`;
  if (event.type === 'system') return `stage ${event.stage}`;
  return undefined;
}

/** A metrics file's content as run metrics, or what is wrong with it. */
export function parseMetrics(text: string): RunMetrics | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return metricsViolationOf(value) ?? (value as RunMetrics);
}
