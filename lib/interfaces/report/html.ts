/**
 * The run report as one self-contained HTML page: inline CSS and a few lines of inline script
 * (the event filters), no request to anywhere (its Content-Security-Policy forbids any), so it
 * opens offline from a CI artifact. Every text from the run is HTML-escaped.
 */
import type { EventType, HarnessEvent } from '../../kernel/events.js';
import { isFailure, tokenClasses } from '../summary.js';
import { count, duration, durationNote, money, shortPath } from '../view/format.js';
import { eventText } from './text.js';
import type { Report, ReportSummary, Timeline } from './model.js';
import { escape, LABELS, LANE, PLOT, WIDTH } from './html-parts.js';
import { treeTimeline } from './html-tree.js';

/**
 * An event's JSON in the list is cut here (a base64 image in an `unknown` event is megabytes); the JSONL has it whole.
 */
const JSON_LIMIT = 20_000;

/** The longest event text the page embeds; the rest is a note (the JSONL has it all). */
const TEXT_LIMIT = 20_000;

/**
 * A timeline mark's hover label is cut here: the timeline is one string of every mark (28,000 marks of 20,000
 * characters passed V8's string limit); the event's whole text is in the list the mark links to.
 */
const LABEL_LIMIT = 200;

/** Nothing loads from anywhere; the page's own style and script run. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

/** The report as one self-contained HTML page: no request leaves it, and every text from the run is inert. */
export function reportHtml(report: Report): string {
  return [...reportHtmlChunks(report)].join('');
}

/**
 * The page in pieces, one event at a time, for writing as it is made: one string of 900,000 events passed V8's limit
 * (`Invalid string length`).
 */
