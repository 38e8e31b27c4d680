/**
 * goose.md's "Normalized mapping" row for a toolRequest and its matching toolResponse, one test per case, on
 * streams written inline in Goose's wire shapes (see wire.ts).
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import {
  assistant,
  call,
  complete,
  goose,
  request,
  response,
  result,
  shellResult,
  text,
  user,
  logNote,
} from './wire.js';
import { records } from '../../../lib/harnesses/goose/correlate.js';

describe('goose.md "Normalized mapping"', () => {
  describe('toolRequest + matching toolResponse: the tool event for the tool, or unknown', () => {
    test('success, with the exit code the response carries', async () => {
      const { events } = await goose(...call('call_1', 'shell', { command: 'npm test' }, shellResult('ok\n', 0)));
      expect(bodies(events)).toEqual([{ type: 'command', command: 'npm test', exit_code: 0, is_success: true }]);
    });

    test('a result that says isError: true is a failure; so is a non-zero exit code', async () => {
      const { events } = await goose(
        ...call('call_1', 'write', { path: 'a.txt', content: 'x' }, result('Error: permission denied', true)),
        ...call('call_2', 'shell', { command: 'false' }, shellResult('', 1)),
      );
      expect(bodies(events)).toEqual([
        { type: 'write', path: '/ws/a.txt', is_success: false },
        { type: 'command', command: 'false', exit_code: 1, is_success: false },
      ]);
    });

    test('toolResult status "error" (a dispatch failure) is a failure', async () => {
      const failed = {
        type: 'toolResponse',
        id: 'call_1',
        toolResult: { status: 'error', error: '-32603: An uncaught error happened during tool use' },
      };
      const { events } = await goose(
        assistant('msg_1', request('call_1', 'tree', { path: '.' })),
        user('msg_u1', failed),
      );
      expect(bodies(events)).toEqual([{ type: 'list', path: '/ws', is_success: false }]);
    });

    test('the old result form (a bare Content array) is a success', async () => {
      const { events } = await goose(...call('call_1', 'read', { path: 'a.txt' }, [{ type: 'text', text: 'hello' }]));
      expect(bodies(events)).toEqual([{ type: 'read', path: '/ws/a.txt', is_success: true }]);
    });

    test('a result without a readable status leaves the outcome unset', async () => {
      const odd = { type: 'toolResponse', id: 'call_1', toolResult: { status: 'pending' } };
      const { events } = await goose(
        assistant('msg_1', request('call_1', 'read', { path: 'a.txt' })),
        user('msg_u1', odd),
      );
      expect(bodies(events)).toEqual([{ type: 'read', path: '/ws/a.txt' }]);
    });

    test('a tool the table does not know: unknown carrying the request and the response', async () => {
      const req = request('call_1', 'developer__screen_capture', { display: 0 });
      const res = response('call_1', result('captured'));
      const { events } = await goose(assistant('msg_1', req), user('msg_u1', res));
      expect(bodies(events)).toEqual([{ type: 'unknown', raw: { tool_request: req, tool_response: res } }]);
    });

    test(
      'an unparseable request (toolCall.status "error") ' + 'is unknown at once; Goose sends no response for it',
      async () => {
        const bad = {
          type: 'toolRequest',
          id: 'call_2',
          toolCall: { status: 'error', error: '-32602: Could not interpret tool use parameters for id call_2: EOF' },
        };
        const { events } = await goose(assistant('msg_1', text('Running it.'), bad), complete());
        expect(bodies(events)).toEqual([
          { type: 'agent', message: 'Running it.' },
          { type: 'unknown', raw: bad },
        ]);
      },
    );

    test('a malformed request (no string id, no tool name) is unknown at once', async () => {
      const noId = {
        type: 'toolRequest',
        toolCall: { status: 'success', value: { name: 'shell', arguments: { command: 'ls' } } },
      };
      const noName = { type: 'toolRequest', id: 'call_3', toolCall: { status: 'success', value: { arguments: {} } } };
      const { events } = await goose(assistant('msg_1', noId, noName));
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: noId },
        { type: 'unknown', raw: noName },
      ]);
    });

    test('a response for an id never seen is unknown carrying it', async () => {
      const orphan = response('call_404', result('orphan'));
      const { events } = await goose(user('msg_u1', orphan));
      expect(bodies(events)).toEqual([{ type: 'unknown', raw: orphan }]);
    });

    test('a second request under an id still waiting is unknown; the first still pairs', async () => {
      const first = request('call_1', 'read', { path: 'a.txt' });
      const second = request('call_1', 'read', { path: 'b.txt' });
      const { events } = await goose(
        assistant('msg_1', first),
        assistant('msg_1', second),
        user('msg_u1', response('call_1', result('a'))),
      );
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: second },
        { type: 'read', path: '/ws/a.txt', is_success: true },
      ]);
    });

    test('calls still waiting at the end of input are emitted with is_success unset, oldest first', async () => {
      const { events } = await goose(
        assistant(
          'msg_1',
          request('call_1', 'read', { path: 'a.txt' }),
          request('call_2', 'shell', { command: 'npm test' }),
        ),
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/ws/a.txt' },
        { type: 'command', command: 'npm test' },
      ]);
    });

    test('bounded: past maxPendingTools the oldest waiting call is emitted unresolved', async () => {
      const input = jsonl(
        assistant('msg_1', request('call_1', 'read', { path: 'a.txt' }), request('call_2', 'read', { path: 'b.txt' })),
        user('msg_u1', response('call_2', result('b'))),
      );
      const { events } = await run(input, { harness: 'goose', cwd: '/ws', maxPendingTools: 1 });
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/ws/a.txt' },
        { type: 'read', path: '/ws/b.txt', is_success: true },
      ]);
    });
  });

  test('complete: consumed for usage; absent or null counts are not reported', async () => {
    const { events, metrics } = await goose({ type: 'complete', total_tokens: null });
    expect(bodies(events)).toEqual([]);
    expect(metrics.tokens).toEqual({});
    expect(metrics.total_tokens).toBeUndefined();
    expect(metrics.ended).toBe(true);
  });

  test('complete: counts are session totals, so a later complete replaces, not adds', async () => {
    const { metrics } = await goose(
      { type: 'complete', total_tokens: 10, output_tokens: 3 },
      { type: 'complete', total_tokens: 25, input_tokens: 20, output_tokens: 5 },
    );
    expect(metrics.tokens).toEqual({ input: 20, output: 5 });
    expect(metrics.total_tokens).toBe(25);
  });

  test('without complete the run is not ended', async () => {
    const { metrics } = await goose(assistant('msg_1', text('Hi')));
    expect(metrics.ended).toBe(false);
  });

  test('error: error; an error record without a message is unknown', async () => {
    const empty = { type: 'error', error: 42 };
    const { events, rules } = await goose({ type: 'error', error: 'Request failed: 429 Too Many Requests' }, empty);
    expect(bodies(events)).toEqual([
      { type: 'error', message: 'Request failed: 429 Too Many Requests' },
      { type: 'unknown', raw: empty },
    ]);
    expect(rules).toEqual([records.error.rules.error, records.error.rules.malformed]);
  });

  test('notification: unknown', async () => {
    const { events } = await goose(logNote);
    expect(bodies(events)).toEqual([{ type: 'unknown', raw: logNote }]);
  });
});
