/**
 * Stage 4, the tool classifier: events and tool calls in, events out.
 *
 * Each finished tool call is looked up in its harness's tool table (harnesses/<name>/tools.ts),
 * whose row says which events it becomes. A tool the table does not know, or a call whose input
 * does not fit its row, becomes `unknown` carrying the harness output. Events pass through.
 */
import type { HarnessEvent } from '../kernel/events.js';
import type { Harness } from '../kernel/harness.js';
import { harnessFrom, type HarnessOption } from '../runtime/registry.js';
import { stamp } from '../kernel/stamp.js';
import { toTransform, type Sink, type Stage } from '../kernel/stage.js';
import { ToolCall } from '../kernel/tool-call.js';
import type { Correlated } from './correlate.js';

/** The events one tool call becomes under a harness's tool table. */
export function classifyToolCall(harness: Harness, call: ToolCall): HarnessEvent[] {
  const key = harness.toolKey ? harness.toolKey(call.name) : call.name;
  const bodies = harness.tools.get(key)?.(call) ?? [{ type: 'unknown' as const, raw: call.raw }];
  return bodies.map((body) => stamp(body, call.timestamp, call.session_id));
}

export function classifier(sink: Sink<HarnessEvent>, harness: Harness): Stage<Correlated> {
  return {
    write(item) {
      if (!(item instanceof ToolCall)) return sink(item);
      for (const event of classifyToolCall(harness, item)) sink(event);
    },
    end() {},
  };
}

/**
 * The tool classifier as a Transform: correlator output in, events out; the harness by name or a `Harness` of your own.
 */
export function classify(harness: HarnessOption) {
  const table = harnessFrom(harness);
  return toTransform<Correlated, HarnessEvent>((sink) => classifier(sink, table));
}
