/**
 * The pretty printer's pure part: an event in, the lines a person reads out. One table row per
 * event type says how it looks (symbol, colors, text, layout); no streams, no clock, no terminal.
 */
import type { Colors, Formatter } from 'picocolors/types.js';
import type { EventOf, EventType, HarnessEvent, Tokens } from '../../kernel/events.js';
import { isFailure, tokenClasses, type RunSummary, type Totals } from '../summary.js';
import type { Duration } from '../trace-tree.js';
import { peer } from '../peers.js';

export const { default: wrapAnsi } = await peer('wrap-ansi', () => import('wrap-ansi'));
import { readable } from './invisible.js';

/** How {@link formatEvent} draws an event. */
export interface FormatOptions {
  /** picocolors' formatters, on or off (`createColors(enabled)`). */
  colors: Colors;
  /** Wrap to this many columns; unset, each text line stays one line (the output is not a terminal). */
  width?: number;
  /** The run's working directory: paths under it are shown relative to it. */
  cwd?: string;
}

type ColorName = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan';

/** How one event type is drawn. */
interface Look<K extends EventType> {
  symbol: string | ((event: EventOf<K>) => string);
  /** The symbol's color (a failure makes the whole event red). */
  color: ColorName;
  /** The text's color; unset, the terminal's own. */
  textColor?: ColorName;
  /** `wrap`: every line of the text, wrapped to the width; `line`: one line, cut to fit (verbatim JSON). */
  layout: 'wrap' | 'line';
  /** At most this many lines of the text, before wrapping (a long script); unset: all. */
  maxLines?: number;
  text(event: EventOf<K>, cwd: string | undefined): string;
  /** Added to the last line shown, so a text cut to `maxLines` still ends with it (a command's exit code). */
  suffix?(event: EventOf<K>, cwd: string | undefined): string;
}

const looks: { [K in EventType]: Look<K> } = {
  agent: { symbol: '●', color: 'bold', layout: 'wrap', text: (e) => e.message },
  reasoning: { symbol: '∴', color: 'dim', textColor: 'dim', layout: 'wrap', text: (e) => e.message },
  command: {
    symbol: '$',
    color: 'green',
    layout: 'wrap',
    maxLines: 10,
    text: (e) => e.command,
    suffix: (e, cwd) =>
      (e.working_directory !== undefined && e.working_directory !== cwd
        ? ` · in ${shortPath(e.working_directory, cwd)}`
        : '') + outcome(e),
  },
  read: { symbol: '◂', color: 'blue', layout: 'wrap', text: (e, cwd) => `read ${place(e, cwd)}${outcome(e)}` },
  write: { symbol: '▸', color: 'magenta', layout: 'wrap', text: (e, cwd) => `write ${place(e, cwd)}${outcome(e)}` },
  search: {
    symbol: '⌕',
    color: 'blue',
    layout: 'wrap',
    text: (e, cwd) => `search "${e.query}"${e.path === undefined ? '' : ` in ${shortPath(e.path, cwd)}`}${outcome(e)}`,
  },
  list: {
    symbol: '≡',
    color: 'blue',
    layout: 'wrap',
    text: (e, cwd) => `list${e.path === undefined ? '' : ` ${shortPath(e.path, cwd)}`}${outcome(e)}`,
  },
  skill: {
    symbol: '✦',
    color: 'magenta',
    layout: 'wrap',
    text: (e, cwd) => `skill ${e.skill_name === undefined ? '' : `${e.skill_name} · `}${place(e, cwd)}${outcome(e)}`,
  },
  orchestration: {
    symbol: (e) => (e.action === 'subagent_started' ? '┌' : '└'),
    color: 'cyan',
    layout: 'wrap',
    text: (e) => `subagent ${subagentName(e)} ${e.action.slice('subagent_'.length)}`,
  },
  usage: {
    symbol: 'Σ',
    color: 'dim',
    textColor: 'dim',
    layout: 'line',
    text: (e) => `usage ${tokenText(e.tokens)}${e.cost === undefined ? '' : ` · ${money(e.cost)}`}`,
  },
  error: { symbol: '✖', color: 'red', textColor: 'red', layout: 'wrap', text: (e) => coded(e) },
  warning: { symbol: '!', color: 'yellow', textColor: 'yellow', layout: 'wrap', text: (e) => coded(e) },
  system: {
    symbol: '◆',
    color: 'dim',
    textColor: 'dim',
    layout: 'wrap',
    text: (e) => `${e.stage} ${e.status}: ${e.message}`,
  },
  gg: { symbol: '◇', color: 'dim', textColor: 'dim', layout: 'line', text: (e) => `gg ${JSON.stringify(e.event)}` },
  unknown: {
    symbol: '?',
    color: 'dim',
    textColor: 'dim',
    layout: 'line',
    text: (e) => `unknown ${JSON.stringify(e.raw)}`,
  },
};

/** Without a terminal width, a one-line layout is cut here. */
const LINE_LIMIT = 200;
/** Nesting drawn deeper than this would leave no room for the text. */
const MAX_DEPTH = 8;

/**
 * The lines of one event: `symbol text`, the text wrapped (or cut) to the width, continuation
 * lines indented under the text; `depth` subagents deep, each line starts with that many guides. `note` ends the
 * text (a call's duration, from the trace).
 */
