/**
 * Anthropic Messages (`POST /v1/messages`), as Claude Code calls it: a turn is `message_start`,
 * per block `content_block_start` / deltas / `content_block_stop` (thinking with its signature,
 * text in two deltas, tool input in two `input_json_delta`s), `message_delta` with the stop
 * reason and `message_stop`. `input_tokens` is the uncached part of the input.
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

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; json: string };

function blocksOf(turn: Turn, context: TurnContext): Block[] {
  const blocks: Block[] = [];
  if (turn.reasoning !== undefined)
    blocks.push({ type: 'thinking', thinking: turn.reasoning, signature: 'scripted-signature' });
  if (turn.text !== undefined) blocks.push({ type: 'text', text: turn.text });
  for (const tool of turn.tools ?? [])
    blocks.push({
      type: 'tool_use',
      id: context.id('toolu_'),
      name: tool.name,
      input: tool.input,
      json: argumentsText(tool),
    });
  return blocks;
}

function usage(turn: Turn, output: number) {
  const { input, cached } = usageOf(turn);
  return {
    input_tokens: input - cached,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: output,
  };
}

function stopReason(turn: Turn): string {
  return turn.tools?.length ? 'tool_use' : 'end_turn';
}

export const anthropic: Protocol = {
  name: 'anthropic',
  route: (path) => (path === '/v1/messages' ? {} : undefined),
  read(body) {
    const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
    const userTexts = messages
      .filter((m) => m.role === 'user')
      .map((m) => textOf(m.content))
      .filter((text) => text !== '');
    const toolResults = messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((part) => isObject(part) && part.type === 'tool_result').length;
    return {
      model: String(body.model ?? ''),
      stream: body.stream === true,
      system: textOf(body.system),
      userTexts,
      modelTurns: messages.filter((m) => m.role === 'assistant').length,
      toolResults,
      tools: toolNames(body.tools, (tool) => tool.name),
    };
  },
  stream(turn, context) {
    const id = context.id('msg_');
    const events: SseEvent[] = [
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: context.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: usage(turn, 1),
          },
        },
      },
    ];
    blocksOf(turn, context).forEach((block, index) => {
      const delta = (body: unknown) =>
        events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: body } });
      if (block.type === 'thinking') {
        events.push({
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          },
        });
        for (const piece of pieces(block.thinking, 2)) delta({ type: 'thinking_delta', thinking: piece });
        delta({ type: 'signature_delta', signature: block.signature });
      } else if (block.type === 'text') {
        events.push({
          event: 'content_block_start',
          data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        });
        for (const piece of pieces(block.text, 2)) delta({ type: 'text_delta', text: piece });
      } else {
        events.push({
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
          },
        });
        for (const piece of pieces(block.json, 2)) delta({ type: 'input_json_delta', partial_json: piece });
      }
      events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    });
    events.push(
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: stopReason(turn), stop_sequence: null },
          usage: { output_tokens: usageOf(turn).output },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    );
    return events;
  },
  complete(turn, context) {
    const content = blocksOf(turn, context).map((block) =>
      block.type === 'tool_use' ? { type: 'tool_use', id: block.id, name: block.name, input: block.input } : block,
    );
    return {
      id: context.id('msg_'),
      type: 'message',
      role: 'assistant',
      model: context.model,
      content,
      stop_reason: stopReason(turn),
      stop_sequence: null,
      usage: usage(turn, usageOf(turn).output),
    };
  },
  errorBody: ({ status, message }) => ({
    type: 'error',
    error: { type: errorTypes[status] ?? 'api_error', message: message ?? `scripted HTTP ${status}` },
  }),
};
