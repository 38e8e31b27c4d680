/**
 * The scripted model server's OpenAI Responses protocol, spoken to with plain fetch: what a turn streams, a
 * freeform tool, which turn a request gets.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { scriptFor } from '../../../lib/testing/index.js';
import { events, post, server, start, stop, turn } from '../scripted-server.js';

afterEach(stop);

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

  test("a call's namespace; arguments computed from the request (an earlier tool's output)", async () => {
    const outputs = (request: Record<string, unknown>) => (request.input as { output?: string }[]).map((i) => i.output);
    const agentOf = (request: Record<string, unknown>) => /"agent_id":"([^"]+)"/.exec(outputs(request).join())?.[1];
    await start(
      scriptFor('Delegate', [
        { text: 'unused' },
        {
          tools: [
            {
              name: 'wait_agent',
              namespace: 'multi_agent_v1',
              input: {},
              inputFrom: (request) => ({ targets: [agentOf(request)] }),
            },
          ],
        },
      ]),
    );
    const input = [
      { role: 'user', content: 'Delegate' },
      { type: 'function_call', call_id: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"agent_id":"thread-7","nickname":"Ada"}' },
    ];
    const stream = await events(await post('/v1/responses', { model: 'gpt-x', stream: true, input }));
    const call = {
      type: 'function_call',
      call_id: 'call_scripted_0002',
      name: 'wait_agent',
      namespace: 'multi_agent_v1',
    };
    expect(stream.find((e) => e.event === 'response.output_item.added')!.data.item).toEqual({
      ...call,
      id: 'fc_scripted_0003',
      status: 'in_progress',
      arguments: '',
    });
    expect(stream.at(-1)!.data.response.output).toEqual([
      { ...call, id: 'fc_scripted_0003', status: 'completed', arguments: '{"targets":["thread-7"]}' },
    ]);
  });
});
