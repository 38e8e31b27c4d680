/**
 * publishTo given the trace stream (`--format trace --publish`): the events its `event` records carry go to the
 * sink, every record goes on to be printed.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect, test } from 'vitest';
import { publishTo } from '../../../lib/interfaces/jetstream/sink.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { traceFixture } from '../../helpers.js';

test('the events of a trace are published, every record passes on', async () => {
  const records = await traceFixture('claude-code/lab/subagent.jsonl', { harness: 'claude-code' });
  const published: unknown[] = [];
  const sink = new Writable({ objectMode: true, write: (item, _encoding, done) => (published.push(item), done()) });
  const printed: TraceRecord[] = [];
  await pipeline(
    Readable.from(records),
    publishTo(sink),
    new Writable({ objectMode: true, write: (item, _encoding, done) => (printed.push(item), done()) }),
  );
  expect(printed).toEqual(records);
  expect(published).toEqual(records.flatMap((r) => (r.kind === 'event' ? [r.event] : [])));
  expect(published).toHaveLength(5);
});
