/** pi.md's message table (message_end), the held error, usage and metrics. */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/pi/correlate.js';
import { bodies, jsonl, run } from '../../helpers.js';
import {
  harness,
  session,
  zero,
  end,
  said,
  failed,
  usage,
  start,
  turnEnd,
  agentEnd,
  retryStart,
  events,
} from './lines.js';

describe('messages (message_end)', () => {
  test('user: consumed (the prompt), string or blocks', async () => {
    const out = await run(
      jsonl(
        end({ role: 'user', content: 'hi', timestamp: 1 }),
        end({
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
          ],
          timestamp: 2,
        }),
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_end.rules.consumed, records.message_end.rules.consumed]);
  });

  test(
    'assistant: text blocks joined into one agent event, thinking blocks into one reasoning event, in content ' +
      'order; toolCall blocks consumed',
    async () => {
      const content = [
        { type: 'thinking', thinking: 'First ', thinkingSignature: 'reasoning_content' },
        { type: 'text', text: 'I will read ' },
        { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.ts' } },
        { type: 'thinking', thinking: 'then second.' },
        { type: 'text', text: 'a.ts.' },
      ];
      expect(await events(said(content))).toEqual([
        { type: 'reasoning', message: 'First then second.' },
        { type: 'agent', message: 'I will read a.ts.' },
      ]);
      expect(
        await events(
          said([
            { type: 'text', text: 'Answer.' },
            { type: 'thinking', thinking: 'Afterthought.' },
          ]),
        ),
      ).toEqual([
        { type: 'agent', message: 'Answer.' },
        { type: 'reasoning', message: 'Afterthought.' },
      ]);
    },
  );

  test(
    "assistant: empty thinking and redacted thinking (pi's placeholder) give no reasoning; a message of tool " +
      'calls alone gives no text',
    async () => {
      const out = await run(
        jsonl(
          said([
            { type: 'thinking', thinking: '' },
            { type: 'text', text: 'ok' },
          ]),
          said([{ type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: 'opaque', redacted: true }]),
          said([{ type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'ls' } }], {
            stopReason: 'toolUse',
          }),
        ),
        { harness },
      );
      expect(bodies(out.events)).toEqual([{ type: 'agent', message: 'ok' }]);
      // The last message has no text: no final output.
      expect(out.metrics.final_output).toBeUndefined();
    },
  );

  test('assistant: a block of another shape is unknown, carrying the block, in its place', async () => {
    const image = { type: 'image', data: 'AA==', mimeType: 'image/png' };
    const noText = { type: 'text', text: 42 };
    expect(await events(said([{ type: 'text', text: 'a' }, image, noText, 'stray']))).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'unknown', raw: image },
      { type: 'unknown', raw: noText },
      { type: 'unknown', raw: 'stray' },
    ]);
  });

  test('assistant without a content array is unknown', async () => {
    const bad = end({ role: 'assistant', content: 'hi', stopReason: 'stop' });
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('assistant: then a usage event when any token count or the cost is not zero', async () => {
    expect(
      await events(
        said([{ type: 'text', text: 'a' }], { usage: usage(100, 20, 300, 5, 0.0125) }),
        said([{ type: 'text', text: 'b' }], { usage: zero }),
        said([{ type: 'text', text: 'c' }], { usage: usage(0, 0, 0, 0, 0.5) }),
        said([{ type: 'text', text: 'd' }], { usage: usage(0, 7, 0, 0, 0) }),
      ),
    ).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'usage', tokens: { input: 100, output: 20, cache_read: 300, cache_write: 5 }, cost: 0.0125 },
      { type: 'agent', message: 'b' },
      { type: 'agent', message: 'c' },
      { type: 'usage', tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 }, cost: 0.5 },
      { type: 'agent', message: 'd' },
      // Cost 0 is omitted.
      { type: 'usage', tokens: { input: 0, output: 7, cache_read: 0, cache_write: 0 } },
    ]);
  });

  test(
    'assistant: when stopReason is error or aborted, an error with errorMessage (else "Request <stopReason>"), ' +
      'after the text and usage',
    async () => {
      expect(
        await events(
          said([{ type: 'text', text: 'Partial' }], {
            usage: usage(10, 2, 0, 0, 0),
            stopReason: 'aborted',
            errorMessage: 'Request was aborted',
          }),
          failed(undefined, 'aborted'),
          failed(undefined, 'error'),
          said([{ type: 'text', text: 'cut' }], { stopReason: 'length' }),
        ),
      ).toEqual([
        { type: 'agent', message: 'Partial' },
        { type: 'usage', tokens: { input: 10, output: 2, cache_read: 0, cache_write: 0 } },
        { type: 'error', message: 'Request was aborted' },
        { type: 'error', message: 'Request aborted' },
        { type: 'error', message: 'Request error' },
        { type: 'agent', message: 'cut' },
      ]);
    },
  );

  test('toolResult: consumed (tool_execution_end carries the same result)', async () => {
    const out = await run(
      jsonl(
        end({
          role: 'toolResult',
          toolCallId: 'call_1',
          toolName: 'read',
          content: [{ type: 'text', text: 'x' }],
          isError: false,
          timestamp: 1,
        }),
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_end.rules.consumed]);
  });

  test('compactionSummary and branchSummary: consumed', async () => {
    const out = await run(
      jsonl(
        end({ role: 'compactionSummary', summary: 's', tokensBefore: 9000, timestamp: 1 }),
        end({ role: 'branchSummary', summary: 's', fromId: 'e1', timestamp: 2 }),
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_end.rules.consumed, records.message_end.rules.consumed]);
  });

  test('custom, bashExecution and any other role: unknown, carrying the record', async () => {
    const custom = end({ role: 'custom', customType: 'note', content: 'x', display: true, timestamp: 1 });
    const bash = end({
      role: 'bashExecution',
      command: 'ls',
      output: 'a',
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 2,
    });
    const other = end({ role: 'system', content: 'x' });
    const out = await run(jsonl(custom, bash, other), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'unknown', raw: custom },
      { type: 'unknown', raw: bash },
      { type: 'unknown', raw: other },
    ]);
    expect(out.rules).toEqual([
      records.message_end.rules.other,
      records.message_end.rules.other,
      records.message_end.rules.other,
    ]);
  });
});