export function* reportHtmlChunks(report: Report): Generator<string> {
  const { summary } = report;
  const title = ['Run report', summary.harness, summary.session_id].filter(Boolean).join(' · ');
  const sub = [
    summary.harness ?? 'harness not given',
    summary.session_id && `session ${summary.session_id}`,
    summary.started && `started ${summary.started}`,
  ];
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="harness-events">
<title>${escape(title)}</title>
<style>${style}</style>
</head>
<body>
<header>
<h1>Run report</h1>
<p class="sub">${escape(sub.filter(Boolean).join(' · '))}</p>
</header>
<main>
${summarySection(summary)}
${timelineSection(report)}
${filesSection(report)}
${commandsSection(report)}
${problemsSection(report)}
`;
  yield* eventsSection(report);
  yield `
</main>
<script>${script}</script>
</body>
</html>
`;
}

function summarySection(summary: ReportSummary): string {
  const figure = (name: string, label: string, value: string | undefined, className = '') =>
    `<div class="figure ${className}" data-figure="${name}"><dt>${label}</dt><dd>${escape(value ?? '—')}</dd></div>`;
  const tokens = tokenClasses.map(([name, label]) =>
    figure(
      `tokens-${name}`,
      `${label} tokens`,
      summary.tokens[name] === undefined ? undefined : count(summary.tokens[name]!),
    ),
  );
  const types = (Object.entries(summary.types) as [EventType, number][])
    .map(([type, n]) => `${count(n)} ${type}`)
    .join(', ');
  const durationFrom = summary.duration_from === 'harness' ? 'reported by the harness' : 'first to last event';
  const failedCommands = summary.commands_failed > 0 ? 'bad' : '';
  return `<section id="summary">
<h2>Summary</h2>
<dl class="figures">
${figure('outcome', 'Outcome', summary.outcome, `outcome-${summary.outcome.replace(/ /g, '-')}`)}
${figure('harness', 'Harness', summary.harness)}
${figure('session', 'Session', summary.session_id)}
${figure('duration', `Duration (${durationFrom})`, duration(summary.duration_ms))}
${figure('exit', 'Exit', summary.exit)}
${figure('cost', 'Cost', summary.cost === undefined ? undefined : money(summary.cost))}
${figure('turns', 'Turns', summary.turns === undefined ? undefined : count(summary.turns))}
${tokens.join('\n')}
${summary.total_tokens === undefined ? '' : figure('tokens-total', 'total tokens', count(summary.total_tokens))}
${figure('files-read', 'Files read', count(summary.files_read))}
${figure('files-written', 'Files written', count(summary.files_written))}
${figure('commands', 'Commands', count(summary.commands))}
${figure('commands-failed', 'Commands failed', count(summary.commands_failed), failedCommands)}
${figure('events', 'Events', count(summary.events))}
</dl>
<p class="note">${escape(types)}${summary.cwd ? ` · paths relative to ${escape(summary.cwd)}` : ''}</p>
</section>`;
}

function timelineSection(report: Report): string {
  const { timeline, events } = report;
  const height = timeline.lanes.length * LANE + 28;
  const lane = new Map(timeline.lanes.map((type, index) => [type, index]));
  const x = (at: number) => LABELS + at * PLOT;
  const rows = timeline.lanes.map(
    (type, index) =>
      `<g class="lane t-${type}"><rect class="band" x="0" y="${index * LANE}" width="${WIDTH}" ` +
      `height="${LANE}"/><text x="8" y="${index * LANE + 17}">${type}</text></g>`,
  );
  const marks = timeline.items.map((item) => {
    const left = x(item.from);
    const width = Math.max(4, x(item.to) - left);
    const y = lane.get(item.type)! * LANE + 5;
    const span = item.end_index !== undefined;
    const text = eventText(events[item.index]!, report.cwd);
    const label =
      (text.length <= LABEL_LIMIT ? text : `${text.slice(0, LABEL_LIMIT)}…`) +
      (span ? ` → ${item.failed ? 'failed' : 'completed'}` : '');
    return (
      `<a href="#e${item.index}"><rect class="item ` +
      `t-${item.type}${span ? ' span' : ''}${item.failed ? ' failed' : ''}" data-type="${item.type}" ` +
      `data-index="${item.index}" x="${(span ? left : left - 2).toFixed(1)}" y="${y}" width="${width.toFixed(1)}" ` +
      `height="${LANE - 10}" rx="2"><title>${escape(label)}</title></rect></a>`
    );
  });
  const top = timeline.lanes.length * LANE;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (at) =>
      `<line x1="${x(at)}" x2="${x(at)}" y1="0" y2="${top + 4}"/><text x="${x(at)}" y="${top + 20}" ` +
      `text-anchor="middle">${escape(tickLabel(timeline, events.length, at))}</text>`,
  );
  const axis =
    timeline.axis === 'time'
      ? `Events by observation time over ${escape(duration(timeline.span_ms))}`
      : 'Every event was observed within one millisecond (a file normalized at once): events in order';
  return `<section id="timeline">
<h2>Timeline</h2>
<p class="note">${axis}; a subagent or stage is a span from its start to its end. Click a mark for its event.</p>
<svg viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="timeline of ${timeline.items.length} items">
${rows.join('\n')}
<g class="ticks">${ticks.join('')}</g>
${marks.join('\n')}
</svg>
${treeTimeline(report.trace)}
</section>`;
}

function tickLabel(timeline: Timeline, events: number, at: number): string {
  if (timeline.axis === 'time') return duration(timeline.span_ms * at);
  return `event ${Math.round(at * Math.max(0, events - 1)) + 1}`;
}

function filesSection(report: Report): string {
  const { summary, files } = report;
  const rows = files.map(
    (file) =>
      `<tr${file.failed > 0 ? ' class="bad"' : ''}><td ` +
      `class="path">${escape(shortPath(file.path, report.cwd))}</td><td class="n">${file.reads}</td><td ` +
      `class="n">${file.writes}</td><td class="n">${file.failed}</td></tr>`,
  );
  const list = files.length === 0 ? '<p class="note">No file was read or written.</p>' : undefined;
  return `<section id="files">
<h2>Files <small>${count(summary.files_read)} read · ${count(summary.files_written)} written</small></h2>
${list ?? table(['File', 'n:Reads', 'n:Writes', 'n:Failed'], rows)}
</section>`;
}

function commandsSection(report: Report): string {
  const { summary, commands } = report;
  const directory = (path: string | undefined) => (path === undefined ? '' : shortPath(path, report.cwd));
  const rows = commands.map(
    (command) =>
      `<tr${command.failed ? ' class="bad"' : ''}><td><a ` +
      `href="#e${command.index}"><pre>${escape(command.command)}</pre></a></td><td ` +
      `class="n">${command.exit_code ?? (command.failed ? 'failed' : '—')}</td><td ` +
      `class="path">${escape(directory(command.working_directory))}</td></tr>`,
  );
  return `<section id="commands">
<h2>Commands <small>${count(summary.commands)} run · ${count(summary.commands_failed)} failed</small></h2>
${commands.length === 0 ? '<p class="note">No command was run.</p>' : table(['Command', 'n:Exit', 'Directory'], rows)}
</section>`;
}

