/** gemini.md's "Run metrics", and bounded state (docs/contract.md). */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, cwd, init, say, use, ok, stats, success } from './lines.js';

describe('run metrics', () => {
  test(
    'result.stats replace the tokens: input = input, cache_read = cached, output = output_tokens, reasoning = ' +
      'total - input_tokens - output_tokens',
    async () => {
      // 9000 total - 8000 prompt - 300 output = 700 thoughts tokens; 8000 - 6000 cached = 2000 uncached.
      const { metrics, events: out } = await run(
        jsonl(init, { type: 'result', status: 'success', stats: stats(9000, 8000, 300, 6000) }),
        { harness },
      );
      expect(metrics).toMatchObject({
        tokens: { input: 2000, cache_read: 6000, output: 300, reasoning: 700 },
        duration_ms: 1200,
        tool_calls: 2,
      });
      expect(metrics.cost).toBeUndefined();
      expect(metrics.turns).toBeUndefined();
      expect(out).toEqual([]);
    },
  );

  test(
    'no reasoning class when the total has nothing ' + 'beyond input and output (or less); never a cache_write',
    async () => {
      const even = await run(jsonl({ type: 'result', status: 'success', stats: stats(120, 100, 20, 0) }), { harness });
      expect(even.metrics.tokens).toEqual({ input: 100, cache_read: 0, output: 20 });
      const short = await run(jsonl({ type: 'result', status: 'success', stats: stats(50, 100, 20, 0) }), { harness });
      expect(short.metrics.tokens).toEqual({ input: 100, cache_read: 0, output: 20 });
    },
  );

  test('each class only when its fields are present and are token counts', async () => {
    const partial = {
      type: 'result',
      status: 'success',
      stats: { total_tokens: 100, output_tokens: 5, cached: -1, input: 1e400, duration_ms: 'slow', tool_calls: 1.5 },
    };
    const { metrics } = await run(jsonl(partial), { harness });
    // No input_tokens: no reasoning either; cached and input are not counts.
    expect(metrics.tokens).toEqual({ output: 5 });
    expect(metrics.duration_ms).toBeUndefined();
    expect(metrics.tool_calls).toBeUndefined();
  });

  test("a later result replaces the earlier totals (the stats are the session's cumulative total)", async () => {
    const first = { type: 'result', status: 'success', stats: stats(120, 100, 20, 0) };
    const second = { type: 'result', status: 'error', stats: { ...stats(300, 250, 40, 50), duration_ms: 0 } };
    const { metrics } = await run(jsonl(first, second), { harness });
    expect(metrics).toMatchObject({
      tokens: { input: 200, cache_read: 50, output: 40, reasoning: 10 },
      duration_ms: 0,
      is_error: true,
    });
  });

  test('a result without stats keeps the tokens as they were', async () => {
    const { metrics } = await run(jsonl({ type: 'result', status: 'success' }), { harness });
    expect(metrics).toMatchObject({ ended: true, is_error: false, tokens: {} });
  });

  test('no usage event: Gemini reports no per-turn usage', async () => {
    const { metrics } = await run(jsonl(init, say('a'), success), { harness });
    expect(metrics.events).toEqual({ agent: 1 });
  });

  test('the final output is the last agent message', async () => {
    const { metrics } = await run(
      jsonl(say('first'), use('write_todos', 'w', { todos: [] }), ok('w'), say('last '), say('words'), success),
      { harness },
    );
    expect(metrics.final_output).toBe('last words');
  });
});

describe('state is bounded (docs/contract.md)', () => {
  test(
    'past maxPendingTools waiting calls, the oldest is ' + 'emitted unresolved, and its late result is unpaired',
    async () => {
      const late = ok('a');
      const { events: out } = await run(
        jsonl(
          use('read_file', 'a', { file_path: 'a' }),
          use('read_file', 'b', { file_path: 'b' }),
          use('read_file', 'c', { file_path: 'c' }),
          late,
          ok('c'),
        ),
        { harness, cwd, maxPendingTools: 2 },
      );
      expect(bodies(out)).toEqual([
        { type: 'read', path: '/ws/a' },
        { type: 'unknown', raw: late },
        { type: 'read', path: '/ws/c', is_success: true },
        { type: 'read', path: '/ws/b' },
      ]);
    },
  );

  test('an agent message longer than maxSpanBytes is emitted in parts, with a warning', async () => {
    const { events: out } = await run(jsonl(say('a'.repeat(6)), say('b'.repeat(6)), say('c')), {
      harness,
      maxSpanBytes: 10,
    });
    expect(bodies(out)).toEqual([
      { type: 'agent', message: 'aaaaaabbbbbb' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text reached 12 bytes (maxSpanBytes is 10); emitted in parts',
      },
      { type: 'agent', message: 'c' },
    ]);
  });
});
