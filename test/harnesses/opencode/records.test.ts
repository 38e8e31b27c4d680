/** opencode.md's raw event stream rows, one test per row. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { records } from '../../../lib/harnesses/opencode/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, sessionID, record, textRecord, stepFinish, events } from './lines.js';

describe('raw event stream', () => {
  test(
    'the session id is the first non-empty sessionID, session_id or sessionId at the top level; events before ' +
      'it carry none',
    async () => {
      const { events, metrics } = await run(
        jsonl(
          { type: 'mystery' },
          { type: 'text', sessionID: '', sessionId: 'ses_camel', part: { text: 'first' } },
          { type: 'text', session_id: 'ses_snake', part: { text: 'second' } },
          { type: 'text', part: { sessionID: 'ses_part', text: 'third' } },
        ),
        { harness },
      );
      expect(untimed(events)).toEqual([
        { type: 'unknown', raw: { type: 'mystery' } },
        { type: 'agent', session_id: 'ses_camel', message: 'first' },
        { type: 'agent', session_id: 'ses_camel', message: 'second' },
        { type: 'agent', session_id: 'ses_camel', message: 'third' },
      ]);
      expect(metrics.session_id).toBe('ses_camel');
    },
  );

  test('session_id alone, when it is the first seen, is the session', async () => {
    const { events } = await run(
      jsonl({ type: 'text', session_id: 'ses_snake', sessionId: 'ses_camel', part: { text: 'hi' } }),
      { harness },
    );
    expect(untimed(events)).toEqual([{ type: 'agent', session_id: 'ses_snake', message: 'hi' }]);
  });

  test('step_start is consumed', async () => {
    const result = await run(
      jsonl(record('step_start', { part: { id: 'prt_ss', type: 'step-start', snapshot: 'abc' } })),
      { harness },
    );
    expect(result.events).toEqual([]);
    expect(result.rules).toEqual([records.step_start.rules.consumed]);
  });

  test(
    'step_finish is one usage event per step; its tokens ' + 'and cost add into the metrics; turns count the steps',
    async () => {
      const { events, metrics } = await run(
        jsonl(
          stepFinish({ total: 1340, input: 1000, output: 40, reasoning: 10, cache: { read: 250, write: 50 } }, 0.25),
          stepFinish({ total: 130, input: 100, output: 30, reasoning: 0, cache: { read: 0, write: 0 } }, 0.5),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        {
          type: 'usage',
          tokens: { input: 1000, output: 40, reasoning: 10, cache_read: 250, cache_write: 50 },
          cost: 0.25,
        },
        { type: 'usage', tokens: { input: 100, output: 30, reasoning: 0, cache_read: 0, cache_write: 0 }, cost: 0.5 },
      ]);
      expect(metrics).toMatchObject({
        tokens: { input: 1100, output: 70, reasoning: 10, cache_read: 250, cache_write: 50 },
        cost: 0.75,
        turns: 2,
      });
    },
  );

  test(
    'step_finish: a class only when reported as a ' + 'count, total is not a class, cost only when a number',
    async () => {
      const { events, metrics } = await run(
        jsonl(stepFinish({ total: 50, input: 50, output: '7', cache: 'none' }, null), stepFinish({ output: 3 })),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'usage', tokens: { input: 50 } },
        { type: 'usage', tokens: { output: 3 }, cost: 0 },
      ]);
      expect(metrics).toMatchObject({ tokens: { input: 50, output: 3 }, cost: 0, turns: 2 });
    },
  );

  test('step_finish without a tokens object is unknown, verbatim, and still a turn', async () => {
    const bad = record('step_finish', { part: { id: 'prt_sf', type: 'step-finish', reason: 'stop', cost: 1 } });
    const { events, metrics, rules } = await run(jsonl(bad, record('step_finish')), { harness });
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: bad },
      { type: 'unknown', raw: record('step_finish') },
    ]);
    expect(rules).toEqual([records.step_finish.rules.noTokens, records.step_finish.rules.noTokens]);
    expect(metrics).toMatchObject({ tokens: {}, turns: 2 });
    expect(metrics.cost).toBeUndefined();
  });

  test(
    'reasoning is reasoning when it carries text, ' + 'consumed when empty (hidden reasoning), unknown without text',
    async () => {
      const { events, rules } = await run(
        jsonl(
          textRecord('reasoning', 'Let me think.'),
          textRecord('reasoning', ''),
          textRecord('reasoning', 42),
          record('reasoning'),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'Let me think.' },
        { type: 'unknown', raw: textRecord('reasoning', 42) },
        { type: 'unknown', raw: record('reasoning') },
      ]);
      expect(rules).toEqual([
        records.reasoning.rules.event,
        records.reasoning.rules.empty,
        records.reasoning.rules.noText,
        records.reasoning.rules.noText,
      ]);
    },
  );

  test(
    'text is an agent message when it carries text (verbatim, whitespace kept), consumed when empty; the last ' +
      'is the final output',
    async () => {
      const { events, metrics } = await run(
        jsonl(textRecord('text', 'First.'), textRecord('text', '\n\nSecond.'), textRecord('text', '')),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'First.' },
        { type: 'agent', message: '\n\nSecond.' },
      ]);
      expect(metrics.final_output).toBe('\n\nSecond.');
    },
  );

  test('error: the message from error.data.message, code from error.name; the run is in error', async () => {
    const { events, metrics } = await run(
      jsonl(
        record('error', { error: { name: 'ProviderAuthError', data: { providerID: 'lab', message: 'No API key.' } } }),
      ),
      { harness },
    );
    expect(bodies(events)).toEqual([{ type: 'error', message: 'No API key.', code: 'ProviderAuthError' }]);
    expect(metrics.is_error).toBe(true);
  });

  test(
    'error: without data.message the name is the ' + 'message; without either, a description carrying what there is',
    async () => {
      expect(
        await events(
          record('error', { error: { name: 'MessageOutputLengthError', data: {} } }),
          record('error', { error: { data: { statusCode: 500 } } }),
          record('error', { error: 'Bad Gateway' }),
          record('error'),
        ),
      ).toEqual([
        { type: 'error', message: 'MessageOutputLengthError', code: 'MessageOutputLengthError' },
        { type: 'error', message: 'OpenCode reported an error: {"data":{"statusCode":500}}' },
        { type: 'error', message: 'Bad Gateway' },
        { type: 'error', message: 'OpenCode reported an error without details' },
      ]);
    },
  );

  test(
    'any other type (e.g. the unreleased `done`), and ' + 'JSON that is not a typed object, is unknown, verbatim',
    async () => {
      const done = record('done', { reason: 'idle', rejected: [] });
      const { events, rules } = await run(jsonl(done, [1, 2], '"text"', { type: 7 }, { type: '__proto__' }), {
        harness,
      });
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: done },
        { type: 'unknown', raw: [1, 2] },
        { type: 'unknown', raw: 'text' },
        { type: 'unknown', raw: { type: 7 } },
        { type: 'unknown', raw: { type: '__proto__' } },
      ]);
      expect(rules).toEqual([
        sharedRecords['any other type'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['any other type'].rules.unknown,
      ]);
    },
  );

  test(
    'a non-JSON line (a stderr warning merged into stdout) is a warning carrying the line, and the stream goes ' + 'on',
    async () => {
      const { events } = await run(
        jsonl(
          textRecord('text', 'a'),
          '! permission requested: external_directory (/etc/*); auto-rejecting',
          textRecord('text', 'b'),
        ),
        {
          harness,
        },
      );
      expect(untimed(events)).toEqual([
        { type: 'agent', session_id: sessionID, message: 'a' },
        {
          type: 'warning',
          session_id: sessionID,
          message: '! permission requested: external_directory (/etc/*); auto-rejecting',
          code: 'not_json',
        },
        { type: 'agent', session_id: sessionID, message: 'b' },
      ]);
    },
  );
});
