/** A saved run read back: events or a trace, told apart by the first line; a bad trace line never vanishes. */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { TraceRecord } from '../../lib/kernel/trace.js';
import { isTraceInput, readTrace } from '../../lib/interfaces/trace-input.js';
import { fixturePath } from '../helpers.js';
import { savedTrace } from './saved-trace.js';

async function all(input: Readable): Promise<TraceRecord[]> {
  const records: TraceRecord[] = [];
  for await (const record of input.pipe(readTrace())) records.push(record as TraceRecord);
  return records;
}

describe('isTraceInput', () => {
  test('a saved trace is one; events, raw output and an empty input are not; the input still reads whole', async () => {
    const trace = createReadStream(fixturePath('trace/claude-code-subagent.jsonl'), { highWaterMark: 16 });
    expect(await isTraceInput(trace)).toBe(true);
    expect(await all(trace)).toEqual(savedTrace('claude-code-subagent'));
    const event = '{"type":"agent","timestamp":"2026-11-30T03:00:00.000Z","message":"kind"}\n';
    expect(await isTraceInput(Readable.from([Buffer.from(event)]))).toBe(false);
    expect(await isTraceInput(createReadStream(fixturePath('claude-code/lab/subagent.jsonl')))).toBe(false);
    expect(await isTraceInput(Readable.from([]))).toBe(false);
    // Blank lines first, then a record written with its fields in another order.
    expect(await isTraceInput(Readable.from([Buffer.from('\n\n {"v":1,"kind":"run_started"}\n')]))).toBe(true);
  });

  test('a first line longer than it looks at counts as a trace only if it starts as one', async () => {
    const chunked = (line: string) => Readable.from(line.match(/[^]{1,16384}/g)!.map((part) => Buffer.from(part)));
    const long = 'x'.repeat(70_000);
    expect(await isTraceInput(chunked(`{"kind":"event","pad":"${long}"}\n`))).toBe(true);
    expect(await isTraceInput(chunked(`{"type":"agent","message":"${long}","kind":1}\n`))).toBe(false);
  });
});

describe('readTrace', () => {
  test('a line that is no trace record is a warning and the value as unknown, after the event before it', async () => {
    const [started, first] = savedTrace('claude-code-subagent');
    const input = [JSON.stringify(started), JSON.stringify(first), 'not json', '{"kind":"call_started"}', ''].join(
      '\n',
    );
    const records = await all(Readable.from([Buffer.from(input)]));
    const { timestamp, session_id } = (first as Extract<TraceRecord, { kind: 'event' }>).event;
    expect(records).toEqual([
      started,
      first,
      {
        kind: 'event',
        seq: 1,
        event: { type: 'warning', timestamp, session_id, code: 'not_json', message: 'not json' },
      },
      {
        kind: 'event',
        seq: 1,
        event: {
          type: 'warning',
          timestamp,
          session_id,
          code: 'invalid_event',
          message: 'line 4 is not a trace record',
        },
      },
      { kind: 'event', seq: 1, event: { type: 'unknown', timestamp, session_id, raw: { kind: 'call_started' } } },
    ]);
  });
});
