/**
 * goose.md's "Raw event stream" and "Normalized mapping" tables, one test per row (the tool requests:
 * tool-requests.test.ts), on streams written inline in Goose's wire shapes (docs/harnesses/goose.md "Raw event
 * stream"; see wire.ts).
 */
import { describe, expect, test } from 'vitest';
import { bodies, untimed } from '../../helpers.js';
import { assistant, complete, goose, request, response, result, text, thinking, user, logNote } from './wire.js';
import { records } from '../../../lib/harnesses/goose/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const progressNote = {
  type: 'notification',
  extension_id: 'call_1',
  progress: { progress: 1, total: null, message: null },
};

describe('goose.md "Raw event stream"', () => {
  test('message: content blocks are processed in order', async () => {
    const { events, rules } = await goose(
      assistant(
        'msg_1',
        thinking('Read it first.'),
        text('Reading a.txt.'),
        request('call_1', 'read', { path: 'a.txt' }),
      ),
      user('msg_u1', response('call_1', result('hello'))),
      complete(),
    );
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'Read it first.' },
      { type: 'agent', message: 'Reading a.txt.' },
      { type: 'read', path: '/ws/a.txt', is_success: true },
    ]);
    expect(rules).toEqual([
      records.message.rules.assistant,
      records.message.rules.user,
      records.complete.rules.consumed,
    ]);
  });

  test('notification: unknown, verbatim (log and progress forms), ending the pending span', async () => {
    const { events, rules } = await goose(
      assistant('msg_1', text('Hel')),
      logNote,
      assistant('msg_1', text('lo')),
      progressNote,
    );
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Hel' },
      { type: 'unknown', raw: logNote },
      { type: 'agent', message: 'lo' },
      { type: 'unknown', raw: progressNote },
    ]);
    expect(rules).toEqual([
      records.message.rules.assistant,
      records.notification.rules.unknown,
      records.message.rules.assistant,
      records.notification.rules.unknown,
    ]);
  });

  test("error: an error event with the record's message; the run is marked in error", async () => {
    const { events, rules, metrics } = await goose({ type: 'error', error: 'boom' }, complete());
    expect(bodies(events)).toEqual([{ type: 'error', message: 'boom' }]);
    expect(rules).toEqual([records.error.rules.error, records.complete.rules.consumed]);
    expect(metrics.is_error).toBe(true);
  });

  test('complete: usage into the metrics, pending text flushed, the run ended; no event of its own', async () => {
    const { events, rules, metrics } = await goose(assistant('msg_1', text('Done.')), {
      type: 'complete',
      total_tokens: 5120,
      input_tokens: 4800,
      output_tokens: 320,
    });
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'Done.' }]);
    expect(rules).toEqual([records.message.rules.assistant, records.complete.rules.consumed]);
    expect(metrics).toMatchObject({ ended: true, tokens: { input: 4800, output: 320 }, total_tokens: 5120 });
    expect(metrics.is_error).toBeUndefined();
  });
});

