/**
 * The report's tree timeline (HTML), from a trace: a lane per agent, the subagents under their parent, each agent's
 * span and each tool call a bar from its start to its end where its duration is known, a mark at its end otherwise.
 * Every text from the run is escaped.
 */
import type { TraceAgent, TraceCall } from '../trace-tree.js';
import { duration, plural } from '../view/format.js';
import { escape, LABELS, LANE, PLOT, WIDTH } from './html-parts.js';
import { ending, type ReportTrace } from './tree.js';

/** About how wide a character of a bar's label is, in the SVG's units (its 10px font). */
const CHAR_WIDTH = 6;

/** A lane's label is cut here (a name is the harness's; the hover title has it whole). */
const LABEL_CHARS = 16;

/** The tree timeline's SVG and its note, or nothing without a trace. */
export function treeTimeline(trace: ReportTrace | undefined): string {
  if (trace === undefined) return '';
  const { timeline, calls } = trace;
  const byId = new Map(calls.map((call) => [call.call_id, call]));
  const height = timeline.lanes.length * LANE + 28;
  const x = (at: number) => LABELS + at * PLOT;
  const rows = timeline.lanes.map((agent, index) => {
    const name = agent.agent_id === undefined ? (trace.harness ?? 'run') : (agent.name ?? agent.agent_id);
    const label = '  '.repeat(Math.min(agent.depth, 4)) + (agent.depth > 0 ? '└ ' : '') + name;
    const cut = label.length <= LABEL_CHARS ? label : `${label.slice(0, LABEL_CHARS - 1)}…`;
    return (
      `<g class="lane"><title>${escape(name)}</title><rect class="band" x="0" y="${index * LANE}" ` +
      `width="${WIDTH}" height="${LANE}"/><text x="8" y="${index * LANE + 17}" xml:space="preserve">` +
      `${escape(cut)}</text></g>`
    );
  });
  const marks = timeline.items.map((item) => {
    const agent = timeline.lanes[item.lane]!;
    const call = item.kind === 'call' ? byId.get(item.id!) : undefined;
    const left = x(item.from);
    const width = Math.max(4, x(item.to) - left);
    const y = item.lane * LANE + (item.kind === 'agent' ? 3 : 7);
    const classes = `tree ${item.kind}${item.timed ? ' timed' : ''}${item.failed ? ' failed' : ''}`;
    const title = call ? callTitle(call) : agentTitle(agent);
    const x0 = (item.timed ? left : left - 2).toFixed(1);
    const rect =
      `<rect class="${classes}" x="${x0}" y="${y}" width="${width.toFixed(1)}" ` +
      `height="${item.kind === 'agent' ? LANE - 6 : LANE - 14}" rx="2"><title>${escape(title)}</title></rect>`;
    const mark = rect + (call === undefined ? '' : barLabel(call, left, width, y));
    return call?.first_event === undefined ? mark : `<a href="#e${call.first_event}">${mark}</a>`;
  });
  const top = timeline.lanes.length * LANE;
  const label = `${timeline.lanes.length} agents and ${calls.length} tool calls`;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (at) =>
      `<line x1="${x(at)}" x2="${x(at)}" y1="0" y2="${top + 4}"/><text x="${x(at)}" y="${top + 20}" ` +
      `text-anchor="middle">${timeline.axis === 'order' ? '' : escape(duration(timeline.span_ms * at))}</text>`,
  );
  const axis =
    timeline.axis === 'harness'
      ? `by the harness's own times over ${escape(duration(timeline.span_ms))} (a record without one is placed ` +
        'at the record before it)'
      : timeline.axis === 'observed'
        ? `by observation time over ${escape(duration(timeline.span_ms))}`
        : 'in record order (every record was observed within one millisecond)';
  return `<h3>Agents and tool calls</h3>
<p class="note">Each agent a lane, under the agent that started it, ${axis}. A call is a bar from its start to its end,
with its tool and duration where they fit, when both ends are known on one clock, else a mark at its end; hover for
how it ended. Click a call for its event.</p>
<svg viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${label}">
${rows.join('\n')}
<g class="ticks">${ticks.join('')}</g>
${marks.join('\n')}
</svg>`;
}

/** A timed call's tool and duration written on its bar, where the bar is wide enough for a few characters. */
function barLabel(call: TraceCall, left: number, width: number, y: number): string {
  const chars = Math.floor((width - 8) / CHAR_WIDTH);
  if (call.duration === undefined || chars < 4) return '';
  const label = `${call.tool} ${duration(call.duration.ms)}`;
  const shown = label.length <= chars ? label : `${label.slice(0, chars - 1)}…`;
  return `<text class="took" x="${(left + 4).toFixed(1)}" y="${y + 10}">${escape(shown)}</text>`;
}

/** `Read toolu_01 · completed in 42ms (harness times)`; a duration not known says why. */
export function callTitle(call: TraceCall): string {
  return `${call.tool} ${call.call_id} · ${ending(call)}`;
}

function agentTitle(agent: TraceAgent): string {
  const calls = plural(agent.calls.length, 'call');
  // The run's own duration is the summary's.
  if (agent.agent_id === undefined) return `the run · ${calls}`;
  const background = agent.background ? ' · background' : '';
  return `${agent.name ?? 'subagent'} ${agent.agent_id}${background} · ${ending(agent)} · ${calls}`;
}
