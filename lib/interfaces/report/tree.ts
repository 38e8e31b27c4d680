/**
 * What the report shows from a trace (docs/cli.md "The run report"): the subagent tree, each agent a lane in the
 * order of the tree, and each tool call in its agent's lane, a bar from its start to its end where its duration is
 * known, else a mark at its end. Pure; lib/interfaces/report/html.ts and markdown.ts lay it out.
 */
import type { TimeSource, TraceRecord } from '../../kernel/trace.js';
import { TraceTree, type TraceAgent, type TraceCall } from '../trace-tree.js';
import { duration } from '../view/format.js';

/** One mark of the tree's timeline: an agent's span or a tool call. */
export interface TreeItem {
  /** An agent (its lane's span) or a tool call. */
  kind: 'agent' | 'call';
  /** Its agent's lane (index in `lanes`). */
  lane: number;
  /** The agent's id (undefined: the root) or the call's. */
  id: string | undefined;
  /** Where it starts on the time axis, 0 to 1. */
  from: number;
  /** Where it ends, 0 to 1 (a mark has `to === from`). */
  to: number;
  /** Its duration is known: a bar; otherwise its start is a placement only. */
  timed: boolean;
  /** It failed, or never ended (`unresolved`). */
  failed: boolean;
}

/** The agents and their calls laid out in time. */
export interface TreeTimeline {
  /**
   * The clock of the positions: `harness` (the harness's own times; a record without one is placed at the time of
   * the record before it), `observed` (the library's), or `order` (all within one millisecond: record order).
   */
  axis: TimeSource | 'order';
  /** From the earliest mark to the latest, in ms (0 on the `order` axis). */
  span_ms: number;
  /** The lanes: the root agent, then each subagent after its parent (depth first, in the order they started). */
  lanes: TraceAgent[];
  items: TreeItem[];
}

/** What the report shows from a trace: its agents, its calls and their timeline. */
export interface ReportTrace {
  /** The harness, as the trace's `run_started` names it. */
  harness: string | undefined;
  /** The agents in the tree's order (as `timeline.lanes`). */
  agents: TraceAgent[];
  /** The calls, in the order they started. */
  calls: TraceCall[];
  timeline: TreeTimeline;
}

type Position = number | undefined;

/** The report's tree, calls and their timeline, from the trace's records. */
export function traceReport(records: readonly TraceRecord[]): ReportTrace {
  const tree = new TraceTree();
  const axis: TimeSource = records.some((record) => record.kind !== 'event' && record.at_source === 'harness')
    ? 'harness'
    : 'observed';
  // Each record's place on the axis clock: its own time, or the time of the record before it.
  const starts = new Map<string | undefined, Position>();
  const ends = new Map<string | undefined, Position>();
  const positions: Position[] = [];
  let carry: Position;
  records.forEach((record, index) => {
    tree.add(record);
    const time = timeOnAxis(record, axis);
    carry = time ?? carry;
    positions.push(carry);
    const key = (prefix: string, id: string | undefined) => `${prefix}${id ?? ''}`;
    if (record.kind === 'run_started') starts.set(key('a:', undefined), index);
    else if (record.kind === 'run_ended') ends.set(key('a:', undefined), index);
    else if (record.kind === 'agent_started') starts.set(key('a:', record.agent_id), index);
    else if (record.kind === 'agent_ended') ends.set(key('a:', record.agent_id), index);
    else if (record.kind === 'call_started') starts.set(key('c:', record.call_id), index);
    else if (record.kind === 'call_ended') ends.set(key('c:', record.call_id), index);
  });
  const known = positions.filter((position): position is number => position !== undefined);
  const first = Math.min(...known);
  const span = known.length > 0 ? Math.max(...known) - first : 0;
  const at = (index: number | undefined): number => {
    if (index === undefined) return 1;
    if (span <= 0) return records.length > 1 ? index / (records.length - 1) : 0;
    return ((positions[index] ?? first) - first) / span;
  };
  const lanes = lanesOf(tree);
  const items: TreeItem[] = [];
  lanes.forEach((agent, lane) => {
    const id = agent.agent_id;
    const from = at(starts.get(`a:${id ?? ''}`));
    items.push(item('agent', lane, id, from, at(ends.get(`a:${id ?? ''}`)), agent.duration !== undefined, agent));
    for (const call_id of agent.calls) {
      const call = tree.calls.get(call_id)!;
      const to = at(ends.get(`c:${call_id}`) ?? starts.get(`c:${call_id}`));
      const timed = call.duration !== undefined;
      items.push(item('call', lane, call_id, timed ? at(starts.get(`c:${call_id}`)) : to, to, timed, call));
    }
  });
  const calls = lanes.flatMap((agent) => agent.calls.map((id) => tree.calls.get(id)!));
  const order = (call: TraceCall) => starts.get(`c:${call.call_id}`) ?? ends.get(`c:${call.call_id}`) ?? 0;
  calls.sort((a, b) => order(a) - order(b));
  return {
    harness: tree.harness,
    agents: lanes,
    calls,
    timeline: { axis: span > 0 ? axis : 'order', span_ms: Math.max(0, span), lanes, items },
  };
}

function item(
  kind: TreeItem['kind'],
  lane: number,
  id: string | undefined,
  from: number,
  to: number,
  timed: boolean,
  ended: { status: string | undefined },
): TreeItem {
  return { kind, lane, id, from, to: Math.max(from, to), timed, failed: ended.status !== 'completed' };
}

/** A lifecycle record's time in ms when it is on the axis clock (an event's observation time on `observed`). */
function timeOnAxis(record: TraceRecord, axis: TimeSource): number | undefined {
  const at =
    record.kind === 'event'
      ? axis === 'observed'
        ? record.event.timestamp
        : undefined
      : record.at_source === axis
        ? record.at
        : undefined;
  const time = at === undefined ? NaN : Date.parse(at);
  return Number.isNaN(time) ? undefined : time;
}

/** The root, then each subagent after its parent, depth first. */
function lanesOf(tree: TraceTree): TraceAgent[] {
  const lanes: TraceAgent[] = [];
  const visit = (agent: TraceAgent) => {
    lanes.push(agent);
    for (const child of agent.children) visit(tree.agent(child)!);
  };
  visit(tree.root);
  return lanes;
}

/** `completed in 42ms`, `failed in 1.2s (observed)`, `running`, `completed (duration unknown: ...)`. */
export function ending(thing: Pick<TraceCall, 'status' | 'duration' | 'started'> & { late?: boolean }): string {
  const status = thing.status ?? 'running';
  if (thing.duration !== undefined)
    return `${status} in ${duration(thing.duration.ms)}${thing.duration.source === 'observed' ? ' (observed)' : ''}`;
  if (thing.status === undefined) return status;
  const why =
    thing.started === undefined
      ? 'no start'
      : thing.late === true
        ? 'announced only at its end'
        : 'start and end on different clocks';
  return `${status} (duration unknown: ${why})`;
}
