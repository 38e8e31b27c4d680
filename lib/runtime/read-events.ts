/**
 * The reverse of `serialize`: normalized JSONL in, `HarnessEvent` objects out, for the tools
 * that read what `normalize` or `run` wrote (`harness-events view`, `harness-events report`).
 * Nothing read vanishes: a line that is not JSON is a `warning` carrying it, and a value that
 * breaks the contract is a `warning` `invalid_event` followed by the value as `unknown.raw`
 * (the validator's rule). Those warnings take the time of the event before them (the
 * observation time of the run being read, not of the reading); before the first event they
 * wait for it and take its time (at most `MAX_EARLY` of them: past that they go out with the
 * current time).
 */
import type { Transform } from 'node:stream';
import { now } from '../kernel/clock.js';
import type { EventBody, HarnessEvent } from '../kernel/events.js';
import { compose, toTransform, type Sink, type Stage } from '../kernel/stage.js';
import { stamp } from '../kernel/stamp.js';
import { describeCut } from '../transforms/correlate.js';
import { BLANK, NotJson, parseJson, type Parsed } from '../transforms/parse-json.js';
import { EncodingNote, InputBytes, LineTooLong, splitLines } from '../transforms/split-lines.js';
import { violationOf } from '../transforms/validate.js';

const MAX_EARLY = 1000;

function eventReader(sink: Sink<HarnessEvent>): Stage<Parsed> {
  let last: HarnessEvent | undefined;
  let early: EventBody[] = [];
  const send = (body: EventBody, event: HarnessEvent | undefined) =>
    sink(stamp(body, event?.timestamp ?? now(), event?.session_id));
  const note = (body: EventBody) => {
    if (last !== undefined) return send(body, last);
    early.push(body);
    if (early.length >= MAX_EARLY) sendEarly(undefined);
  };
  const sendEarly = (event: HarnessEvent | undefined) => {
    for (const body of early) send(body, event);
    early = [];
  };
  let lines = 0;
  return {
    write(parsed) {
      if (parsed instanceof InputBytes) return;
      if (parsed instanceof EncodingNote) return note({ type: 'warning', code: 'encoding', message: parsed.message });
      if (parsed instanceof NotJson && parsed.fragment)
        return note({ type: 'warning', code: 'interleaved_fragment', message: parsed.line });
      if (parsed === BLANK || !('sameLine' in parsed)) lines++;
      if (parsed === BLANK) return;
      if (parsed instanceof NotJson) return note({ type: 'warning', code: 'not_json', message: parsed.line });
      if (parsed instanceof LineTooLong)
        return note({
          type: 'warning',
          code: 'line_too_long',
          message: `line ${lines} is ${parsed.bytes} bytes long; its content was skipped`,
        });
      if (parsed.cut)
        note({ type: 'warning', code: 'truncated', message: describeCut(lines, parsed.bytes, parsed.cut) });
      const violation = violationOf(parsed.value);
      if (violation === undefined) {
        last = parsed.value as HarnessEvent;
        sendEarly(last);
        return sink(last);
      }
      note({ type: 'warning', code: 'invalid_event', message: violation });
      note({ type: 'unknown', raw: parsed.value });
    },
    end() {
      sendEarly(undefined);
    },
  };
}

/** What {@link readEvents} takes. */
export interface ReadEventsOptions {
  /** The longest line kept, in bytes (default 64 MiB); a longer one becomes a `line_too_long` warning. */
  maxLineBytes?: number;
}

/** What `readEvents` returns: a Transform whose readable side gives `HarnessEvent` objects. */
export interface EventReader extends Transform {
  /** Iterates the events read, in order. */
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<HarnessEvent>;
}

/**
 * A Transform: normalized JSONL bytes in (what `normalize`, `run` or `serialize` wrote), validated `HarnessEvent`
 * objects out. A line that is not an event is a warning (and the value an `unknown` event), never a stream error.
 *
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * import { readEvents } from 'harness-events';
 *
 * for await (const event of createReadStream('events.jsonl').pipe(readEvents())) console.log(event.type);
 * ```
 */
export function readEvents(options: ReadEventsOptions = {}): EventReader {
  const stages = compose(splitLines.stage(options), parseJson.stage(), eventReader);
  return toTransform<Buffer, HarnessEvent>(stages, { bytesIn: true }) as EventReader;
}