function problemsSection(report: Report): string {
  const items = report.problems.map((index) => {
    const event = report.events[index]!;
    const kind = event.type === 'warning' ? 'warning' : 'error';
    return (
      `<li class="${kind}"><a href="#e${index}">#${index + 1}</a> ` +
      `<pre>${escape(capped(eventText(event, report.cwd)))}</pre></li>`
    );
  });
  return `<section id="problems">
<h2>Failures and warnings <small>${count(items.length)}</small></h2>
${items.length === 0 ? '<p class="note">None.</p>' : `<ul class="problems">\n${items.join('\n')}\n</ul>`}
</section>`;
}

function* eventsSection(report: Report): Generator<string> {
  const { events, summary } = report;
  const first = Date.parse(summary.started ?? '');
  const filters = (Object.entries(summary.types) as [EventType, number][]).map(
    ([type, n]) =>
      `<label class="t-${type}"><input type="checkbox" name="type" value="${type}" checked> ${type} <span ` +
      `class="count">${count(n)}</span></label>`,
  );
  const buttons = '<button type="button" id="all">all</button> <button type="button" id="none">none</button>';
  yield `<section id="events">
<h2>Events <small id="shown">${count(events.length)} of ${count(events.length)} shown</small></h2>
<fieldset class="filters"><legend>Types</legend>${filters.join(' ')} ${buttons}</fieldset>
<ol class="events">
`;
  const calls = new Map(report.trace?.calls.map((call) => [call.first_event, call]));
  for (const [index, event] of events.entries()) {
    const took = calls.get(index)?.duration;
    const offset = Number.isNaN(first) ? '' : `+${((Date.parse(event.timestamp) - first) / 1000).toFixed(3)}s`;
    const failed = event.type === 'error' || isFailure(event);
    yield (
      `<li class="event t-${event.type}${failed ? ' failed' : ''}" id="e${index}" ` +
      `data-type="${event.type}"><span class="when" title="${escape(event.timestamp)}">${offset}</span><span ` +
      `class="badge">${event.type}${took === undefined ? '' : `<small>${escape(durationNote(took))}</small>`}` +
      `</span><pre ` +
      `class="text">${escape(capped(eventText(event, report.cwd)))}</pre><details><summary>JSON</summary><pre>` +
      `${escape(jsonOf(event))}</pre></details></li>\n`
    );
  }
  yield `</ol>
</section>`;
}

