/**
 * OpenAI Responses (`POST /v1/responses`), as Codex calls it: `response.created`,
 * `response.in_progress`, then one output item per part of the turn (a reasoning summary, an
 * assistant message, a `function_call` or freeform `custom_tool_call` per tool), each added,
 * streamed in deltas and done, then `response.completed` with the usage.
 */
import type { Turn } from './turn.js';
import {
  argumentsText,
  isObject,
  pieces,
  textOf,
  toolNames,
  usageOf,
  type Protocol,
  type SseEvent,
  type TurnContext,
} from './protocol.js';

/** Input items the model wrote: a run of them in the history is one model turn. */
const modelItems = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'tool_search_call',
]);
const toolOutputs = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'tool_search_output',
]);

function isModelItem(item: Record<string, unknown>): boolean {
  return (
    modelItems.has(String(item.type)) ||
    (item.role === 'assistant' && (item.type === 'message' || item.type === undefined))
  );
}

interface Built {
  events: SseEvent[];
  output: Record<string, unknown>[];
}

function build(turn: Turn, context: TurnContext): Built {
  const events: SseEvent[] = [];
  const output: Record<string, unknown>[] = [];
  const emit = (type: string, body: Record<string, unknown>) => events.push({ event: type, data: { type, ...body } });
  const item = (
    added: Record<string, unknown>,
    stream: (itemId: string, outputIndex: number) => void,
    done: Record<string, unknown>,
  ) => {
    const outputIndex = output.length;
    emit('response.output_item.added', { output_index: outputIndex, item: added });
    stream(added.id as string, outputIndex);
    emit('response.output_item.done', { output_index: outputIndex, item: done });
    output.push(done);
  };
  if (turn.reasoning !== undefined) {
    const text = turn.reasoning;
    const id = context.id('rs_');
    item(
      { type: 'reasoning', id, summary: [] },
      (itemId, outputIndex) => {
        const at = { item_id: itemId, output_index: outputIndex, summary_index: 0 };
        emit('response.reasoning_summary_part.added', { ...at, part: { type: 'summary_text', text: '' } });
        for (const delta of pieces(text, 2)) emit('response.reasoning_summary_text.delta', { ...at, delta });
        emit('response.reasoning_summary_text.done', { ...at, text });
        emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
      },
      { type: 'reasoning', id, summary: [{ type: 'summary_text', text }] },
    );
  }
  if (turn.text !== undefined) {
    const text = turn.text;
    const id = context.id('msg_');
    item(
      { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] },
      (itemId, outputIndex) => {
        const at = { item_id: itemId, output_index: outputIndex, content_index: 0 };
        emit('response.content_part.added', { ...at, part: { type: 'output_text', text: '', annotations: [] } });
        for (const delta of pieces(text, 2)) emit('response.output_text.delta', { ...at, delta });
        emit('response.output_text.done', { ...at, text });
        emit('response.content_part.done', { ...at, part: { type: 'output_text', text, annotations: [] } });
      },
      {
        type: 'message',
        id,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    );
  }
  for (const tool of turn.tools ?? []) {
    const text = argumentsText(tool);
    const callId = context.id('call_');
    if (tool.custom) {
      const id = context.id('ctc_');
      item(
        { type: 'custom_tool_call', id, call_id: callId, name: tool.name, input: '' },
        (itemId, outputIndex) => {
          for (const delta of pieces(text, 2))
            emit('response.custom_tool_call_input.delta', { item_id: itemId, output_index: outputIndex, delta });
          emit('response.custom_tool_call_input.done', { item_id: itemId, output_index: outputIndex, input: text });
        },
        { type: 'custom_tool_call', id, status: 'completed', call_id: callId, name: tool.name, input: text },
      );
    } else {
      const id = context.id('fc_');
      const named = {
        call_id: callId,
        name: tool.name,
        ...(tool.namespace === undefined ? {} : { namespace: tool.namespace }),
      };
      item(
        { type: 'function_call', id, status: 'in_progress', ...named, arguments: '' },
        (itemId, outputIndex) => {
          for (const delta of pieces(text, 2))
            emit('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
          emit('response.function_call_arguments.done', {
            item_id: itemId,
            output_index: outputIndex,
            arguments: text,
          });
        },
        { type: 'function_call', id, status: 'completed', ...named, arguments: text },
      );
    }
  }
  return { events, output };
}

function response(context: TurnContext, id: string, status: string, output: unknown[], turn?: Turn) {
  const body: Record<string, unknown> = { id, object: 'response', created_at: 0, status, model: context.model, output };
  if (turn) {
    const { input, output: out, cached, reasoning } = usageOf(turn);
    body.usage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: out,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + out,
    };
  }
  return body;
}

export const responses: Protocol = {
  name: 'responses',
  route: (path) => (path === '/v1/responses' ? {} : undefined),
  read(body) {
    const input =
      typeof body.input === 'string'
        ? [{ role: 'user', content: body.input }]
        : Array.isArray(body.input)
          ? body.input.filter(isObject)
          : [];
    let modelTurns = 0;
    let inModelTurn = false;
    for (const item of input) {
      if (isModelItem(item) && !inModelTurn) modelTurns++;
      inModelTurn = isModelItem(item);
    }
    return {
      model: String(body.model ?? ''),
      stream: body.stream === true,
      system: typeof body.instructions === 'string' ? body.instructions : '',
      userTexts: input
        .filter((item) => item.role === 'user')
        .map((item) => textOf(item.content))
        .filter((text) => text !== ''),
      modelTurns,
      toolResults: input.filter((item) => toolOutputs.has(String(item.type))).length,
      tools: toolNames(body.tools, (tool) => tool.name ?? tool.type),
    };
  },
  stream(turn, context) {
    const id = context.id('resp_');
    const { events, output } = build(turn, context);
    return [
      {
        event: 'response.created',
        data: { type: 'response.created', response: response(context, id, 'in_progress', []) },
      },
      {
        event: 'response.in_progress',
        data: { type: 'response.in_progress', response: response(context, id, 'in_progress', []) },
      },
      ...events,
      {
        event: 'response.completed',
        data: { type: 'response.completed', response: response(context, id, 'completed', output, turn) },
      },
    ].map((event, index) => ({ event: event.event, data: { ...(event.data as object), sequence_number: index } }));
  },
  complete(turn, context) {
    return response(context, context.id('resp_'), 'completed', build(turn, context).output, turn);
  },
  errorBody: ({ status, message }) => ({
    error: {
      message: message ?? `scripted HTTP ${status}`,
      type: status === 429 ? 'rate_limit_exceeded' : status < 500 ? 'invalid_request_error' : 'server_error',
      code: null,
      param: null,
    },
  }),
};
