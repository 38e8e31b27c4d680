/** acp.md's usage rows: the tokens of the session/prompt response, usage_update's cost. */
import { describe, expect, test } from 'vitest';
import { updates } from '../../../lib/harnesses/acp/records.js';
import { bodies } from '../../helpers.js';
import { answer, update, say, think, outcome, events } from './messages.js';

describe('usage', () => {
  const usageOf = async (usage: Record<string, unknown>) =>
    (await events(answer({ stopReason: 'end_turn', usage }))).map((event) => event.tokens);

  test(
    'disjoint (total = input + output + thought + ' + 'cache, not input + output: Kilo): input and output as sent',
    async () => {
      expect(
        await usageOf({
          inputTokens: 800,
          outputTokens: 18,
          totalTokens: 930,
          thoughtTokens: 12,
          cachedReadTokens: 100,
        }),
      ).toEqual([{ input: 800, output: 18, reasoning: 12, cache_read: 100 }]);
    },
  );

  test(
    'inclusive (total = input + output: Copilot, ' + 'Qwen): cache taken out of input, thought out of output',
    async () => {
      expect(
        await usageOf({
          inputTokens: 900,
          outputTokens: 30,
          totalTokens: 930,
          thoughtTokens: 12,
          cachedReadTokens: 100,
          cachedWriteTokens: 50,
        }),
      ).toEqual([{ input: 750, output: 18, reasoning: 12, cache_read: 100, cache_write: 50 }]);
      // Inconsistent counts never go below 0.
      expect(
        await usageOf({ inputTokens: 10, outputTokens: 5, totalTokens: 15, thoughtTokens: 9, cachedReadTokens: 20 }),
      ).toEqual([{ input: 0, output: 0, reasoning: 9, cache_read: 20 }]);
    },
  );

  test('reasoning and cache classes only when sent (not null); absent totalTokens is inclusive', async () => {
    expect(await usageOf({ inputTokens: 5, outputTokens: 3, thoughtTokens: null, cachedReadTokens: null })).toEqual([
      { input: 5, output: 3 },
    ]);
  });

  test("a usage whose counts are all 0 (Kilo's cancelled turn): no event, nothing in the metrics", async () => {
    const out = await outcome(
      answer({ stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } }),
    );
    expect(bodies(out.events)).toEqual([{ type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' }]);
    expect(out.metrics.tokens).toEqual({});
  });

  test('hostile counts (1e400, negative, fractional) are dropped, never summed', async () => {
    expect(await usageOf({ inputTokens: 1e400, outputTokens: -3, totalTokens: 1.5, thoughtTokens: 7 })).toEqual([
      { reasoning: 7 },
    ]);
  });

  test(
    "_meta.usage on a chunk (Qwen): the chunk's text first, then the usage event flushes the span and follows " +
      "it; the prompt response's usage then gives none",
    async () => {
      const out = await outcome(
        say('Reading.'),
        say('', {
          _meta: {
            usage: { inputTokens: 1000, outputTokens: 20, totalTokens: 1020, thoughtTokens: 8, cachedReadTokens: 0 },
            durationMs: 5,
          },
        }),
        think('More.', { _meta: { usage: { inputTokens: 100, outputTokens: 2, totalTokens: 102 } } }),
        answer({ stopReason: 'end_turn', usage: { inputTokens: 1100, outputTokens: 22, totalTokens: 1122 } }),
      );
      expect(bodies(out.events)).toEqual([
        { type: 'agent', message: 'Reading.' },
        { type: 'usage', tokens: { input: 1000, output: 12, reasoning: 8, cache_read: 0 } },
        { type: 'reasoning', message: 'More.' },
        { type: 'usage', tokens: { input: 100, output: 2 } },
      ]);
      expect(out.metrics.tokens).toEqual({ input: 1100, output: 14, reasoning: 8, cache_read: 0 });
      expect(out.rules.slice(1, 3)).toEqual([
        updates.agent_message_chunk.rules.usage,
        updates.agent_thought_chunk.rules.usage,
      ]);
    },
  );

  test("no other _meta is read: Gemini's _meta.quota, a _meta.usage without token numbers", async () => {
    expect(
      await events(
        say('a', { _meta: { usage: { inputTokens: '5', outputTokens: 1 } } }),
        answer({ stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: 900, output_tokens: 30 } } } }),
      ),
    ).toEqual([{ type: 'agent', message: 'a' }]);
  });

  test("usage_update: no event; the last cost.amount in USD is the run's cost", async () => {
    const out = await outcome(
      update('usage_update', { used: 900, size: 128000, cost: { amount: 0.5, currency: 'USD' } }),
      update('usage_update', { used: 1300, size: 128000, cost: { amount: 0.75, currency: 'USD' } }),
      update('usage_update', { used: 1400, size: 128000, cost: { amount: 9, currency: 'EUR' } }),
      update('usage_update', { used: 1500, size: 128000 }),
    );
    expect(out.events).toEqual([]);
    expect(out.metrics.cost).toBe(0.75);
  });
});