/** A table: a column named `n:...` holds numbers (right-aligned). */
function table(columns: readonly string[], rows: readonly string[]): string {
  const head = columns
    .map((column) => (column.startsWith('n:') ? `<th class="n">${column.slice(2)}</th>` : `<th>${column}</th>`))
    .join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

function capped(text: string): string {
  return text.length <= TEXT_LIMIT
    ? text
    : `${text.slice(0, TEXT_LIMIT)}\n… ${count(text.length - TEXT_LIMIT)} more characters ` +
        '(the JSONL has the whole event)';
}

function jsonOf(event: HarnessEvent): string {
  const json = JSON.stringify(event, null, 2);
  return json.length <= JSON_LIMIT
    ? json
    : `${json.slice(0, JSON_LIMIT)}\n… ${count(json.length - JSON_LIMIT)} more characters (the JSONL has the whole ` +
        `event)`;
}

const style = `
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --band: #f6f8fa;
  --bad: #cf222e; --warn: #9a6700; --ok: #1a7f37; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: #fff; }
header, main { max-width: 1100px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { font-size: 22px; margin: 0; }
h2 { font-size: 17px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h2 small, .note, .sub { color: var(--muted); font-weight: normal; font-size: 13px; }
.sub { margin: 2px 0 0; }
pre { margin: 0; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap;
  word-break: break-word; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 8px; margin: 0; }
.figure { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
.figure dt { color: var(--muted); font-size: 12px; }
.figure dd { margin: 0; font-size: 17px; font-weight: 600; overflow-wrap: anywhere; }
.figure[data-figure="session"] dd { font-size: 12.5px; font-family: ui-monospace, monospace; }
.outcome-failed dd, .figure.bad dd { color: var(--bad); }
.outcome-succeeded dd { color: var(--ok); }
.outcome-incomplete dd { color: var(--warn); }
svg { display: block; border: 1px solid var(--line); border-radius: 6px; }
svg text { font: 12px system-ui, sans-serif; fill: var(--muted); }
.band { fill: transparent; }
.lane:nth-child(odd) .band { fill: var(--band); }
.ticks line { stroke: var(--line); }
.item { fill: var(--c); fill-opacity: .85; }
.item.span { fill-opacity: .35; stroke: var(--c); }
.item.failed { fill: var(--bad); stroke: var(--bad); }
a:hover .item { fill-opacity: 1; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th.n, td.n { text-align: right; width: 70px; }
td.path { font-family: ui-monospace, monospace; font-size: 12.5px; word-break: break-all; }
tr.bad td, tr.bad pre { color: var(--bad); }
td a { color: inherit; text-decoration: none; }
ul.problems { list-style: none; padding: 0; margin: 0; }
ul.problems li { display: flex; gap: 10px; padding: 4px 0; border-bottom: 1px solid var(--line); }
ul.problems li.error pre { color: var(--bad); }
ul.problems li.warning pre { color: var(--warn); }
.filters { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 10px; }
.filters label { display: inline-block; margin-right: 10px; border-left: 4px solid var(--c); padding-left: 4px; }
.count { color: var(--muted); }
ol.events { list-style: none; padding: 0; margin: 0; }
ol.events li { display: grid; grid-template-columns: 80px 110px 1fr; gap: 4px 10px; padding: 5px 0 5px 8px;
  border-bottom: 1px solid var(--line); border-left: 4px solid var(--c); }
ol.events li:target { background: #fff8c5; }
ol.events li.failed .text { color: var(--bad); }
ol.events details { grid-column: 3; }
ol.events summary { color: var(--muted); font-size: 12px; cursor: pointer; }
.when { color: var(--muted); font: 12px ui-monospace, monospace; }
.badge { font-size: 12px; font-weight: 600; color: var(--c); }
.t-agent { --c: #24292f; } .t-reasoning { --c: #8c959f; } .t-command { --c: #1a7f37; }
.t-read, .t-search, .t-list { --c: #0969da; } .t-write { --c: #8250df; } .t-skill { --c: #bf3989; }
.t-orchestration { --c: #1b7c83; } .t-usage, .t-system, .t-gg, .t-unknown { --c: #6e7781; }
.t-error { --c: #cf222e; } .t-warning { --c: #bf8700; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.tree.agent { fill: #1b7c83; fill-opacity: .12; stroke: #1b7c83; }
.tree.agent:not(.timed) { stroke-dasharray: 4 3; }
.tree.call { fill: #0969da; fill-opacity: .85; }
.tree.call:not(.timed) { fill-opacity: .45; }
.tree.failed { fill: var(--bad); stroke: var(--bad); }
svg text.took { font-size: 10px; fill: #fff; pointer-events: none; }
.badge small { font-weight: normal; color: var(--muted); }
`;

// The event filters: one checkbox per type; a link to a hidden event shows its type again.
const script = `
const boxes = [...document.querySelectorAll('#events input[name="type"]')];
const items = [...document.querySelectorAll('#events li.event')];
const shown = document.getElementById('shown');
function apply() {
  const on = new Set(boxes.filter((box) => box.checked).map((box) => box.value));
  let visible = 0;
  for (const item of items) {
    item.hidden = !on.has(item.dataset.type);
    if (!item.hidden) visible++;
  }
  shown.textContent = visible.toLocaleString('en-US') + ' of ' + items.length.toLocaleString('en-US') + ' shown';
}
function setAll(checked) {
  for (const box of boxes) box.checked = checked;
  apply();
}
for (const box of boxes) box.addEventListener('change', apply);
document.getElementById('all').addEventListener('click', () => setAll(true));
document.getElementById('none').addEventListener('click', () => setAll(false));
addEventListener('hashchange', () => {
  const target = document.getElementById(location.hash.slice(1));
  const box = target && boxes.find((box) => box.value === target.dataset.type);
  if (box && !box.checked) {
    box.checked = true;
    apply();
    target.scrollIntoView();
  }
});
`;
