/** cline.md's agent_event table, one test per row. */
import { describe, expect, test } from 'vitest';
import { agentEvents } from '../../../lib/harnesses/cline/correlate.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, agent, start, end, text, delta, events } from './lines.js';

describe('agent_event', () => {
  test('content_start text/reasoning: consumed while content_end restates it', async () => {
    const { events: out, rules } = await run(
      jsonl(delta('text', 'Hel'), delta('text', 'lo.'), text('text', 'Hello.')),
      {
        harness,
      },
    );
    expect(bodies(out)).toEqual([{ type: 'agent', message: 'Hello.' }]);
    expect(rules).toEqual([
      agentEvents.content_start.rules.delta,
      agentEvents.content_start.rules.delta,
      agentEvents.content_end.rules.agent,
    ]);
  });

  test(
    'content_start text/reasoning cut off by the end of input: emitted as ' + 'they stand, in the order they began',
    async () => {
      expect(await events(delta('reasoning', 'Think'), delta('reasoning', 'ing.'), delta('text', 'Partial '))).toEqual([
        { type: 'reasoning', message: 'Thinking.' },
        { type: 'agent', message: 'Partial ' },
      ]);
    },
  );

  test('pending deltas are bounded by maxSpanBytes: the rest is dropped, with a warning', async () => {
    const { events: out } = await run(jsonl(delta('text', 'abcd'), delta('text', 'efgh')), {
      harness,
      maxSpanBytes: 6,
    });
    expect(bodies(out)).toEqual([
      { type: 'agent', message: 'abcd' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text cut off by the end of input reached maxSpanBytes (6); its last 4 bytes were dropped',
      },
    ]);
  });

  test('content_start tool: recorded, no event; another contentType is unknown', async () => {
    const image = agent({ type: 'content_start', contentType: 'image' });
    const { events: out, rules } = await run(jsonl(start('call_1', 'editor', { path: 'a' }), image), { harness });
    // The call never ended: classified with success unset; without a cwd its relative path is as given.
    expect(bodies(out)).toEqual([
      { type: 'unknown', raw: image },
      { type: 'write', path: 'a' },
    ]);
    expect(rules).toEqual([agentEvents.content_start.rules.tool, agentEvents.content_start.rules.malformedStart]);
  });

  test(
    'an id announced twice while the first waits: the first is ' + 'given unresolved, the second gets the end',
    async () => {
      expect(
        await events(
          start('call_1', 'editor', { path: '/ws/a.ts', new_text: 'x' }),
          start('call_1', 'editor', { path: '/ws/b.ts', new_text: 'y' }),
          end('call_1', 'editor', { success: true }),
        ),
      ).toEqual([
        { type: 'write', path: '/ws/a.ts' },
        { type: 'write', path: '/ws/b.ts', is_success: true },
      ]);
    },
  );

  test('content_start spawn_agent: subagent_started at once; a pending one adds nothing at the end', async () => {
    expect(await events(start('call_9', 'spawn_agent', { task: 'x' }))).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_9' },
    ]);
  });

  test('content_update: consumed', async () => {
    const update = agent({ type: 'content_update', contentType: 'tool', toolName: 'run_commands', toolCallId: 'c' });
    expect(await events(update)).toEqual([]);
  });

  test('content_end text: agent exactly as sent; empty or whitespace: nothing', async () => {
    expect(await events(text('text', '  Two  lines\n'), text('text', ' \n'), text('text', ''))).toEqual([
      { type: 'agent', message: '  Two  lines\n' },
    ]);
  });

  test('content_end reasoning: reasoning on the same terms', async () => {
    expect(await events(text('reasoning', 'Why.'), text('reasoning', ''))).toEqual([
      { type: 'reasoning', message: 'Why.' },
    ]);
  });

  test('content_end tool: the tool table; a call never announced is unknown', async () => {
    const orphan = end('call_7', 'editor', { success: true });
    expect(await events(orphan)).toEqual([{ type: 'unknown', raw: orphan }]);
  });

  test('content_end media: unknown', async () => {
    const media = agent({ type: 'content_end', contentType: 'media', media: { url: 'x' } });
    expect(await events(media)).toEqual([{ type: 'unknown', raw: media }]);
  });

  test('usage: input is inputTokens less both cache classes, never below 0; cost above 0; metrics summed', async () => {
    const { events: out, metrics } = await run(
      jsonl(
        agent({
          type: 'usage',
          inputTokens: 3000,
          outputTokens: 120,
          cacheReadTokens: 1000,
          cacheWriteTokens: 500,
          cost: 0.5,
        }),
        agent({ type: 'usage', inputTokens: 10, outputTokens: 1, cacheReadTokens: 20, cost: 0 }),
      ),
      { harness },
    );
    expect(bodies(out)).toEqual([
      { type: 'usage', tokens: { input: 1500, output: 120, cache_read: 1000, cache_write: 500 }, cost: 0.5 },
      { type: 'usage', tokens: { input: 0, output: 1, cache_read: 20 } },
    ]);
    expect(metrics.tokens).toEqual({ input: 1500, output: 121, cache_read: 1020, cache_write: 500 });
    expect(metrics.cost).toBe(0.5);
  });

  test('usage with every count 0 and no cost: no event', async () => {
    const zero = agent({ type: 'usage', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cost: 0, totalCost: 0 });
    const { events: out, rules } = await run(jsonl(zero), { harness });
    expect(out).toEqual([]);
    expect(rules).toEqual([agentEvents.usage.rules.zero]);
  });

  test('notice status: consumed; recovery and stop: warnings with their reason; other: unknown', async () => {
    const other = agent({ type: 'notice', noticeType: 'banner', message: 'x' });
    expect(
      await events(
        agent({ type: 'notice', noticeType: 'status', message: 'auto-compacting', reason: 'auto_compaction' }),
        agent({ type: 'notice', noticeType: 'recovery', message: 'context window exceeded', reason: 'overflow' }),
        agent({ type: 'notice', noticeType: 'stop', message: 'Stopping.' }),
        other,
      ),
    ).toEqual([
      { type: 'warning', message: 'context window exceeded', code: 'overflow' },
      { type: 'warning', message: 'Stopping.' },
      { type: 'unknown', raw: other },
    ]);
  });

  test('error recoverable false: error with errorClass; true: warning; without a message: unknown', async () => {
    const bad = agent({ type: 'error', error: {}, recoverable: false });
    expect(
      await events(
        agent({
          type: 'error',
          error: { message: 'Too long.' },
          errorClass: 'context_window_exceeded',
          recoverable: false,
        }),
        agent({ type: 'error', error: { message: '2 tool call(s) failed' }, recoverable: true }),
        bad,
      ),
    ).toEqual([
      { type: 'error', message: 'Too long.', code: 'context_window_exceeded' },
      { type: 'warning', message: '2 tool call(s) failed' },
      { type: 'unknown', raw: bad },
    ]);
  });

  test('iteration_start, iteration_end, done: consumed', async () => {
    expect(
      await events(
        agent({ type: 'iteration_start', iteration: 1 }),
        agent({ type: 'iteration_end', iteration: 1, hadToolCalls: false, toolCallCount: 0 }),
        agent({ type: 'done', reason: 'completed', text: 'Hi.', iterations: 1 }),
      ),
    ).toEqual([]);
  });

  test('any other event.type: unknown', async () => {
    const other = agent({ type: 'checkpoint', id: 1 });
    expect(await events(other)).toEqual([{ type: 'unknown', raw: other }]);
  });
});