export function formatEvent(event: HarnessEvent, options: FormatOptions, depth = 0, note = ''): string[] {
  const look = looks[event.type] as Look<EventType>;
  const { colors } = options;
  const failed = isFailure(event);
  const symbolColor = colors[failed ? 'red' : look.color];
  const textColor: Formatter = failed ? colors.red : look.textColor ? colors[look.textColor] : (text) => String(text);
  const guides = Math.min(depth, MAX_DEPTH);
  const guide = guides > 0 ? colors.dim('│ '.repeat(guides)) : '';
  const room = options.width === undefined ? undefined : Math.max(16, options.width - 2 * guides - 2);
  const symbol = typeof look.symbol === 'string' ? look.symbol : look.symbol(event);
  const text = readable(look.text(event, options.cwd));
  const suffix = readable(look.suffix?.(event, options.cwd) ?? '') + note;
  const lines =
    look.layout === 'line'
      ? [cut(text.replace(/\n/g, ' ') + note, room ?? LINE_LIMIT)]
      : wrapText(text, suffix, room, look.maxLines);
  return lines.map((line, index) => {
    const head = guide + (index === 0 ? symbolColor(symbol) : ' ');
    return line === '' ? head.trimEnd() : `${head} ${textColor(line)}`;
  });
}

/** The live status line: elapsed time and the run's figures so far. */
export function formatStatus(summary: RunSummary, totals: Totals, elapsedMs: number, colors: Colors): string {
  return [`${colors.cyan('◷')} ${duration(elapsedMs)}`, ...figures(summary, totals, colors)].join(colors.dim(' · '));
}

/** The line printed when the input ends. */
export function formatSummary(summary: RunSummary, totals: Totals, durationMs: number, colors: Colors): string {
  const head = `${colors.bold('■')} ${plural(summary.events, 'event')} in ${duration(durationMs)}`;
  return [head, ...figures(summary, totals, colors)].join(colors.dim(' · '));
}

function figures(summary: RunSummary, totals: Totals, colors: Colors): string[] {
  const failed = plural(summary.commandsFailed, 'command') + ' failed';
  return [
    ...(totals.tokens === undefined ? [] : [plural(totals.tokens, 'token')]),
    ...(totals.cost === undefined ? [] : [money(totals.cost)]),
    `${plural(summary.fileCount('reads'), 'file')} read`,
    `${count(summary.fileCount('writes'))} written`,
    summary.commandsFailed > 0 ? colors.red(failed) : failed,
  ];
}

/** `250ms`, `12.3s`, `4m 05s`, `1h 02m`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.floor(seconds);
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h ${String(Math.floor(whole / 60) % 60).padStart(2, '0')}m`;
}

/** ` · 42ms` for a call whose duration the harness's times give, ` · 42ms observed` for the library's clock. */
export function durationNote(took: Duration | undefined): string {
  if (took === undefined) return '';
  return ` · ${duration(took.ms)}${took.source === 'observed' ? ' observed' : ''}`;
}

/** US dollars: four decimals below a dollar (a turn costs fractions of a cent), else two. */
export function money(usd: number): string {
  return `$${usd.toFixed(Math.abs(usd) < 1 ? 4 : 2)}`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** `1,200 input · 40 output`: the classes reported, zeros left out (all zero: `0 tokens`). */
function tokenText(tokens: Tokens): string {
  const parts = tokenClasses
    .filter(([name]) => (tokens[name] ?? 0) > 0)
    .map(([name, label]) => `${count(tokens[name]!)} ${label}`);
  return parts.length > 0 ? parts.join(' · ') : '0 tokens';
}

/** A path under `cwd` relative to it (`cwd` itself is `.`); any other path as it is. */
export function shortPath(path: string, cwd: string | undefined): string {
  if (cwd === undefined) return path;
  if (path === cwd) return '.';
  const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

/** `src/a.ts:3-6`: the path and its line range (`:3` one line, `:3-` from line 3 on). */
function place(event: { path: string; start_line?: number; end_line?: number }, cwd: string | undefined): string {
  const { start_line: start, end_line: end } = event;
  const path = shortPath(event.path, cwd);
  if (start === undefined && end === undefined) return path;
  if (start !== undefined && start === end) return `${path}:${start}`;
  return `${path}:${start ?? 1}-${end ?? ''}`;
}

/** What became of a tool call, when the harness said: `· exit 1`, `· failed`. */
function outcome(event: { is_success?: boolean; exit_code?: number }): string {
  if (event.exit_code !== undefined) return ` · exit ${event.exit_code}`;
  return event.is_success === false ? ' · failed' : '';
}

function subagentName(event: EventOf<'orchestration'>): string {
  return event.subagent_name ?? event.subagent_id ?? '(unnamed)';
}

function coded(event: { code?: string; message: string }): string {
  return event.code === undefined ? event.message : `${event.code}: ${event.message}`;
}

/**
 * Each line of `text` (at most `maxLines`, the last ending with `suffix`) wrapped at word boundaries to `width`,
 * keeping its indentation.
 */
function wrapText(text: string, suffix: string, width: number | undefined, maxLines: number | undefined): string[] {
  let lines = text.split('\n');
  if (maxLines !== undefined && lines.length > maxLines) {
    const more = lines.length - maxLines + 1;
    lines = [...lines.slice(0, maxLines - 1), `… ${more} more lines`];
  }
  lines[lines.length - 1] += suffix;
  if (width === undefined) return lines;
  return lines.flatMap((line) => {
    const indent = /^ */.exec(line)![0].slice(0, Math.floor(width / 2));
    const rest = line.slice(indent.length);
    if (rest.trim() === '') return [''];
    return wrapAnsi(rest, width - indent.length, { hard: true })
      .split('\n')
      .map((part) => indent + part);
  });
}

/** One line of at most `width` columns, ending in `…` when cut. */
export function cut(line: string, width: number): string {
  const split = (columns: number) => wrapAnsi(line, columns, { hard: true, wordWrap: false, trim: false }).split('\n');
  if (split(width).length === 1) return line;
  return `${split(width - 1)[0]}…`;
}
