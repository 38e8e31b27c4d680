/**
 * The scripted model server's OpenAI Chat Completions protocol, spoken to with plain fetch: what a turn streams,
 * arguments sent as written, a request without streaming.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { scriptFor } from '../../../lib/testing/index.js';
import { events, post, start, stop, turn } from '../scripted-server.js';

afterEach(stop);

describe('OpenAI Chat Completions', () => {
  test(
    'reasoning_content, content and tool-call deltas (arguments in three pieces), the finish reason, a usage ' +
      'chunk and [DONE]',
    async () => {
      await start(scriptFor('Read it', [turn]));
      const stream = await events(
        await post('/v1/chat/completions', {
          model: 'fake',
          stream: true,
          messages: [
            { role: 'system', content: 'You help.' },
            { role: 'user', content: 'Read it' },
          ],
        }),
      );
      const deltas = stream.slice(0, -2).map((e) => e.data.choices[0].delta);
      expect(deltas).toEqual([
        { role: 'assistant', content: '' },
        { reasoning_content: 'Think ' },
        { reasoning_content: 'first.' },
        { content: 'Reading t' },
        { content: 'he file.' },
        {
          tool_calls: [
            { index: 0, id: 'call_scripted_0002', type: 'function', function: { name: 'Read', arguments: '' } },
          ],
        },
        { tool_calls: [{ index: 0, function: { arguments: '{"file_pat' } }] },
        { tool_calls: [{ index: 0, function: { arguments: 'h":"/w/REA' } }] },
        { tool_calls: [{ index: 0, function: { arguments: 'DME.md"}' } }] },
        {},
      ]);
      expect(stream.at(-3)!.data.choices[0].finish_reason).toBe('tool_calls');
      expect(stream.at(-2)!.data).toEqual({
        id: 'chatcmpl-scripted_0001',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'fake',
        choices: [],
        usage: {
          prompt_tokens: 1500,
          completion_tokens: 30,
          total_tokens: 1530,
          prompt_tokens_details: { cached_tokens: 1000 },
          completion_tokens_details: { reasoning_tokens: 10 },
        },
      });
      expect(stream.at(-1)!.data).toBe('[DONE]');
    },
  );

  test('malformed arguments are sent as written; stream: false gets one chat.completion', async () => {
    await start(scriptFor('Read it', [{ tools: [{ name: 'read', input: {}, rawArguments: '{"filePath": "a' }] }]));
    const response = await post('/v1/chat/completions', {
      model: 'fake',
      messages: [{ role: 'user', content: 'Read it' }],
    });
    expect(await response.json()).toEqual({
      id: 'chatcmpl-scripted_0002',
      object: 'chat.completion',
      created: 0,
      model: 'fake',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_scripted_0001', type: 'function', function: { name: 'read', arguments: '{"filePath": "a' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 40,
        total_tokens: 1240,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
  });
});
