/**
 * A saved run read back for the views: normalized events (what `normalize` writes) or the trace stream (`normalize
 * --format trace`), told apart by the first line, whose records have a `kind` (docs/cli.md "Watching a run"). A
 * trace line that is not a trace record never vanishes: it becomes an `event` record holding a `warning` (and the
 * value as an `unknown` event), as `readEvents` does for an events file.
 */
import type { Readable, Transform } from 'node:stream';
import { now } from '../kernel/clock.js';
import type { EventBody, HarnessEvent } from '../kernel/events.js';
import { compose, toTransform, type Sink, type Stage } from '../kernel/stage.js';
import { stamp } from '../kernel/stamp.js';
import type { TraceRecord } from '../kernel/trace.js';
import { trace as isTrace } from '../kernel/validators.js';
import { describeCut } from '../transforms/correlate.js';
import { BLANK, NotJson, parseJson, type Parsed } from '../transforms/parse-json.js';
import { EncodingNote, InputBytes, LineTooLong, splitLines } from '../transforms/split-lines.js';

/** How far the first line is looked at: a trace's first record (`run_started`) is a short line. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Whether `input` holds a trace: its first line is a JSON object with a `kind` (a line longer than `SNIFF_BYTES`,
 * when it begins `{"kind":`). What was read to tell is put back, so `input` reads from its start.
 */
export async function isTraceInput(input: Readable): Promise<boolean> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let line: string | undefined;
  for (;;) {
    const chunk = await nextChunk(input);
    if (chunk === undefined) break;
    chunks.push(chunk);
    bytes += chunk.length;
    const head = Buffer.concat(chunks).toString('utf8').trimStart();
    const end = head.indexOf('\n');
    if (end >= 0 || bytes >= SNIFF_BYTES) {
      line = end >= 0 ? head.slice(0, end) : head;
      break;
    }
    line = head;
  }
  if (chunks.length > 0) input.unshift(Buffer.concat(chunks));
  if (line === undefined) return false;
  if (/^\{\s*"kind"\s*:/.test(line)) return true;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && 'kind' in value;
  } catch {
    return false;
  }
}

/** The next chunk of a paused stream; undefined at its end. */
function nextChunk(input: Readable): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const read = () => {
      const chunk = input.read() as Buffer | string | null;
      if (chunk !== null) return done(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (input.readableEnded) done(undefined);
    };
    const ended = () => done(undefined);
    const failed = (error: Error) => {
      off();
      reject(error);
    };
    const done = (chunk: Buffer | undefined) => {
      off();
      resolve(chunk);
    };
    const off = () => {
      input.off('readable', read);
      input.off('end', ended);
      input.off('error', failed);
    };
    input.on('readable', read);
    input.on('end', ended);
    input.once('error', failed);
    read();
  });
}

function traceReader(sink: Sink<TraceRecord>): Stage<Parsed> {
  let last: HarnessEvent | undefined;
  let seq = 0;
  const note = (body: EventBody) =>
    sink({ kind: 'event', seq: Math.max(seq, 1), event: stamp(body, last?.timestamp ?? now(), last?.session_id) });
  let lines = 0;
  return {
    write(parsed) {
      if (parsed instanceof InputBytes) return;
      if (parsed instanceof EncodingNote) return note({ type: 'warning', code: 'encoding', message: parsed.message });
      if (parsed === BLANK || !('sameLine' in parsed)) lines++;
      if (parsed === BLANK) return;
      if (parsed instanceof NotJson) return note({ type: 'warning', code: 'not_json', message: parsed.line });
      if (parsed instanceof LineTooLong)
        return note({ type: 'warning', code: 'line_too_long', message: `line ${lines} (${parsed.bytes} bytes)` });
      if (parsed.cut)
        note({ type: 'warning', code: 'truncated', message: describeCut(lines, parsed.bytes, parsed.cut) });
      if (isTrace(parsed.value)) {
        const record = parsed.value as TraceRecord;
        if (record.kind === 'event') {
          last = record.event;
          seq = record.seq;
        }
        return sink(record);
      }
      note({ type: 'warning', code: 'invalid_event', message: `line ${lines} is not a trace record` });
      note({ type: 'unknown', raw: parsed.value });
    },
    end() {},
  };
}

/** What `readTrace` returns: a Transform whose readable side gives trace records. */
export interface TraceReader extends Transform {
  /** Iterates the records read, in order. */
  [Symbol.asyncIterator](): NodeJS.AsyncIterator<TraceRecord>;
}

/**
 * A Transform: a saved trace's JSONL bytes in (`normalize --format trace`), schema-valid trace records out. A line
 * that is not one is an `event` record holding a warning (and the value as `unknown`), never a stream error.
 */
export function readTrace(): TraceReader {
  return toTransform<Buffer, TraceRecord>(compose(splitLines.stage({}), parseJson.stage(), traceReader), {
    bytesIn: true,
  }) as TraceReader;
}
