/**
 * The pretty printer as a stream, the way pino-pretty is one: normalized events in, text for a
 * person out. An optional step at the edge: `harness-events view` puts it after a JSONL reader,
 * `normalize`/`run --format pretty` after the normalizer.
 *
 * On a terminal it also keeps a status line below the events (elapsed time, tokens and cost,
 * files read and written, commands failed), redrawn with log-update: each event clears it,
 * is printed above it, and it is drawn again once the burst of events is written.
 */
import { Transform } from 'node:stream';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import { RunSummary, totalsOf } from '../summary.js';
import { peer } from '../peers.js';
import type { TraceRecord } from '../../kernel/trace.js';
import { isTraceRecord, TraceTree } from '../trace-tree.js';
import { cut, durationNote, formatEvent, formatStatus, formatSummary, wrapAnsi } from './format.js';
import { Nesting } from './nesting.js';

const { createLogUpdate } = await peer('log-update', () => import('log-update'));
const { default: picocolors } = await peer('picocolors', () => import('picocolors'));

/** What {@link prettyPrint} takes: colors, the terminal, the run's directory and metrics. */
export interface PrettyOptions {
  /** ANSI colors. Default false (the CLI turns them on for a terminal without NO_COLOR, or with --color). */
  color?: boolean;
  /**
   * The terminal the text goes to, when it is one: text is wrapped to its width (read at every
   * event, so a resize takes effect) and the live status line is kept below the events.
   */
  terminal?: {
    /** Its width in columns. */
    readonly columns: number;
    /** Its height in rows. */
    readonly rows: number;
  };
  /** The run's working directory: paths under it are shown relative to it. */
  cwd?: string;
  /** The live run metrics, when the normalizer runs in this process: tokens and cost come from them. */
  metrics?: RunMetrics;
}

/** The calls and agents a trace's view holds at most (each): what it needs is depths, and durations until shown. */
const MAX_HELD = 10_000;

/** How often the status line's clock is redrawn while no event arrives. */
const TICK_MS = 1000;

/**
 * A Transform: `HarnessEvent` objects in, text out (lines, and the status line's redraws on a terminal). Or the trace
 * stream's records (`createNormalizer({ trace: true })`): each event is then drawn under the agent that gave it, and a
 * tool call's first event ends with its duration where both its ends are known.
 */
export function prettyPrint(options: PrettyOptions = {}): Transform {
  const colors = picocolors.createColors(options.color ?? false);
  const summary = new RunSummary();
  const { terminal, metrics, cwd } = options;
  const started = Date.now();
  const nesting = new Nesting();
  const tree = new TraceTree({ max: MAX_HELD });
  let statusShown = false;
  let ended = false;
  let redraw: NodeJS.Immediate | undefined;
  let tick: NodeJS.Timeout | undefined;

  const stream = new Transform({
    writableObjectMode: true,
    transform(input: HarnessEvent | TraceRecord, _encoding, done) {
      let event: HarnessEvent;
      let depth: number;
      let note = '';
      if (isTraceRecord(input)) {
        const call = tree.add(input);
        if (input.kind !== 'event') return done();
        event = input.event;
        depth = tree.depth(input.agent_id);
        // Its duration once, on its first event (its `call_ended` came just before).
        if (call?.ended !== undefined) note = durationNote(tree.calls.take(call.call_id)!.duration);
      } else {
        event = input;
        depth = nesting.next(event);
      }
      summary.add(event);
      const lines = formatEvent(event, { colors, cwd, width: terminal?.columns }, depth, note);
      if (statusShown) clearStatus();
      this.push(lines.join('\n') + '\n');
      if (terminal && redraw === undefined) redraw = setImmediate(drawStatus);
      done();
    },
    flush(done) {
      stop();
      if (statusShown) clearStatus();
      const line = formatSummary(summary, totalsOf(summary, metrics), metrics?.duration_ms ?? summary.span, colors);
      this.push((terminal ? wrapAnsi(line, terminal.columns, { hard: true }) : line) + '\n');
      done();
    },
    destroy(error, done) {
      stop();
      done(error);
    },
  });

  // log-update draws into this stream's readable side, so the status line keeps its place in the text.
  const status =
    terminal &&
    createLogUpdate(
      {
        isTTY: true,
        get columns() {
          return terminal.columns;
        },
        get rows() {
          return terminal.rows;
        },
        write: (text: string) => stream.push(text),
      } as unknown as NodeJS.WriteStream,
      // Hiding the cursor would install exit-signal handlers (restore-cursor); the CLI owns its signals.
      { showCursor: true },
    );

  function drawStatus(): void {
    redraw = undefined;
    if (!status || ended) return;
    // One line, whatever the width: a wrapped status line would push the events up at every redraw.
    status(cut(formatStatus(summary, totalsOf(summary, metrics), Date.now() - started, colors), terminal!.columns));
    statusShown = true;
    tick ??= setInterval(drawStatus, TICK_MS).unref();
  }
  function clearStatus(): void {
    status!.clear();
    statusShown = false;
  }
  function stop(): void {
    ended = true;
    clearImmediate(redraw);
    clearInterval(tick);
  }
  return stream;
}
