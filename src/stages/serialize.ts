/**
 * The output edge: events in, JSONL out (docs/contract.md wire format: one JSON object per line,
 * UTF-8, `\n`-terminated). The only place an event is turned back into text.
 */
import type { HarnessEvent } from '../kernel/events.js';
import { toTransform } from '../kernel/stage.js';

export function serialize() {
  return toTransform<HarnessEvent, string>(
    (sink) => ({
      write: (event) => sink(JSON.stringify(event) + '\n'),
      end() {},
    }),
    { bytesOut: true },
  );
}
