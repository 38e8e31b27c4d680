/**
 * The output edge: events in, JSONL out (docs/contract.md wire format: one JSON object per line,
 * UTF-8, `\n`-terminated). The only place an event is turned back into text.
 */
import type { HarnessEvent } from '../kernel/events.js';
import { defineStage, type Sink, type Stage } from '../kernel/stage.js';

function serializer(sink: Sink<string>): Stage<HarnessEvent> {
  return {
    write: (event) => sink(JSON.stringify(event) + '\n'),
    end() {},
  };
}

/** The serializer: events in, JSON lines out. `serialize()` is a Transform; `serialize.stage()` for `compose`. */
export const serialize = defineStage(serializer, { bytesOut: true });
