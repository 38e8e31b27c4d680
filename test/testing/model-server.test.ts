/**
 * The scripted model server (testing/), spoken to with plain fetch in each of its four wire
 * protocols: what a turn streams, which turn a request gets, scripted failures and cut streams,
 * and the loud refusal of anything the script does not expect.
 */
import { Agent, get } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { startModelServer, scriptFor, type ModelServer, type Script } from '../../lib/testing/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: Script): Promise<ModelServer> {
  server = await startModelServer(script);
  return server;
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Sse {
  event?: string;
  data: any;
}

/** The server-sent events of a response body. */
async function events(response: Response): Promise<Sse[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))!.slice(6);
      return { ...(event ? { event } : {}), data: data === '[DONE]' ? data : JSON.parse(data) };
    });
}

const turn = {
  reasoning: 'Think first.',
  text: 'Reading the file.',
  tools: [{ name: 'Read', input: { file_path: '/w/README.md' } }],
  usage: { input: 1500, output: 30, cached: 1000, reasoning: 10 },
};

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

describe('OpenAI Responses', () => {
  test(
    'reasoning summary, message and function call items, each added, streamed and done, then response.completed ' +
      'with the usage',
    async () => {
      await start(scriptFor('Read it', [turn]));
      const stream = await events(
        await post('/v1/responses', {
          model: 'gpt-x',
          stream: true,
          input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read it' }] }],
        }),
      );
      expect(stream.map((e) => e.event)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.reasoning_summary_part.added',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.done',
        'response.reasoning_summary_part.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(stream.map((e) => e.data.sequence_number)).toEqual(stream.map((_, i) => i));
      const completed = stream.at(-1)!.data.response;
      expect(completed.output).toEqual([
        { type: 'reasoning', id: 'rs_scripted_0002', summary: [{ type: 'summary_text', text: 'Think first.' }] },
        {
          type: 'message',
          id: 'msg_scripted_0003',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Reading the file.', annotations: [] }],
        },
        {
          type: 'function_call',
          id: 'fc_scripted_0005',
          status: 'completed',
          call_id: 'call_scripted_0004',
          name: 'Read',
          arguments: '{"file_path":"/w/README.md"}',
        },
      ]);
      expect(completed.usage).toEqual({
        input_tokens: 1500,
        input_tokens_details: { cached_tokens: 1000 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 10 },
        total_tokens: 1530,
      });
    },
  );

  test('a freeform tool is a custom_tool_call; a run of model items in the history is one turn', async () => {
    const patch = '*** Begin Patch\n*** Add File: a.ts\n+x\n*** End Patch\n';
    await start(
      scriptFor('Patch it', [{ text: 'unused' }, { tools: [{ name: 'apply_patch', custom: true, input: patch }] }]),
    );
    const input = [
      { role: 'user', content: 'Patch it' },
      { type: 'reasoning', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Listing.' }] },
      { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{}' },
      { type: 'function_call', call_id: 'c2', name: 'exec_command', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'a' },
      { type: 'function_call_output', call_id: 'c2', output: 'b' },
    ];
    const stream = await events(await post('/v1/responses', { model: 'gpt-x', stream: true, input }));
    expect(stream.at(-1)!.data.response.output).toEqual([
      {
        type: 'custom_tool_call',
        id: 'ctc_scripted_0003',
        status: 'completed',
        call_id: 'call_scripted_0002',
        name: 'apply_patch',
        input: patch,
      },
    ]);
    expect(
      stream
        .filter((e) => e.event === 'response.custom_tool_call_input.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe(patch);
    expect(server!.requests[0]).toMatchObject({ turn: 1, toolResults: 2 });
  });
});

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

describe('Gemini', () => {
  test(
    'thought part, text in two chunks, function calls ' + 'without ids, the last chunk with STOP and usageMetadata',
    async () => {
      await start(scriptFor('Read it', [{ text: 'x' }, turn]));
      const body = {
        contents: [
          { role: 'user', parts: [{ text: 'Read it' }] },
          { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'ls', response: {} } }] },
        ],
        tools: [{ functionDeclarations: [{ name: 'read_file' }] }],
      };
      const stream = await events(await post('/v1beta/models/gemini-x:streamGenerateContent', body));
      expect(stream.map((e) => e.data.candidates[0].content.parts)).toEqual([
        [{ text: 'Think first.', thought: true }],
        [{ text: 'Reading t' }],
        [{ text: 'he file.' }],
        [{ functionCall: { name: 'Read', args: { file_path: '/w/README.md' } } }],
      ]);
      expect(stream.map((e) => e.data.candidates[0].finishReason)).toEqual([undefined, undefined, undefined, 'STOP']);
      expect(stream.at(-1)!.data.usageMetadata).toEqual({
        promptTokenCount: 1500,
        candidatesTokenCount: 20,
        cachedContentTokenCount: 1000,
        thoughtsTokenCount: 10,
        totalTokenCount: 1530,
      });
      expect(
        stream.every((e) => e.data.modelVersion === 'gemini-x' && e.data.responseId === 'scripted-scripted_0001'),
      ).toBe(true);
      expect(server!.requests[0]).toMatchObject({ protocol: 'gemini', turn: 1, toolResults: 1, outcome: 'served' });
    },
  );

  test(':generateContent answers one response', async () => {
    await start(scriptFor('Hi', [{ text: 'Hello.' }]));
    const response = await post('/v1beta/models/gemini-x:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
    expect(((await response.json()) as any).candidates).toEqual([
      { content: { role: 'model', parts: [{ text: 'Hello.' }] }, index: 0, finishReason: 'STOP' },
    ]);
  });
});

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
    await server!.close();
    server = undefined;
    agent.destroy();
  });
});
