/**
 * The reverse of `serialize`: normalized JSONL in, `HarnessEvent` objects out, for the tools
 * that read what `normalize` or `run` wrote (`harness-events view`, `harness-events report`).
 * Nothing read vanishes: a line that is not JSON is a `warning` carrying it, and a value that
 * breaks the contract is a `warning` `invalid_event` followed by the value as `unknown.raw`
 * (the validator's own rule).
 */
import type { Transform } from 'node:stream';
import { now } from './clock.js';
import type { HarnessEvent } from './events.js';
import { fuse, toTransform, type Sink, type Stage } from './stage.js';
import { stamp } from './stamp.js';
import { BLANK, jsonParser, NotJson, type Parsed } from '../transforms/parse-json.js';
import { LineTooLong, lineSplitter, type Line } from '../transforms/split-lines.js';
import { validator } from '../transforms/validate.js';

function eventOf(sink: Sink<HarnessEvent>): Stage<Parsed> {
  return {
    write(parsed) {
      if (parsed === BLANK) return;
      if (parsed instanceof NotJson) return sink(stamp({ type: 'warning', message: parsed.line, code: parsed.fragment ? 'interleaved_fragment' : undefined }, now(), undefined));
      if (parsed instanceof LineTooLong) return sink(stamp({ type: 'warning', message: `a line of ${parsed.bytes} bytes was skipped`, code: 'line_too_long' }, now(), undefined));
      // Checked by the validator next.
      sink(parsed.value as HarnessEvent);
    },
    end() {},
  };
}

export interface ReadEventsOptions {
  /** The longest line kept, in bytes (default 64 MiB); a longer one becomes a `line_too_long` warning. */
  maxLineBytes?: number;
}

/** A Transform: normalized JSONL bytes in, validated `HarnessEvent` objects out. */
export function readEvents(options: ReadEventsOptions = {}): Transform {
  const stages = fuse(
    fuse((sink: Sink<Line>) => lineSplitter(sink, options), jsonParser),
    fuse(eventOf, (sink: Sink<HarnessEvent>) => validator(sink)),
  );
  return toTransform<Buffer, HarnessEvent>(stages, { bytesIn: true });
}
