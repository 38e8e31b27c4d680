/**
 * One test per row of codex.md's tables, on authored lines in Codex's real shapes
 * (docs/harnesses/codex.md), for the rows no real capture covers and to pin each rule alone.
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { records } from '../../../lib/harnesses/codex/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const harness = 'codex';
const cwd = '/ws';
const thread = { type: 'thread.started', thread_id: 'thread-1' };
const turn = { type: 'turn.started' };

function started(item: Record<string, unknown>) {
  return { type: 'item.started', item };
}
function updated(item: Record<string, unknown>) {
  return { type: 'item.updated', item };
}
function completed(item: Record<string, unknown>) {
  return { type: 'item.completed', item };
}
/** A command_execution item as 0.169 prints it. */
function command(id: string, commandLine: string, status: string, exit_code: number | null, aggregated_output = '') {
  return { id, type: 'command_execution', command: commandLine, aggregated_output, exit_code, status };
}
function usage(
  input_tokens: number,
  cached_input_tokens: number,
  output_tokens: number,
  reasoning_output_tokens: number,
) {
  return {
    type: 'turn.completed',
    usage: { input_tokens, cached_input_tokens, cache_write_input_tokens: 0, output_tokens, reasoning_output_tokens },
  };
}

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness, cwd })).events);
}

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

  test("command_execution: Codex's shell wrapper is removed, whatever its quoting and shell", async () => {
    expect(
      await events(
        completed(command('item_0', "/bin/bash -lc 'npm test -- --watch=false'", 'completed', 0)),
        completed(command('item_1', 'bash -lc make', 'completed', 0)),
        completed(command('item_2', 'zsh -lc make', 'completed', 0)),
        completed(command('item_3', `/bin/bash -lc "echo 'a b' | tr a b"`, 'completed', 0)),
        completed(command('item_4', 'sh -c true', 'completed', 0)),
      ),
    ).toEqual([
      { type: 'command', command: 'npm test -- --watch=false', exit_code: 0, is_success: true },
      { type: 'command', command: 'make', exit_code: 0, is_success: true },
      { type: 'command', command: 'make', exit_code: 0, is_success: true },
      { type: 'command', command: "echo 'a b' | tr a b", exit_code: 0, is_success: true },
      { type: 'command', command: 'true', exit_code: 0, is_success: true },
    ]);
  });

  test(
    'command_execution: not exactly a wrapper with one ' + "of Codex's shell names, the command stays as written",
    async () => {
      expect(
        await events(
          completed(command('item_0', "/tmp/bash -lc 'make'", 'completed', 0)),
          completed(command('item_1', "bash -l -c 'make'", 'completed', 0)),
          completed(command('item_2', 'make all', 'completed', 0)),
        ),
      ).toEqual([
        { type: 'command', command: "/tmp/bash -lc 'make'", exit_code: 0, is_success: true },
        { type: 'command', command: "bash -l -c 'make'", exit_code: 0, is_success: true },
        { type: 'command', command: 'make all', exit_code: 0, is_success: true },
      ]);
    },
  );

  test(
    'command_execution success: completed with exit 0 true; failed, declined or a non-zero exit false; ' +
      'otherwise unset',
    async () => {
      expect(
        await events(
          completed(command('item_0', 'bash -lc make', 'completed', 0)),
          completed(command('item_1', 'bash -lc make', 'failed', 2)),
          completed(command('item_2', 'bash -lc make', 'completed', 3)),
          completed(command('item_3', 'bash -lc make', 'declined', null)),
          completed(command('item_4', 'bash -lc make', 'failed', null)),
          // No exit code to show for a completed command, or no final status: the outcome is not known.
          completed(command('item_5', 'bash -lc make', 'completed', null)),
          completed(command('item_6', 'bash -lc make', 'in_progress', null)),
          // Not an integer: not an exit code.
          completed(command('item_7', 'bash -lc make', 'completed', 0.5)),
        ),
      ).toEqual([
        { type: 'command', command: 'make', exit_code: 0, is_success: true },
        { type: 'command', command: 'make', exit_code: 2, is_success: false },
        { type: 'command', command: 'make', exit_code: 3, is_success: false },
        { type: 'command', command: 'make', is_success: false },
        { type: 'command', command: 'make', is_success: false },
        { type: 'command', command: 'make' },
        { type: 'command', command: 'make' },
        { type: 'command', command: 'make' },
      ]);
    },
  );

  test(
    'command_execution: a file operation is reclassified (paths against the cwd), keeping its success and no ' +
      'exit code',
    async () => {
      expect(
        await events(
          completed(command('item_0', "/bin/bash -lc 'cd src && cat a.ts'", 'completed', 0)),
          completed(command('item_1', `/bin/bash -lc "sed -n '5,9p' notes.txt"`, 'completed', 0)),
          completed(command('item_2', "/bin/bash -lc 'rg -n greet src'", 'failed', 2)),
          // Declined: never ran, still the read the agent attempted.
          completed(command('item_3', "/bin/bash -lc 'cat .env'", 'declined', null)),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/src/a.ts', is_success: true },
        { type: 'read', path: '/ws/notes.txt', start_line: 5, end_line: 9, is_success: true },
        { type: 'search', query: 'greet', path: '/ws/src', is_success: false },
        { type: 'read', path: '/ws/.env', is_success: false },
      ]);
    },
  );

  test(
    'command_execution: a search that exited 1 completed without a match (docs/contract.md); exit 2, a pipe into ' +
      'head, or a read stays failed',
    async () => {
      expect(
        await events(
          completed(command('item_0', "/bin/bash -lc 'rg -n zzz src'", 'failed', 1)),
          completed(command('item_1', "/bin/bash -lc 'ack zzz'", 'failed', 1)),
          completed(command('item_2', "/bin/bash -lc 'rg -n zzz nowhere'", 'failed', 2)),
          completed(command('item_3', "/bin/bash -lc 'rg -n zzz src | head -n 3'", 'failed', 1)),
          completed(command('item_4', "/bin/bash -lc 'cat missing.txt'", 'failed', 1)),
          completed(command('item_5', "/bin/bash -lc 'sed -n 1,3p a.ts; grep -n zzz a.ts'", 'failed', 1)),
        ),
      ).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'search', query: 'zzz', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws/nowhere', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'read', path: '/ws/missing.txt', is_success: false },
        { type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 3, is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/a.ts', is_success: true },
      ]);
    },
  );

  test('command_execution without a command string is unknown', async () => {
    const bad = completed({
      id: 'item_0',
      type: 'command_execution',
      command: ['bash', '-lc', 'ls'],
      status: 'completed',
      exit_code: 0,
    });
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('file_change: one write per change, add, update and delete alike, relative paths against the cwd', async () => {
    const changes = [
      { path: '/ws/src/new.ts', kind: 'add' },
      { path: 'src/a.ts', kind: 'update' },
      { path: './old/../gone.txt', kind: 'delete' },
    ];
    expect(await events(completed({ id: 'item_0', type: 'file_change', changes, status: 'completed' }))).toEqual([
      { type: 'write', path: '/ws/src/new.ts', is_success: true },
      { type: 'write', path: '/ws/src/a.ts', is_success: true },
      { type: 'write', path: '/ws/gone.txt', is_success: true },
    ]);
  });

  test('file_change success from its status: failed and declined are false', async () => {
    const change = [{ path: 'a.ts', kind: 'update' }];
    expect(
      await events(
        completed({ id: 'item_0', type: 'file_change', changes: change, status: 'failed' }),
        completed({ id: 'item_1', type: 'file_change', changes: change, status: 'declined' }),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/a.ts', is_success: false },
      { type: 'write', path: '/ws/a.ts', is_success: false },
    ]);
  });

  test('file_change without changes, with none, or with a change without a path is unknown', async () => {
    const none = completed({ id: 'item_0', type: 'file_change', status: 'completed' });
    const empty = completed({ id: 'item_1', type: 'file_change', changes: [], status: 'completed' });
    const noPath = completed({
      id: 'item_2',
      type: 'file_change',
      changes: [{ path: 'a.ts', kind: 'add' }, { kind: 'add' }],
      status: 'completed',
    });
    expect(await events(none, empty, noPath)).toEqual([
      { type: 'unknown', raw: none },
      { type: 'unknown', raw: empty },
      { type: 'unknown', raw: noPath },
    ]);
  });

  const sender = 'thread-main';
  function collab(
    id: string,
    tool: string,
    receivers: string[],
    states: Record<string, unknown>,
    status = 'completed',
  ) {
    return {
      id,
      type: 'collab_tool_call',
      tool,
      sender_thread_id: sender,
      receiver_thread_ids: receivers,
      prompt: null,
      agents_states: states,
      status,
    };
  }

  test('collab_tool_call spawn_agent: subagent_started for each receiver thread id', async () => {
    expect(
      await events(
        started(collab('item_0', 'spawn_agent', [], {}, 'in_progress')),
        completed(
          collab('item_0', 'spawn_agent', ['sub-a', 'sub-b'], {
            'sub-a': { status: 'pending_init', message: null },
            'sub-b': { status: 'running', message: null },
          }),
        ),
      ),
    ).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'sub-a', is_success: true },
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'sub-b', is_success: true },
    ]);
  });

  test(
    'collab_tool_call: each terminal state is reported ' + 'once per subagent, by whichever call carries it first',
    async () => {
      const done = { status: 'completed', message: 'found it' };
      const errored = { status: 'errored', message: 'model refused' };
      expect(
        await events(
          completed(collab('item_0', 'send_input', ['sub-a'], { 'sub-a': done })),
          completed(
            collab('item_1', 'wait', ['sub-a', 'sub-b', 'sub-c', 'sub-d'], {
              'sub-a': done,
              'sub-b': errored,
              'sub-c': { status: 'failed', message: null },
              'sub-d': { status: 'shutdown', message: 'killed: out of memory' },
            }),
          ),
          completed(
            collab('item_2', 'close_agent', ['sub-a', 'sub-b'], {
              'sub-a': { status: 'shutdown', message: null },
              'sub-b': errored,
            }),
          ),
        ),
      ).toEqual([
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'sub-a', is_success: true },
        { type: 'orchestration', action: 'subagent_failed', subagent_id: 'sub-b', is_success: false },
        { type: 'orchestration', action: 'subagent_failed', subagent_id: 'sub-c', is_success: false },
        { type: 'orchestration', action: 'subagent_failed', subagent_id: 'sub-d', is_success: false },
      ]);
    },
  );

  test(
    'collab_tool_call: other calls and states are ' + 'consumed (a plain shutdown, pending, running, not found)',
    async () => {
      const out = await run(
        jsonl(
          completed(collab('item_0', 'send_input', ['sub-a'], { 'sub-a': { status: 'running', message: null } })),
          completed(
            collab('item_1', 'close_agent', ['sub-a', 'sub-b'], {
              'sub-a': { status: 'shutdown', message: null },
              'sub-b': { status: 'not_found', message: null },
            }),
          ),
          completed(
            collab('item_2', 'resume_agent', ['sub-c'], { 'sub-c': { status: 'pending_init', message: null } }),
          ),
        ),
        { harness },
      );
      expect(out.events).toEqual([]);
      expect(out.rules).toEqual([
        records['item.completed'].rules.items,
        records['item.completed'].rules.items,
        records['item.completed'].rules.items,
      ]);
    },
  );

  test('collab_tool_call without a tool, or a spawn without receiver ids, is unknown', async () => {
    const noTool = completed({ id: 'item_0', type: 'collab_tool_call', status: 'completed' });
    const noIds = completed({
      id: 'item_1',
      type: 'collab_tool_call',
      tool: 'spawn_agent',
      receiver_thread_ids: 'sub-a',
      status: 'completed',
    });
    expect(await events(noTool, noIds)).toEqual([
      { type: 'unknown', raw: noTool },
      { type: 'unknown', raw: noIds },
    ]);
  });

  test('todo_list and plan are consumed, through every line of their lifecycle', async () => {
    const todo = { id: 'item_0', type: 'todo_list', items: [{ text: 'Read', completed: false }] };
    const out = await run(
      jsonl(
        started(todo),
        updated({ ...todo, items: [{ text: 'Read', completed: true }] }),
        completed(todo),
        completed({ id: 'item_1', type: 'plan', text: '1. Read\n2. Write' }),
      ),
      {
        harness,
      },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([
      records['item.started'].rules.recorded,
      records['item.updated'].rules.recorded,
      records['item.completed'].rules.items,
      records['item.completed'].rules.items,
    ]);
  });

  test('an error item is a warning with its message; without one it is unknown', async () => {
    const bad = completed({ id: 'item_1', type: 'error' });
    expect(
      await events(
        completed({ id: 'item_0', type: 'error', message: 'model rerouted: gpt-5.5 -> gpt-5.4 (capacity)' }),
        bad,
      ),
    ).toEqual([
      { type: 'warning', message: 'model rerouted: gpt-5.5 -> gpt-5.4 (capacity)' },
      { type: 'unknown', raw: bad },
    ]);
  });

  test('mcp_tool_call, web_search and any other item type are unknown, carrying the item.completed line', async () => {
    const mcp = completed({
      id: 'item_0',
      type: 'mcp_tool_call',
      server: 'docs',
      tool: 'lookup',
      arguments: { q: 'x' },
      result: { content: [{ type: 'text', text: 'y' }], structured_content: null },
      error: null,
      status: 'completed',
    });
    const web = completed({
      id: 'ws_1',
      type: 'web_search',
      query: 'latest TypeScript',
      action: { type: 'search', query: 'latest TypeScript' },
    });
    const other = completed({ id: 'item_2', type: 'constructor' });
    expect(await events(started({ ...mcp.item, status: 'in_progress', result: null }), mcp, web, other)).toEqual([
      { type: 'unknown', raw: mcp },
      { type: 'unknown', raw: web },
      { type: 'unknown', raw: other },
    ]);
  });
});

