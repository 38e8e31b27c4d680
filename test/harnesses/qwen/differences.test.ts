/**
 * Qwen's numbered differences from claude-code.md 1 to 4, 6 and 7 (5: orchestration.test.ts; 8 to 10:
 * endings.test.ts): where a difference is a difference, the same lines also go through the claude-code harness, so
 * both readings stand side by side.
 */
import { describe, expect, test } from 'vitest';
import { createNormalizer } from '../../../lib/runtime/normalizer.js';
import type { HarnessName } from '../../../lib/index.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/qwen/correlate.js';
import { harness, session, assistant, system, text, call, unknownCall, result, events, claudeEvents } from './lines.js';

describe('differences from claude-code.md', () => {
  test("1. tool names and shapes are Qwen's own: Claude's Read is unknown, read_file's offset is 0-based", async () => {
    const qwenRead = call('read_file', { file_path: '/f', offset: 10, limit: 5 });
    const claudeRead = call('Read', { file_path: '/f', offset: 10, limit: 5 });
    expect(await events(...qwenRead, ...claudeRead)).toEqual([
      { type: 'read', path: '/f', start_line: 11, end_line: 15, is_success: true },
      unknownCall('Read', { file_path: '/f', offset: 10, limit: 5 }),
    ]);
    // Claude Code's offset is the first line itself.
    expect(await claudeEvents(...claudeRead)).toEqual([
      { type: 'read', path: '/f', start_line: 10, end_line: 14, is_success: true },
    ]);
  });

  test(
    '2. one block type per assistant record: text is joined per record, so two records are two events even ' +
      'under one message id',
    async () => {
      const records = [
        assistant([text('Part one, '), text('still one.')], { id: 'same' }),
        assistant([text('Part two.')], { id: 'same' }),
      ];
      expect(await events(...records)).toEqual([
        { type: 'agent', message: 'Part one, still one.' },
        { type: 'agent', message: 'Part two.' },
      ]);
      expect(await claudeEvents(...records)).toEqual([{ type: 'agent', message: 'Part one, still one.Part two.' }]);
    },
  );

  test(
    "2. a record's text is emitted with its record; Claude Code's waits for the next line (more of its message " +
      'may come)',
    async () => {
      /** What a normalizer has to give once one line has been written, before any other input. */
      async function afterOneLine(name: HarnessName) {
        const normalizer = createNormalizer({ harness: name });
        await new Promise((resolve) => normalizer.write(jsonl(assistant([text('Now.')])), resolve));
        const ready = normalizer.read() as HarnessEvent | null;
        normalizer.destroy();
        return ready && bodies([ready]);
      }
      expect(await afterOneLine(harness)).toEqual([{ type: 'agent', message: 'Now.' }]);
      expect(await afterOneLine('claude-code')).toBeNull();
    },
  );

  test(
    '3. an [API Error: ...] text is an error; the error result repeating it gives no second event; another ' +
      'error result does',
    async () => {
      const apiError = '[API Error: 429 Too Many Requests]';
      const failed = (message: string) =>
        result({ subtype: 'error_during_execution', is_error: true, result: undefined, error: { message } });
      const { events: out, rules } = await run(
        jsonl(assistant([text('Trying.')]), assistant([text(apiError)]), failed(apiError)),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'agent', message: 'Trying.' },
        { type: 'error', message: apiError },
      ]);
      expect(rules.at(-1)).toBe(records.result.rules.repeated);
      expect(await events(assistant([text(apiError)]), failed('[API Error: 500 Internal Server Error]'))).toEqual([
        { type: 'error', message: apiError },
        { type: 'error', message: '[API Error: 500 Internal Server Error]', code: 'error_during_execution' },
      ]);
      // Only a whole text of that form: one that merely mentions it, or does not end the bracket, is the agent's.
      expect(
        await events(
          assistant([text('The log says [API Error: 401 x]')]),
          assistant([text('[API Error: unterminated')]),
        ),
      ).toEqual([
        { type: 'agent', message: 'The log says [API Error: 401 x]' },
        { type: 'agent', message: '[API Error: unterminated' },
      ]);
      expect(await claudeEvents(assistant([text(apiError)]))).toEqual([{ type: 'agent', message: apiError }]);
    },
  );

  test(
    '4. system subtypes: retry and model_fallback warnings summarize what they have; Claude Code calls them ' +
      'unknown',
    async () => {
      const sparse = [
        system('retry', { reason: 'model_fallback' }),
        system('model_fallback', {}),
        system('continue_turn_failed'),
        system('retry'),
      ];
      expect(await events(...sparse)).toEqual([
        { type: 'warning', code: 'retry', message: 'Qwen Code retries the turn (model_fallback)' },
        { type: 'warning', code: 'model_fallback', message: 'Qwen Code falls back' },
        { type: 'warning', code: 'continue_turn_failed', message: 'Qwen Code could not continue the turn' },
        { type: 'warning', code: 'retry', message: 'Qwen Code retries the turn' },
      ]);
      expect(await claudeEvents(...sparse)).toEqual(sparse.map((raw) => ({ type: 'unknown', raw })));
    },
  );

  test('6. no rate_limit_event (unknown); control_request and control_response consumed (Claude too)', async () => {
    const rateLimit = { type: 'rate_limit_event', rate_limit_info: { status: 'allowed' }, session_id: session };
    const control = [
      { type: 'control_request', request_id: 'r', request: { subtype: 'can_use_tool' } },
      { type: 'control_response', response: { request_id: 'r' } },
    ];
    expect(await events(rateLimit, ...control)).toEqual([{ type: 'unknown', raw: rateLimit }]);
    expect(await claudeEvents(rateLimit, ...control)).toEqual([]);
  });

  test('7. stream_event is consumed, the goal_state one written without --include-partial-messages too', async () => {
    const { events: out, rules } = await run(
      jsonl(
        {
          type: 'stream_event',
          session_id: session,
          parent_tool_use_id: null,
          event: { type: 'goal_state', goal_state: { v: 2, goal: null, activity: 'idle' } },
        },
        {
          type: 'stream_event',
          session_id: session,
          parent_tool_use_id: null,
          event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        },
        assistant([text('Hello')]),
      ),
      { harness },
    );
    expect(bodies(out)).toEqual([{ type: 'agent', message: 'Hello' }]);
    expect(rules).toEqual([
      records.stream_event.rules.consumed,
      records.stream_event.rules.consumed,
      records.assistant.rules.blocks,
    ]);
  });
});