describe('held error', () => {
  test(
    'held past turn_end and agent_end; the next other ' + "record makes it an error, before that record's own events",
    async () => {
      expect(
        await events(
          failed('401 Unauthorized'),
          turnEnd,
          agentEnd,
          { type: 'agent_start' },
          said([{ type: 'text', text: 'next prompt' }]),
        ),
      ).toEqual([
        { type: 'error', message: '401 Unauthorized' },
        { type: 'agent', message: 'next prompt' },
      ]);
    },
  );

  test(
    'a second assistant error releases the first as ' + 'an error; the second is the one a retry downgrades',
    async () => {
      expect(await events(failed('first'), failed('second'), turnEnd, agentEnd, retryStart(1, 'second'))).toEqual([
        { type: 'error', message: 'first' },
        { type: 'warning', message: 'second', code: 'auto_retry' },
      ]);
    },
  );

  test('at the end of input the held error is an error, after calls still waiting', async () => {
    expect(
      await events(session, start('call_1', 'read', { path: 'a.ts' }), failed('socket hang up'), turnEnd, agentEnd),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts' },
      { type: 'error', message: 'socket hang up' },
    ]);
  });

  test('a line that is not JSON is not a record: the error stays held (pi may still retry)', async () => {
    expect(await events(failed('503'), turnEnd, agentEnd, 'not json', retryStart(1, '503'))).toEqual([
      { type: 'warning', message: 'not json', code: 'not_json' },
      { type: 'warning', message: '503', code: 'auto_retry' },
    ]);
  });
});

describe('usage and metrics', () => {
  test("per-call deltas: each a usage event, their sums the metrics' tokens and cost", async () => {
    const { events: out, metrics } = await run(
      jsonl(
        said([{ type: 'text', text: 'one' }], { usage: usage(1000, 50, 0, 0, 0.25) }),
        said([{ type: 'text', text: 'two' }], { usage: usage(200, 30, 1000, 10, 0.5) }),
      ),
      { harness },
    );
    expect(bodies(out).filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', tokens: { input: 1000, output: 50, cache_read: 0, cache_write: 0 }, cost: 0.25 },
      { type: 'usage', tokens: { input: 200, output: 30, cache_read: 1000, cache_write: 10 }, cost: 0.5 },
    ]);
    expect(metrics).toMatchObject({
      tokens: { input: 1200, output: 80, cache_read: 1000, cache_write: 10 },
      cost: 0.75,
    });
  });

  test(
    'a class is present only when its field is; counts that are not safe integers and costs that are not finite ' +
      'are dropped',
    async () => {
      const odd = { input: 5, output: -1, cacheRead: 1e400, cost: { total: 1e400 } };
      const { events: out, metrics } = await run(
        jsonl(said([], { usage: odd }), said([], { usage: { cost: 'free' } }), said([], { usage: 'lots' })),
        { harness },
      );
      expect(bodies(out)).toEqual([{ type: 'usage', tokens: { input: 5 } }]);
      expect(metrics.tokens).toEqual({ input: 5 });
      expect(metrics.cost).toBeUndefined();
    },
  );

  test(
    'the final output is the text of the last assistant message; the run ended in error when its stopReason is ' +
      'error or aborted',
    async () => {
      const ok = await run(
        jsonl(said([{ type: 'text', text: 'one' }]), failed('boom'), said([{ type: 'text', text: 'two' }])),
        { harness },
      );
      expect(ok.metrics).toMatchObject({ final_output: 'two', is_error: false });
      const bad = await run(
        jsonl(said([{ type: 'text', text: 'one' }]), said([{ type: 'text', text: 'half' }], { stopReason: 'aborted' })),
        { harness },
      );
      expect(bad.metrics).toMatchObject({ final_output: 'half', is_error: true });
      const error = await run(jsonl(said([{ type: 'text', text: 'one' }]), failed('boom')), { harness });
      expect(error.metrics.is_error).toBe(true);
      expect(error.metrics.final_output).toBeUndefined();
    },
  );
});
