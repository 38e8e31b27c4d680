/**
 * How a run's events differ from the ones a scenario expects: what the drift report prints for
 * `LIVE_VERSIONS=latest` (a newer CLI's output against the pinned version's expectations).
 */
import type { EventBody, HarnessEvent } from '../lib/kernel/events.js';

export interface Drift {
  /** Records and tools that came out `unknown` and are not expected to. */
  newUnknown: string[];
  /** Expected events that did not come (`-`) and events that came unexpected (`+`), as JSON lines, in stream order. */
  changed: string[];
}

/** The events a scenario compares: no timestamps or session ids, no stderr lines (CLIs log freely there). */
export function comparable(events: readonly HarnessEvent[]): EventBody[] {
  return events
    .filter((event) => !(event.type === 'warning' && event.code === 'stderr'))
    .map(({ timestamp: _timestamp, session_id: _session, ...body }) => body as EventBody);
}

export function driftOf(expected: readonly EventBody[], actual: readonly EventBody[]): Drift | undefined {
  const expectedLines = expected.map((event) => JSON.stringify(event));
  const actualLines = actual.map((event) => JSON.stringify(event));
  const changed = lineDiff(expectedLines, actualLines);
  if (changed.length === 0) return undefined;
  const known = new Map<string, number>();
  for (const event of expected) if (event.type === 'unknown') bump(known, describeUnknown(event.raw));
  const newUnknown: string[] = [];
  for (const event of actual) {
    if (event.type !== 'unknown') continue;
    const what = describeUnknown(event.raw);
    if ((known.get(what) ?? 0) > 0) bump(known, what, -1);
    else newUnknown.push(what);
  }
  return { newUnknown, changed };
}

/** An unknown event's record type, and the tool it carries when it is a tool call. */
export function describeUnknown(raw: unknown): string {
  const record = isObject(raw) ? raw : {};
  let type =
    typeof record.type === 'string' ? record.type : typeof record.method === 'string' ? record.method : '(untyped)';
  // A wrapper record (Cline's agent_event, team_event): what drifts is the type of the event it wraps.
  if (isObject(record.event) && typeof record.event.type === 'string') type += `/${record.event.type}`;
  const tool = toolName(record, 3);
  return tool ? `${type} (tool ${tool})` : `record ${type}`;
}

const toolKeys = ['tool', 'tool_name', 'toolName', 'name'];

function toolName(value: Record<string, unknown>, depth: number): string | undefined {
  for (const key of toolKeys) if (typeof value[key] === 'string' && key !== 'name') return value[key] as string;
  if (depth === 0) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (!isObject(child)) continue;
    if (/tool|part|item|request|call/i.test(key) && typeof child.name === 'string') return child.name;
    const found = toolName(child, depth - 1);
    if (found) return found;
  }
  return undefined;
}

/** A longest-common-subsequence diff of two short lists of lines. */
function lineDiff(a: readonly string[], b: readonly string[]): string[] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || table[i]![j + 1]! >= table[i + 1]![j]!)) out.push(`+ ${b[j++]}`);
    else out.push(`- ${a[i++]}`);
  }
  return out;
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
