/** codex.md's raw event stream rows, and its agent_message and reasoning items. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { records } from '../../../lib/harnesses/codex/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, cwd, thread, turn, started, updated, completed, command, usage, events } from './lines.js';

describe('raw event stream', () => {
  test('thread.started: its thread_id is the session id of every later event; no event of its own', async () => {
    const { events: out, metrics } = await run(
      jsonl(
        completed({ id: 'item_0', type: 'agent_message', text: 'before' }),
        thread,
        turn,
        completed({ id: 'item_1', type: 'agent_message', text: 'after' }),
      ),
      { harness },
    );
    expect(untimed(out)).toEqual([
      { type: 'agent', message: 'before' },
      { type: 'agent', message: 'after', session_id: 'thread-1' },
    ]);
    expect(metrics.session_id).toBe('thread-1');
  });

  test('thread.started without a thread_id is unknown, verbatim', async () => {
    const bad = { type: 'thread.started', thread_id: 7 };
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('turn.started: consumed; it opens a turn, so the run has not ended until the turn does', async () => {
    const done = await run(jsonl(thread, turn, usage(10, 0, 1, 0), turn), { harness });
    expect(bodies(done.events)).toEqual([
      { type: 'usage', tokens: { input: 10, cache_read: 0, cache_write: 0, output: 1, reasoning: 0 } },
    ]);
    expect(done.metrics.ended).toBe(false);
    expect(done.rules).toEqual([
      records['thread.started'].rules.session,
      records['turn.started'].rules.consumed,
      records['turn.completed'].rules.usage,
      records['turn.started'].rules.consumed,
    ]);
  });

  test('item.started and item.updated record the item; item.completed alone says how it went', async () => {
    const out = await run(
      jsonl(
        started(command('item_0', 'bash -lc make', 'in_progress', null)),
        completed(command('item_0', 'bash -lc make', 'completed', 0)),
      ),
      { harness, cwd },
    );
    expect(bodies(out.events)).toEqual([{ type: 'command', command: 'make', exit_code: 0, is_success: true }]);
    expect(out.rules).toEqual([records['item.started'].rules.recorded, records['item.completed'].rules.items]);
  });

  test('an item never completed is emitted at the end of input as its latest version, with success unset', async () => {
    const first = {
      id: 'item_0',
      type: 'file_change',
      changes: [{ path: 'a.ts', kind: 'update' }],
      status: 'in_progress',
    };
    const latest = {
      ...first,
      changes: [
        { path: 'a.ts', kind: 'update' },
        { path: 'b.ts', kind: 'add' },
      ],
    };
    expect(
      await events(
        thread,
        turn,
        started(first),
        updated(latest),
        started(command('item_1', "/bin/bash -lc 'npm test'", 'in_progress', null)),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/a.ts' },
      { type: 'write', path: '/ws/b.ts' },
      { type: 'command', command: 'npm test' },
    ]);
  });

  test('a started item whose type has no row is unknown at the end, carrying its latest line', async () => {
    const search = started({ id: 'ws_1', type: 'web_search', query: '', action: { type: 'other' } });
    expect(await events(search)).toEqual([{ type: 'unknown', raw: search }]);
  });

  test('item lines without an item id and type are unknown, verbatim', async () => {
    const noItem = { type: 'item.started' };
    const noId = updated({ type: 'agent_message', text: 'x' });
    const noType = completed({ id: 'item_0', text: 'x' });
    expect(await events(noItem, noId, noType)).toEqual([
      { type: 'unknown', raw: noItem },
      { type: 'unknown', raw: noId },
      { type: 'unknown', raw: noType },
    ]);
  });

  test(
    "turn.completed: its usage is the thread's running total, mapped onto the token classes; the first turn's " +
      'share is all of it',
    async () => {
      const { events: out, metrics } = await run(jsonl(thread, turn, usage(9000, 8200, 60, 40)), { harness });
      expect(bodies(out)).toEqual([
        { type: 'usage', tokens: { input: 800, cache_read: 8200, cache_write: 0, output: 20, reasoning: 40 } },
      ]);
      expect(metrics).toMatchObject({
        ended: true,
        is_error: false,
        turns: 1,
        tokens: { input: 800, cache_read: 8200, cache_write: 0, output: 20, reasoning: 40 },
      });
    },
  );

  test('token classes only for the fields Codex reports (0.46 sends three), clamped at 0', async () => {
    const old = await run(
      jsonl({ type: 'turn.completed', usage: { input_tokens: 6040, cached_input_tokens: 4992, output_tokens: 129 } }),
      { harness },
    );
    expect(old.metrics.tokens).toEqual({ input: 1048, cache_read: 4992, output: 129 });
    const odd = await run(
      jsonl({
        type: 'turn.completed',
        usage: { input_tokens: 5, cached_input_tokens: 9, output_tokens: 1, reasoning_output_tokens: 3 },
      }),
      { harness },
    );
    expect(odd.metrics.tokens).toEqual({ input: 0, cache_read: 9, output: 0, reasoning: 3 });
    const partial = await run(
      jsonl({
        type: 'turn.completed',
        usage: { cached_input_tokens: 4, reasoning_output_tokens: 2, output_tokens: 'many' },
      }),
      { harness },
    );
    expect(partial.metrics.tokens).toEqual({ cache_read: 4, reasoning: 2 });
  });

  test(
    'metrics: two turns whose totals grow; the metrics are the last total, not the sum; each usage event is its ' +
      "turn's share",
    async () => {
      const { events: out, metrics } = await run(
        jsonl(thread, turn, usage(1000, 200, 50, 10), turn, usage(2500, 1200, 90, 30)),
        { harness },
      );
      expect(metrics).toMatchObject({
        ended: true,
        turns: 2,
        tokens: { input: 1300, cache_read: 1200, cache_write: 0, output: 60, reasoning: 30 },
      });
      // 800 + 500 = 1300, 200 + 1000 = 1200, 40 + 20 = 60, 10 + 20 = 30: the slices add up to the total.
      expect(bodies(out)).toEqual([
        { type: 'usage', tokens: { input: 800, cache_read: 200, cache_write: 0, output: 40, reasoning: 10 } },
        { type: 'usage', tokens: { input: 500, cache_read: 1000, cache_write: 0, output: 20, reasoning: 20 } },
      ]);
    },
  );

  test(
    'a class whose running total falls (a resumed thread ' + "counts again) reports the turn's total for that class",
    async () => {
      const { events: out } = await run(
        jsonl(thread, turn, usage(5000, 4000, 90, 30), turn, usage(6000, 1000, 100, 10)),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'usage', tokens: { input: 1000, cache_read: 4000, cache_write: 0, output: 60, reasoning: 30 } },
        // input 5000 - 1000 = 4000 more; cache_read fell (1000 < 4000): 1000; output 90 - 60 = 30; reasoning fell: 10.
        { type: 'usage', tokens: { input: 4000, cache_read: 1000, cache_write: 0, output: 30, reasoning: 10 } },
      ]);
    },
  );

  test('turn.completed without usage still ends the turn, and is unknown', async () => {
    const bare = { type: 'turn.completed' };
    const { events: out, metrics } = await run(jsonl(turn, bare), { harness });
    expect(bodies(out)).toEqual([{ type: 'unknown', raw: bare }]);
    expect(metrics).toMatchObject({ ended: true, turns: 1, tokens: {} });
  });

  test('turn.failed: an error with error.message, no code; the run ended in error', async () => {
    const { events: out, metrics } = await run(
      jsonl(thread, turn, { type: 'turn.failed', error: { message: "Invalid value: 'max'." } }),
      { harness },
    );
    expect(bodies(out)).toEqual([{ type: 'error', message: "Invalid value: 'max'." }]);
    expect(metrics).toMatchObject({ ended: true, is_error: true });
    expect(metrics.turns).toBeUndefined();
  });

  test('turn.failed with a code keeps it; one without a message is unknown and still a failure', async () => {
    const noMessage = { type: 'turn.failed', error: {} };
    const { events: out, metrics } = await run(
      jsonl({ type: 'turn.failed', error: { message: 'quota', code: 'insufficient_quota' } }, noMessage),
      { harness },
    );
    expect(bodies(out)).toEqual([
      { type: 'error', message: 'quota', code: 'insufficient_quota' },
      { type: 'unknown', raw: noMessage },
    ]);
    expect(metrics).toMatchObject({ ended: true, is_error: true });
  });

  test('error: a warning with its message (Codex recovers from many); one without a message is unknown', async () => {
    const noMessage = { type: 'error' };
    expect(
      await events(
        { type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion)' },
        noMessage,
      ),
    ).toEqual([
      { type: 'warning', message: 'Reconnecting... 1/5 (stream disconnected before completion)' },
      { type: 'unknown', raw: noMessage },
    ]);
  });

  test('any other type is unknown, verbatim: item.plan.delta, request_user_input, 0.42 session.created', async () => {
    const delta = { type: 'item.plan.delta', item_id: 'item_3', delta: '1. Read' };
    const question = { type: 'request_user_input', id: 'q1', call_id: 'c1', questions: [] };
    const session = { type: 'session.created', session_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' };
    const proto = { type: '__proto__' };
    expect(await events(delta, question, session, proto)).toEqual([
      { type: 'unknown', raw: delta },
      { type: 'unknown', raw: question },
      { type: 'unknown', raw: session },
      { type: 'unknown', raw: proto },
    ]);
  });

  test('older shapes are unknown, verbatim: `{"id", "msg"}` before 0.2x, `item_type` around 0.42', async () => {
    const msg = '{"id":"0","msg":{"type":"agent_message","message":"hi"}}';
    const itemType = { type: 'item.completed', item: { id: 'itm_0', item_type: 'assistant_message', text: 'hi' } };
    const out = await run(jsonl(msg, itemType, '[1,2]', 'null'), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'unknown', raw: { id: '0', msg: { type: 'agent_message', message: 'hi' } } },
      { type: 'unknown', raw: itemType },
      { type: 'unknown', raw: [1, 2] },
      { type: 'unknown', raw: null },
    ]);
    expect(out.rules).toEqual([
      sharedRecords['not a typed object'].rules.unknown,
      records['item.completed'].rules.malformed,
      sharedRecords['not a typed object'].rules.unknown,
      sharedRecords['not a typed object'].rules.unknown,
    ]);
  });

  test('a line that is not JSON is a warning, and the stream goes on', async () => {
    expect(
      await events('Reading prompt from stdin...', completed({ id: 'item_0', type: 'agent_message', text: 'hi' })),
    ).toEqual([
      { type: 'warning', message: 'Reading prompt from stdin...', code: 'not_json' },
      { type: 'agent', message: 'hi' },
    ]);
  });
});

describe('items', () => {
  test('agent_message: agent with its text; the last one is the final output', async () => {
    const { events: out, metrics } = await run(
      jsonl(
        completed({ id: 'item_0', type: 'agent_message', text: 'one' }),
        completed({ id: 'item_1', type: 'agent_message', text: 'two' }),
      ),
      { harness },
    );
    expect(bodies(out)).toEqual([
      { type: 'agent', message: 'one' },
      { type: 'agent', message: 'two' },
    ]);
    expect(metrics.final_output).toBe('two');
  });

  test('agent_message without text is unknown', async () => {
    const bad = completed({ id: 'item_0', type: 'agent_message', text: null });
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('reasoning: reasoning when its text is not empty; empty is consumed; no text is unknown', async () => {
    const bad = completed({ id: 'item_2', type: 'reasoning' });
    expect(
      await events(
        completed({ id: 'item_0', type: 'reasoning', text: '**Planning**' }),
        completed({ id: 'item_1', type: 'reasoning', text: '' }),
        bad,
      ),
    ).toEqual([
      { type: 'reasoning', message: '**Planning**' },
      { type: 'unknown', raw: bad },
    ]);
  });
});