describe('goose.md "Normalized mapping"', () => {
  test('assistant text block: agent, accumulated across same-id fragments, then flushed', async () => {
    const { events } = await goose(
      assistant('msg_1', text('Hel')),
      assistant('msg_1', text('lo, ')),
      assistant('msg_1', text('world.')),
    );
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'Hello, world.' }]);
  });

  test('assistant thinking block (and the legacy reasoning block): reasoning, accumulated, then flushed', async () => {
    const { events } = await goose(
      assistant('msg_1', thinking('Look at ')),
      assistant('msg_1', thinking('the file ')),
      assistant('msg_1', { type: 'reasoning', text: 'first.' }),
    );
    expect(bodies(events)).toEqual([{ type: 'reasoning', message: 'Look at the file first.' }]);
  });

  test('user text and redactedThinking: consumed, and they do not split a span', async () => {
    const { events, rules } = await goose(
      user('msg_u1', text('Fix the greeting.')),
      assistant('msg_1', thinking('Plan ')),
      assistant('msg_1', { type: 'redactedThinking', data: 'EqQBCkgIARABGAIiQL' }),
      assistant('msg_1', thinking('ahead.')),
      user('msg_u2', { type: 'redactedThinking', data: 'x' }),
    );
    expect(bodies(events)).toEqual([{ type: 'reasoning', message: 'Plan ahead.' }]);
    expect(rules).toEqual([
      records.message.rules.user,
      records.message.rules.assistant,
      records.message.rules.assistant,
      records.message.rules.assistant,
      records.message.rules.user,
    ]);
  });

  describe('unrecognized record / block type: unknown', () => {
    test('record types: model_change and anything else, and lines that are not typed objects', async () => {
      const modelChange = { type: 'model_change', model: 'gpt-4o', mode: 'lead' };
      const { events, rules } = await goose(
        modelChange,
        { type: '__proto__' },
        { type: 'constructor' },
        [1, 2],
        JSON.stringify('text'),
        { kind: 'message' },
      );
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: modelChange },
        { type: 'unknown', raw: { type: '__proto__' } },
        { type: 'unknown', raw: { type: 'constructor' } },
        { type: 'unknown', raw: [1, 2] },
        { type: 'unknown', raw: 'text' },
        { type: 'unknown', raw: { kind: 'message' } },
      ]);
      expect(rules).toEqual([
        sharedRecords['any other type'].rules.unknown,
        sharedRecords['any other type'].rules.unknown,
        sharedRecords['any other type'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
      ]);
    });

    test('block types the mapping does not name: unknown carrying the block, ending the pending span', async () => {
      const blocks = [
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'systemNotification', notificationType: 'inlineMessage', msg: 'Compaction complete' },
        {
          type: 'actionRequired',
          data: {
            actionType: 'toolConfirmation',
            id: 'call_1',
            toolName: 'shell',
            arguments: { command: 'rm x' },
            prompt: null,
          },
        },
        {
          type: 'frontendToolRequest',
          id: 'call_2',
          toolCall: { status: 'success', value: { name: 'click', arguments: {} } },
        },
        {
          type: 'toolConfirmationRequest',
          id: 'call_3',
          toolName: 'shell',
          arguments: { command: 'rm y' },
          prompt: null,
        },
        { type: 'conversationCompacted' },
        { type: 'constructor' },
        { text: 'no type' },
        'a string',
      ];
      const { events } = await goose(assistant('msg_1', text('Before.'), ...blocks, text('After.')));
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Before.' },
        ...blocks.map((raw) => ({ type: 'unknown', raw })),
        { type: 'agent', message: 'After.' },
      ]);
    });

    test(
      'a user thinking block, and text or thinking ' + 'whose field is not a string: unknown carrying the block',
      async () => {
        const userThinking = thinking('hmm');
        const badText = { type: 'text', text: 42 };
        const badThinking = { type: 'thinking', signature: 'sig' };
        const { events } = await goose(user('msg_u1', userThinking), assistant('msg_1', badText, badThinking));
        expect(bodies(events)).toEqual([
          { type: 'unknown', raw: userThinking },
          { type: 'unknown', raw: badText },
          { type: 'unknown', raw: badThinking },
        ]);
      },
    );

    test(
      'a message whose role is neither user nor assistant, or whose content is not an array: unknown carrying ' +
        'the record',
      async () => {
        const system = {
          type: 'message',
          message: { id: 'x', role: 'system', created: 0, content: [text('hi')], metadata: {} },
        };
        const noContent = {
          type: 'message',
          message: { id: 'y', role: 'assistant', created: 0, content: 'hi', metadata: {} },
        };
        const noMessage = { type: 'message' };
        const { events, rules } = await goose(system, noContent, noMessage);
        expect(bodies(events)).toEqual([
          { type: 'unknown', raw: system },
          { type: 'unknown', raw: noContent },
          { type: 'unknown', raw: noMessage },
        ]);
        expect(rules).toEqual(Array(3).fill(records.message.rules.other));
      },
    );
  });

  test('Goose reports no session id: no event carries one', async () => {
    const { events, metrics } = await goose(
      { ...assistant('msg_1', text('Hi')), session_id: 'abc' },
      { type: 'complete', total_tokens: 1, session_id: 'abc' },
    );
    expect(untimed(events)).toEqual([{ type: 'agent', message: 'Hi' }]);
    expect(metrics.session_id).toBeUndefined();
  });
});
