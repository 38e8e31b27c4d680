/** Bounded state (docs/contract.md): open and finished tool calls, long spans, hostile amounts. */
import { describe, expect, test } from 'vitest';
import { updates } from '../../../lib/harnesses/acp/records.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, cwd, update, say } from './messages.js';

describe('bounded state', () => {
  test(
    'past maxPendingTools open records, the oldest is ' + 'emitted unfinished; a later update for it is consumed',
    async () => {
      const call = (id: string, path: string) =>
        update('tool_call', { toolCallId: id, kind: 'read', status: 'pending', rawInput: { path } });
      const out = await run(
        jsonl(
          call('a', 'a.ts'),
          call('b', 'b.ts'),
          call('c', 'c.ts'),
          update('tool_call_update', { toolCallId: 'a', status: 'failed' }),
          update('tool_call_update', { toolCallId: 'c', status: 'completed' }),
        ),
        {
          harness,
          cwd,
          maxPendingTools: 2,
        },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/c.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts' },
      ]);
      expect(out.rules[3]).toBe(updates.tool_call_update.rules.closed);
    },
  );

  test(
    'the finished ids are bounded by maxPendingTools too: past it the oldest is forgotten, and a message for it ' +
      'starts a new record',
    async () => {
      const finished = (id: string) =>
        update('tool_call', { toolCallId: id, kind: 'read', status: 'completed', rawInput: { path: `${id}.ts` } });
      const out = await run(jsonl(finished('a'), finished('b'), finished('a'), finished('c'), finished('a')), {
        harness,
        cwd,
        maxPendingTools: 2,
      });
      expect(bodies(out.events).map((event) => event.path)).toEqual(['/ws/a.ts', '/ws/b.ts', '/ws/c.ts', '/ws/a.ts']);
      expect(out.rules[2]).toBe(updates.tool_call.rules.closed);
    },
  );

  test('a span longer than maxSpanBytes is emitted in parts, with a warning', async () => {
    const { events } = await run(jsonl(say('a'.repeat(6)), say('b'.repeat(6)), say('c')), {
      harness,
      maxSpanBytes: 10,
    });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'aaaaaabbbbbb' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text reached 12 bytes (maxSpanBytes is 10); emitted in parts',
      },
      { type: 'agent', message: 'c' },
    ]);
  });

  test('hostile amounts: a cost of 1e400 or below 0 is dropped, and the metrics stay valid', async () => {
    const cost = (amount: string) =>
      '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"usage_update","used":1,' +
      `"size":2,"cost":{"amount":${amount},"currency":"USD"}}}}`;
    expect((await run([cost('0.25'), cost('1e400'), cost('-1')].join('\n') + '\n', { harness })).metrics.cost).toBe(
      0.25,
    );
  });
});