describe('state is bounded (docs/contract.md)', () => {
  test('past maxPendingTools open items, the oldest is emitted with its outcome unset', async () => {
    const out = await run(
      jsonl(
        started(command('item_0', 'bash -lc one', 'in_progress', null)),
        started(command('item_1', 'bash -lc two', 'in_progress', null)),
        started(command('item_2', 'bash -lc three', 'in_progress', null)),
        completed(command('item_2', 'bash -lc three', 'completed', 0)),
      ),
      { harness, maxPendingTools: 2 },
    );
    expect(bodies(out.events)).toEqual([
      { type: 'command', command: 'one' },
      { type: 'command', command: 'three', exit_code: 0, is_success: true },
      { type: 'command', command: 'two' },
    ]);
  });

  test('an open item updated again keeps its place; its latest version is what is emitted', async () => {
    const out = await run(
      jsonl(
        started(command('item_0', 'bash -lc one', 'in_progress', null)),
        started(command('item_1', 'bash -lc two', 'in_progress', null)),
        updated(command('item_0', 'bash -lc uno', 'in_progress', null)),
        started(command('item_2', 'bash -lc three', 'in_progress', null)),
      ),
      { harness, maxPendingTools: 2 },
    );
    expect(bodies(out.events)).toEqual([
      { type: 'command', command: 'uno' },
      { type: 'command', command: 'two' },
      { type: 'command', command: 'three' },
    ]);
  });
});
