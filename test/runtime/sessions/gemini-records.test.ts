/**
 * Gemini CLI chat records the captures do not show, each written to a chat file of its own and read back: rewrites,
 * calls not yet finished, $set and $rewindTo, the bounds in count and bytes, records of no known shape.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { readSession } from '../../../lib/runtime/sessions/sessions.js';
import { signature } from './pairs.js';

describe('Gemini chat records the captures do not show', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const header = { sessionId: 'abcd1234-0000-4000-8000-000000000000', projectHash: 'f'.repeat(64), kind: 'main' };
  const response = (id: string, content: unknown, more: object = {}) => ({ id, type: 'gemini', content, ...more });
  const call = (id: string, status: string, file_path = 'notes.txt') => ({
    id,
    name: 'read_file',
    args: { file_path },
    status,
    resultDisplay: '',
  });

  /** The events of a chat file holding these records (one JSON line each, or the line itself when a string). */
  async function read(records: unknown[], options: { maxPendingTools?: number; maxPendingBytes?: number } = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-gemini-'));
    dirs.push(dir);
    const path = join(dir, 'session-2026-12-01T19-59-abcd1234.jsonl');
    writeFileSync(path, records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)) + '\n').join(''));
    const stream = readSession({ harness: 'gemini', path, ...options });
    const events: HarnessEvent[] = [];
    for await (const event of stream) events.push(event);
    return { events, lines: events.map(signature), metrics: stream.metrics };
  }

  test('a text that grows in a rewrite gives what is new; one that changes, a warning and the new text', async () => {
    const { lines } = await read([
      header,
      response('a', 'Hel'),
      response('a', 'Hello'),
      response('a', 'Hello'),
      response('b', 'Yes'),
      response('b', 'No'),
    ]);
    expect(lines).toEqual(['agent | Hel', 'agent | lo', 'agent | Yes', 'warning | message_rewritten', 'agent | No']);
  });

  test('a call written before it finished waits for its rewrite; one never finished has no outcome', async () => {
    const { lines, events } = await read([
      header,
      response('a', '', { toolCalls: [call('c1', 'executing')] }),
      response('a', '', { toolCalls: [call('c1', 'success')] }),
      response('b', '', { toolCalls: [call('c2', 'awaiting_approval', 'README.md')] }),
    ]);
    expect(lines).toEqual(['read | notes.txt | true', 'read | README.md']);
    expect(events[1]).not.toHaveProperty('is_success');
  });

  test(
    'a cancelled call is final: given when its record is read (no ' + 'outcome, as stdout), not held to the end',
    async () => {
      const { lines } = await read([
        header,
        response('a', '', { toolCalls: [call('c1', 'cancelled')] }),
        response('b', 'Stopped.'),
      ]);
      // A call still running would come after the later text, at the end of input.
      expect(lines).toEqual(['read | notes.txt', 'agent | Stopped.']);
    },
  );

  test('a $set naming the session id names the events of a file whose header did not', async () => {
    const { events } = await read([
      { $set: { sessionId: 'efgh5678-0000-4000-8000-000000000000' } },
      response('b', 'Hi'),
    ]);
    expect(events.map((event) => [signature(event), event.session_id])).toEqual([
      ['agent | Hi', 'efgh5678-0000-4000-8000-000000000000'],
    ]);
  });

  test('an unfinished call pushed out by maxPendingTools is given with no outcome, and only once', async () => {
    const running = [call('c1', 'executing'), call('c2', 'executing', 'README.md')];
    const done = [call('c1', 'success'), call('c2', 'success', 'README.md')];
    const { lines } = await read(
      [header, response('a', '', { toolCalls: running }), response('a', '', { toolCalls: done })],
      {
        maxPendingTools: 1,
      },
    );
    expect(lines).toEqual(['read | notes.txt', 'read | README.md | true']);
  });

  test('$rewindTo forgets the messages from its id on: one written again reads as new', async () => {
    const { lines, metrics } = await read([
      header,
      response('a', 'One'),
      response('b', 'Two'),
      { $rewindTo: 'b' },
      response('a', 'One'),
      response('b', 'Two'),
    ]);
    expect(lines).toEqual(['agent | One', 'agent | Two', 'agent | Two']);
    expect(metrics.input.rules['$rewindTo:rewind']).toBe(1);
  });

  test(
    'past maxPendingTools the oldest message is forgotten, with one ' + 'warning; restated, it is given again',
    async () => {
      const messages = [response('a', 'One'), response('b', 'Two'), response('c', 'Three')];
      const { lines } = await read([header, ...messages, { $set: { messages } }], { maxPendingTools: 2 });
      expect(lines).toEqual([
        'agent | One',
        'agent | Two',
        'warning | messages_forgotten',
        'agent | Three',
        // The restated list: `a` was forgotten, and held again it pushes `b` out, which pushes `c` out: a list longer
        // than the bound is given again whole (the warning said so).
        'agent | One',
        'agent | Two',
        'agent | Three',
      ]);
    },
  );

  test('the bound is in bytes too: a message whose state passes maxPendingBytes pushes the older one out', async () => {
    // Each state holds its 2,000-character id; 3,000 bytes hold one of them.
    const [a, b] = ['a', 'b'].map((letter) => letter.repeat(2000));
    const { lines } = await read([header, response(a!, 'One'), response(b!, 'Two'), response(a!, 'One')], {
      maxPendingBytes: 3000,
    });
    expect(lines).toEqual(['agent | One', 'warning | messages_forgotten', 'agent | Two', 'agent | One']);
  });

  test('records of no known shape are unknown or warnings, and reading goes on', async () => {
    const { lines, metrics } = await read([
      header,
      '{"id": "x", "type": "gemini", "content": ',
      { foo: 1 },
      { id: 'i', type: 'info', content: 'Request cancelled.' },
      { $set: 5 },
      { $set: { messages: 3 } },
      { $rewindTo: 5 },
      response('n', 42),
      response('t', '', { toolCalls: [{ name: 'read_file', status: 'success' }] }),
      { $set: { messages: [{ id: 'm', type: 'warning', content: 'x' }, response('d', 'Done.')] } },
    ]);
    expect(lines).toEqual([
      'warning | not_json',
      'unknown undefined/',
      'unknown info/',
      'unknown undefined/',
      'unknown undefined/',
      'unknown undefined/',
      'unknown gemini/',
      'unknown undefined/',
      'unknown warning/',
      'agent | Done.',
    ]);
    expect(metrics.input.rules).toMatchObject({
      [sharedRecords['not a typed object'].rules.unknown]: 1,
      [sharedRecords['any other type'].rules.unknown]: 1,
      '$set:malformed': 2,
      '$rewindTo:malformed': 1,
      'gemini:malformed': 1,
    });
  });
});
