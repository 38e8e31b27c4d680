/** readEvents: normalized JSONL back into events, as view and report read it. */
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../lib/kernel/events.js';
import { readEvents } from '../../lib/runtime/read-events.js';
import { capturedHarnesses, fixtureFiles, runFixture } from '../helpers.js';

async function read(text: string, options = {}): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of Readable.from([Buffer.from(text)]).pipe(readEvents(options))) events.push(event);
  return events;
}

describe('readEvents', () => {
  test('what normalize writes reads back as the same events, for every real capture', async () => {
    let files = 0;
    for (const harness of capturedHarnesses()) {
      for (const file of fixtureFiles(harness)) {
        const { events } = await runFixture(file, { harness });
        expect(await read(events.map((event) => JSON.stringify(event) + '\n').join(''))).toEqual(events);
        files++;
      }
    }
    expect(files).toBeGreaterThan(80);
  });

  test(
    'nothing read vanishes: a line that is not JSON, a value that breaks the contract, a line too long; blank ' +
      'lines are skipped',
    async () => {
      const first = { type: 'agent', timestamp: '2026-01-01T00:00:00.000Z', session_id: 's', message: 'hi' };
      const text = ['banner', JSON.stringify(first), '', '{"type":"read"}', 'x'.repeat(100), '[1,2]'].join('\n');
      expect(await read(text, { maxLineBytes: 95 })).toEqual([
        { type: 'warning', timestamp: first.timestamp, session_id: 's', code: 'not_json', message: 'banner' },
        first,
        {
          type: 'warning',
          timestamp: first.timestamp,
          session_id: 's',
          code: 'invalid_event',
          message: "read event breaks its schema: read must have required property 'timestamp'",
        },
        { type: 'unknown', timestamp: first.timestamp, session_id: 's', raw: { type: 'read' } },
        {
          type: 'warning',
          timestamp: first.timestamp,
          session_id: 's',
          code: 'line_too_long',
          message: 'line 5 is 100 bytes long; its content was skipped',
        },
        {
          type: 'warning',
          timestamp: first.timestamp,
          session_id: 's',
          code: 'invalid_event',
          message: 'event has no known type (undefined)',
        },
        { type: 'unknown', timestamp: first.timestamp, session_id: 's', raw: [1, 2] },
      ]);
    },
  );

  test(
    'notes before the first event wait for it, at most 1,000 of them; with no event at all they take the ' +
      'current time',
    async () => {
      const event = JSON.stringify({ type: 'agent', timestamp: '2020-01-01T00:00:00.000Z', message: 'late' });
      const waited = await read('x\n'.repeat(999) + event + '\n');
      expect(new Set(waited.map((e) => e.timestamp))).toEqual(new Set(['2020-01-01T00:00:00.000Z']));
      const before = Date.now();
      const flushed = await read('x\n'.repeat(1000) + event + '\n');
      expect(flushed).toHaveLength(1001);
      expect(flushed.slice(0, 1000).every((e) => Date.parse(e.timestamp) >= before - 1)).toBe(true);
      const alone = await read('x\n');
      expect(alone).toEqual([
        { type: 'warning', timestamp: expect.stringMatching(/^\d{4}-/), code: 'not_json', message: 'x' },
      ]);
      expect(Date.parse(alone[0]!.timestamp)).toBeGreaterThanOrEqual(before - 1);
    },
  );
});
