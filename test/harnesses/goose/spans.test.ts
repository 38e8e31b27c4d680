/**
 * Text and thinking spans (goose.md "Raw event stream"): fragments of one kind and message id
 * join into one pending span, a restatement replaces it, anything else flushes it.
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { assistant, complete, goose, request, response, result, text, thinking, user } from './wire.js';

describe('span accumulation', () => {
  test('deltas are appended', async () => {
    const { events } = await goose(
      assistant('msg_1', text('The tests ')),
      assistant('msg_1', text('pass')),
      assistant('msg_1', text('.')),
      complete(),
    );
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'The tests pass.' }]);
  });

  test('a cumulative restatement replaces the pending text', async () => {
    const { events } = await goose(
      assistant('msg_1', text('The')),
      assistant('msg_1', text('The tests')),
      assistant('msg_1', text('The tests pass.')),
      complete(),
    );
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'The tests pass.' }]);
  });

  test(
    'the restated thinking in front of a tool request ' + 'replaces the streamed deltas (OpenAI-compatible reasoning)',
    async () => {
      const { events } = await goose(
        assistant('chatcmpl-1', thinking('Read ')),
        assistant('chatcmpl-1', thinking('the file.')),
        assistant('chatcmpl-1', thinking('Read the file.'), request('call_1', 'read', { path: 'a.txt' })),
        user('msg_u1', response('call_1', result('a'))),
      );
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'Read the file.' },
        { type: 'read', path: '/ws/a.txt', is_success: true },
      ]);
    },
  );

  test(
    'the whole reasoning restated in front of the tool requests, after text deltas flushed it, is not reported ' +
      'twice',
    async () => {
      const { events } = await goose(
        assistant('chatcmpl-1', thinking('Read ')),
        assistant('chatcmpl-1', thinking('the file.')),
        assistant('chatcmpl-1', text('Reading it now.')),
        assistant('chatcmpl-1', thinking('Read the file.'), request('call_1', 'read', { path: 'a.txt' })),
        user('msg_u1', response('call_1', result('a'))),
        assistant('chatcmpl-2', thinking('Read the file.')),
      );
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'Read the file.' },
        { type: 'agent', message: 'Reading it now.' },
        { type: 'read', path: '/ws/a.txt', is_success: true },
        // Another response that happens to think the same thing is reported.
        { type: 'reasoning', message: 'Read the file.' },
      ]);
    },
  );

  test('null ids are an id like any other: consecutive null-id fragments of one kind join', async () => {
    const { events } = await goose(
      assistant(null, text('Hel')),
      assistant(null, text('lo.')),
      assistant('msg_1', text('Other id.')),
      assistant(null, thinking('Null ')),
      assistant(null, thinking('thinking.')),
    );
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Hello.' },
      { type: 'agent', message: 'Other id.' },
      { type: 'reasoning', message: 'Null thinking.' },
    ]);
  });

  test('another message id flushes the span', async () => {
    const { events } = await goose(assistant('msg_1', text('First.')), assistant('msg_2', text('Second.')));
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'First.' },
      { type: 'agent', message: 'Second.' },
    ]);
  });

  test('a kind change inside one record: thinking then text in one content array', async () => {
    const { events } = await goose(
      assistant('chatcmpl-1', thinking('Short answer.'), text('Yes.')),
      assistant('chatcmpl-1', text(' It works.')),
    );
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'Short answer.' },
      { type: 'agent', message: 'Yes. It works.' },
    ]);
  });

  test("a message's reasoning comes out just ahead of its agent message", async () => {
    const { events } = await goose(
      assistant('msg_1', thinking('The user wants ')),
      assistant('msg_1', thinking('a summary.')),
      assistant('msg_1', text('Here is ')),
      assistant('msg_1', text('the summary.')),
      complete(),
    );
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'The user wants a summary.' },
      { type: 'agent', message: 'Here is the summary.' },
    ]);
  });

  test('a tool request and a tool response each flush the span', async () => {
    const { events } = await goose(
      assistant('msg_1', text('Reading.')),
      assistant('msg_1', request('call_1', 'read', { path: 'a.txt' })),
      assistant('msg_1', text('Still msg_1, ')),
      user('msg_u1', response('call_1', result('a'))),
      assistant('msg_1', text('after the response.')),
    );
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Reading.' },
      { type: 'agent', message: 'Still msg_1, ' },
      { type: 'read', path: '/ws/a.txt', is_success: true },
      { type: 'agent', message: 'after the response.' },
    ]);
  });

  test('flushed on complete: text after it is a new span', async () => {
    const { events } = await goose(assistant('msg_1', text('Before.')), complete(), assistant('msg_1', text('After.')));
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Before.' },
      { type: 'agent', message: 'After.' },
    ]);
  });

  test('flushed at the end of input without complete', async () => {
    const { events, metrics } = await goose(
      assistant('msg_1', thinking('Thinking.')),
      assistant('msg_1', text('Cut ')),
      assistant('msg_1', text('short')),
    );
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'Thinking.' },
      { type: 'agent', message: 'Cut short' },
    ]);
    expect(metrics.ended).toBe(false);
  });

  test('a line that is not JSON flushes the span first, so events keep input order', async () => {
    const { events } = await goose(
      assistant('msg_1', text('Hel')),
      'starting session | provider: openai model: gpt-4o',
      assistant('msg_1', text('lo.')),
    );
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Hel' },
      { type: 'warning', message: 'starting session | provider: openai model: gpt-4o', code: 'not_json' },
      { type: 'agent', message: 'lo.' },
    ]);
  });

  test('empty fragments add nothing and split nothing', async () => {
    const { events } = await goose(
      assistant('msg_1', text('')),
      assistant('msg_1', text('One ')),
      assistant('msg_1', thinking(''), text('')),
      assistant('msg_1', text('span.')),
      assistant('msg_2', thinking('', 'EqQBCkgIARAB')),
    );
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'One span.' }]);
  });
});

test(
  'bounded: a span past maxSpanBytes is emitted as it ' + 'stands, with a warning, and accumulation starts again',
  async () => {
    const records = [
      assistant('msg_1', text('a'.repeat(6))),
      assistant('msg_1', text('b'.repeat(6))),
      assistant('msg_1', text('c')),
      complete(),
    ];
    const { events } = await run(jsonl(...records), { harness: 'goose', cwd: '/ws', maxSpanBytes: 10 });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'aaaaaabbbbbb' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text reached 12 bytes (maxSpanBytes is 10); emitted in parts',
      },
      { type: 'agent', message: 'c' },
    ]);
  },
);
