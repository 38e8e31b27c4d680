/**
 * codex.md's file_change, collab_tool_call, todo_list, error and other items, and bounded state
 * (docs/contract.md).
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/codex/correlate.js';
import { harness, started, updated, completed, command, events } from './lines.js';

describe('items', () => {
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
