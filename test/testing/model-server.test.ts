/**
 * The scripted model server (testing/), spoken to with plain fetch: scripted failures and cut streams, which
 * conversation answers a request, and the loud refusal of anything the script does not expect. What each of its four
 * wire protocols streams: protocols/.
 */
import { Agent, get } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { scriptFor, type Script } from '../../lib/testing/index.js';
import { events, post, server, start, stop } from './scripted-server.js';

afterEach(stop);

describe('failures', () => {
  test(
    'attempt i fails with failures[i] (an HTTP error in ' + 'the API shape, or a cut stream), then the turn is served',
    async () => {
      await start(
        scriptFor('Hi', [
          {
            text: 'Hello.',
            failures: [{ status: 429, message: 'slow down', headers: { 'retry-after': '1' } }, 'drop'],
          },
        ]),
      );
      const request = { model: 'fake', stream: true, messages: [{ role: 'user', content: 'Hi' }] };
      const limited = await post('/v1/chat/completions', request);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(await limited.json()).toEqual({
        error: { message: 'slow down', type: 'rate_limit_exceeded', code: null, param: null },
      });
      const dropped = await post('/v1/chat/completions', request);
      expect(dropped.status).toBe(200);
      await expect(dropped.text()).rejects.toThrow();
      const served = await events(await post('/v1/chat/completions', request));
      expect(served.at(-1)!.data).toBe('[DONE]');
      expect(server!.requests.map((r) => [r.attempt, r.outcome, r.status])).toEqual([
        [0, 'failed', 429],
        [1, 'dropped', 200],
        [2, 'served', 200],
      ]);
    },
  );

  test('failAlways fails every attempt; the error body is each API its own', async () => {
    await start(scriptFor('Hi', [{ failAlways: 401 }]));
    const anthropicError = await post('/v1/messages', {
      model: 'c',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect([anthropicError.status, await anthropicError.json()]).toEqual([
      401,
      { type: 'error', error: { type: 'authentication_error', message: 'scripted HTTP 401' } },
    ]);
    const geminiError = await post('/v1beta/models/g:streamGenerateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
    expect([geminiError.status, await geminiError.json()]).toEqual([
      401,
      { error: { code: 401, message: 'scripted HTTP 401', status: 'UNAUTHENTICATED' } },
    ]);
    expect(server!.requests.map((r) => [r.attempt, r.outcome])).toEqual([
      [0, 'failed'],
      [1, 'failed'],
    ]);
  });
});

describe('conversations', () => {
  const script: Script = {
    conversations: [
      { name: 'title', match: { system: 'title generator', tools: false }, reply: { text: 'A title' } },
      { name: 'subagent', match: { user: 'SUBAGENT-JOB' }, turns: [{ text: 'Sub answer.' }] },
      { name: 'second prompt', match: { lastUser: 'Now say goodbye' }, reply: { text: 'Goodbye!' } },
      { name: 'main', match: { user: 'Find greet', tools: true }, turns: [{ text: 'Main answer.' }] },
    ],
  };
  const chatText = async (
    messages: unknown[],
    tools: unknown[] = [{ type: 'function', function: { name: 'read' } }],
  ) => {
    const stream = await events(await post('/v1/chat/completions', { model: 'fake', stream: true, messages, tools }));
    return stream
      .slice(0, -2)
      .map((e) => e.data.choices[0].delta.content ?? '')
      .join('');
  };

  test(
    'the first conversation whose match fits ' + 'answers: by system prompt, user marker, last user message',
    async () => {
      await start(script);
      expect(
        await chatText(
          [
            { role: 'system', content: 'You are a title generator.' },
            { role: 'user', content: 'Find greet' },
          ],
          [],
        ),
      ).toBe('A title');
      expect(await chatText([{ role: 'user', content: 'SUBAGENT-JOB: find greet' }])).toBe('Sub answer.');
      expect(await chatText([{ role: 'user', content: 'Find greet' }])).toBe('Main answer.');
      expect(
        await chatText([
          { role: 'user', content: 'Find greet' },
          { role: 'assistant', content: 'Main answer.' },
          { role: 'user', content: 'Now say goodbye' },
        ]),
      ).toBe('Goodbye!');
      expect(server!.requests.map((r) => `${r.conversation}#${r.turn}`)).toEqual([
        'title#0',
        'subagent#0',
        'main#0',
        'second prompt#1',
      ]);
      expect(server!.unexpected()).toEqual([]);
    },
  );
});

describe('unexpected requests fail loudly and are logged', () => {
  test(
    'an unknown path, a request no conversation ' + 'matches, a turn past the script, a body that is not JSON',
    async () => {
      await start(scriptFor('Hi', [{ text: 'Hello.' }]));
      const models = await fetch(`${server!.url}/v1/models`);
      expect([models.status, await models.json()]).toEqual([
        404,
        { error: { message: 'scripted model: unexpected request: no API at GET /v1/models' } },
      ]);
      const stranger = await post('/v1/chat/completions', {
        model: 'fake',
        stream: true,
        messages: [
          { role: 'system', content: 'Summarize the memory.' },
          { role: 'user', content: 'Something else' },
        ],
      });
      expect(stranger.status).toBe(400);
      expect(((await stranger.json()) as any).error.message).toBe(
        'scripted model: unexpected request: no conversation matches this request (system: "Summarize the memory.", ' +
          'last user text: "Something else")',
      );
      const tooFar = await post('/v1/messages', {
        model: 'c',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello.' },
          { role: 'user', content: 'More?' },
        ],
      });
      expect([tooFar.status, ((await tooFar.json()) as any).error.message]).toEqual([
        400,
        'scripted model: unexpected request: conversation "main" has 1 turns; the request asks for turn 2',
      ]);
      const garbage = await fetch(`${server!.url}/v1/responses`, { method: 'POST', body: '{not json' });
      expect(garbage.status).toBe(400);
      expect(server!.unexpected().map((r) => [r.method, r.path, r.status])).toEqual([
        ['GET', '/v1/models', 404],
        ['POST', '/v1/chat/completions', 400],
        ['POST', '/v1/messages', 400],
        ['POST', '/v1/responses', 400],
      ]);
      expect(server!.unexpected()[3]!.reason).toBe('the request body is not JSON');
    },
  );

  test('close() ends the server although a client keeps its connection open', async () => {
    await start(scriptFor('Hi', [{ text: 'Hello.' }]));
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      const req = get(`${server!.url}/nothing`, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
    });
    await stop();
    agent.destroy();
  });
});
