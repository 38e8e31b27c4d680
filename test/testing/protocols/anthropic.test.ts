/**
 * The scripted model server's Anthropic Messages protocol, spoken to with plain fetch: what a turn streams,
 * which turn a request gets, a request without streaming, count_tokens.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { scriptFor } from '../../../lib/testing/index.js';
import { events, post, server, start, stop, turn } from '../scripted-server.js';

afterEach(stop);

describe('Anthropic Messages', () => {
  test(
    'a turn streams thinking with its signature, text in two deltas, tool input in two JSON deltas, the stop ' +
      'reason and usage',
    async () => {
      await start(scriptFor('Read it', [turn, { text: 'Done.' }]));
      const stream = await events(
        await post('/v1/messages', {
          model: 'claude-x',
          stream: true,
          messages: [{ role: 'user', content: 'Read it' }],
        }),
      );
      expect(stream.map((e) => e.event)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
      expect(stream.every((e) => e.data.type === e.event)).toBe(true);
      expect(stream[0]!.data.message).toEqual({
        id: 'msg_scripted_0001',
        type: 'message',
        role: 'assistant',
        model: 'claude-x',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 1 },
      });
      expect(stream[1]!.data.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
      expect(stream.slice(2, 5).map((e) => e.data.delta)).toEqual([
        { type: 'thinking_delta', thinking: 'Think ' },
        { type: 'thinking_delta', thinking: 'first.' },
        { type: 'signature_delta', signature: 'scripted-signature' },
      ]);
      expect(
        stream
          .slice(7, 9)
          .map((e) => e.data.delta.text)
          .join(''),
      ).toBe('Reading the file.');
      expect(stream[10]!.data.content_block).toEqual({
        type: 'tool_use',
        id: 'toolu_scripted_0002',
        name: 'Read',
        input: {},
      });
      expect(
        JSON.parse(
          stream
            .slice(11, 13)
            .map((e) => e.data.delta.partial_json)
            .join(''),
        ),
      ).toEqual({ file_path: '/w/README.md' });
      expect(stream[14]!.data).toEqual({
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 30 },
      });
    },
  );

  test('the turn is the number of assistant messages in the history; stream: false gets one JSON message', async () => {
    await start(scriptFor('Read it', [turn, { text: 'Done.' }]));
    const history = [
      { role: 'user', content: [{ type: 'text', text: 'Read it' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'hello' }] },
    ];
    const response = await post('/v1/messages', { model: 'claude-x', messages: history });
    expect(await response.json()).toEqual({
      id: 'msg_scripted_0001',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 },
    });
    expect(server!.requests.map(({ body: _body, ...entry }) => entry)).toEqual([
      {
        method: 'POST',
        path: '/v1/messages',
        protocol: 'anthropic',
        toolResults: 1,
        conversation: 'main',
        turn: 1,
        attempt: 0,
        outcome: 'served',
        status: 200,
        usage: { input: 1200, cached: 0, output: 40, reasoning: 0 },
      },
    ]);
  });

  test('count_tokens answers a fixed count', async () => {
    await start(scriptFor('x', []));
    const response = await post('/v1/messages/count_tokens', { model: 'claude-x', messages: [] });
    expect(await response.json()).toEqual({ input_tokens: 1000 });
    expect(server!.requests[0]!.outcome).toBe('count_tokens');
  });
});
