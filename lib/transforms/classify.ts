/**
 * Stage 4, the tool classifier: events and tool calls in, events out.
 *
 * Each finished tool call is looked up in its harness's tool table (harnesses/<name>/tools.ts),
 * whose row says which events it becomes. A tool the table does not know, or a call whose input
 * does not fit its row, becomes `unknown` carrying the harness output. Events pass through. Every
 * event out is counted in the run's metrics (`metrics.events`), which the correlator's note names:
 * the events by type as the harness gave them (the validator's replacement of an invalid one is
 * not recounted).
 */
import type { HarnessEvent } from '../kernel/events.js';
import type { Harness } from '../kernel/harness.js';
import type { RunMetrics } from '../kernel/events.js';
import { countEvent, MetricsNote } from '../kernel/metrics.js';
import { stamp } from '../kernel/stamp.js';
import { defineStage, type Sink, type Stage } from '../kernel/stage.js';
import { ToolCall } from '../kernel/tool-call.js';
import type { Correlated } from './correlate.js';

/** The events one tool call becomes under a harness's tool table. */
export function classifyToolCall(harness: Harness, call: ToolCall): HarnessEvent[] {
  const key = harness.toolKey ? harness.toolKey(call.name) : call.name;
  const bodies = harness.tools.get(key)?.(call) ?? [{ type: 'unknown' as const, raw: call.raw }];
  return bodies.map((body) => stamp(body, call.timestamp, call.session_id));
}

function classifier(out: Sink<HarnessEvent>): Stage<Correlated> {
  // The run's metrics, once the correlator's note has said where they are: every event out counts.
  let metrics: RunMetrics | undefined;
  const sink = (event: HarnessEvent) => {
    if (metrics !== undefined) countEvent(metrics, event.type);
    out(event);
  };
  return {
    write(item) {
      if (item instanceof ToolCall) {
        if (item.harness === undefined) throw new TypeError('classify: a tool call that no correlator made');
        for (const event of classifyToolCall(item.harness, item)) sink(event);
      } else if (item instanceof MetricsNote) metrics = item.metrics;
      else sink(item);
    },
    end() {},
  };
}

/**
 * The tool classifier: correlator output in, events out, each tool call under the tool table of
 * the harness that correlated it (so a chain names its harness once, to `correlate`).
 * `classify()` is a Transform; `classify.stage()` the same stage for `compose`.
 */
export const classify = defineStage(classifier);
