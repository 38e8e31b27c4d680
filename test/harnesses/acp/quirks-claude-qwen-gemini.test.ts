/**
 * acp.md "Per-agent quirks, and how they are normalized", claude-code-acp's, Qwen's and Gemini's: one test per
 * row, on the capture that shows the quirk (test/fixtures/acp/), or on authored messages in the agent's shape where
 * no capture does.
 */
import { describe, expect, test } from 'vitest';
import { records, updates } from '../../../lib/harnesses/acp/records.js';
import { permissionAnswer } from '../../../lib/harnesses/acp/client.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { options, project, capture, authored, update, agentInfo } from './quirks.js';

describe('claude-code-acp', () => {
  test('every call announced twice (tool_call with empty input, then with it): merged by id', async () => {
    const { bodies, lines } = await capture('claude-code-acp/tools.jsonl');
    expect([lines[10]!.params.update.sessionUpdate, lines[11]!.params.update.sessionUpdate]).toEqual([
      'tool_call',
      'tool_call',
    ]);
    expect(bodies.filter((event) => ['read', 'search', 'command'].includes(event.type as string))).toHaveLength(3);
  });

  test('an empty agent_message_chunk before each message: empty spans are dropped', async () => {
    const { bodies, lines } = await capture('claude-code-acp/text.jsonl');
    expect(lines[7]!.params.update.content).toEqual({ type: 'text', text: '' });
    expect(bodies).toEqual([
      { type: 'reasoning', message: 'The user wants the magic word; I remember it from the notes.' },
      { type: 'agent', message: 'The magic word is pineapple.' },
    ]);
  });

  test('no usage in the prompt response: no usage event', async () => {
    const { bodies, metrics } = await capture('claude-code-acp/tools.jsonl');
    expect(bodies.filter((event) => event.type === 'usage')).toEqual([]);
    expect(metrics.tokens).toEqual({});
  });

  test('asks permission for Edit and a Bash command, offering allow_always first: answered allow_once', async () => {
    const { lines } = await capture('claude-code-acp/edit.jsonl');
    const options = lines[16]!.params.options;
    expect(options[0].kind).toBe('allow_always');
    expect(permissionAnswer(options, 'bypass')).toEqual({ outcome: { outcome: 'selected', optionId: 'allow' } });
  });

  test(
    'TodoWrite announced as a `think` tool call that ' + 'never completes: emitted at the prompt response, unknown',
    async () => {
      const todo = {
        toolCallId: 'toolu_9',
        title: 'Update Todos',
        kind: 'think',
        status: 'pending',
        rawInput: { todos: [{ content: 'x', status: 'pending' }] },
      };
      expect(
        await authored(
          update('tool_call', { ...todo, _meta: { claudeCode: { toolName: 'TodoWrite' } } }),
          update('plan', { entries: [] }),
          { jsonrpc: '2.0', id: 3, result: { stopReason: 'end_turn' } },
        ),
      ).toEqual([{ type: 'unknown', raw: todo }]);
    },
  );
});

describe('Qwen', () => {
  test('read_file offset is 0-based: start line = offset + 1 when agentInfo.name is qwen-code', async () => {
    const read = update('tool_call', {
      toolCallId: 'call_1',
      status: 'completed',
      kind: 'read',
      rawInput: { file_path: '/ws/a.ts', offset: 10, limit: 5 },
      locations: [{ path: '/ws/a.ts', line: null }],
    });
    expect(await authored(agentInfo('qwen-code'), read)).toEqual([
      { type: 'read', path: '/ws/a.ts', start_line: 11, end_line: 15, is_success: true },
    ]);
    expect(await authored(agentInfo('Kilo'), read)).toEqual([
      { type: 'read', path: '/ws/a.ts', start_line: 10, end_line: 14, is_success: true },
    ]);
  });

  test(
    'tool_call with rawInput {}, input in in_progress updates; a call held for permission gets its input only ' +
      "in the request's toolCall: merged",
    async () => {
      expect((await capture('qwen/tools.jsonl')).bodies).toContainEqual({
        type: 'read',
        path: `${project}/notes.md`,
        is_success: true,
      });
      expect(
        await authored(
          update('tool_call', {
            toolCallId: 'call_4',
            status: 'pending',
            title: 'Shell',
            kind: 'execute',
            rawInput: {},
            _meta: { toolName: 'run_shell_command' },
          }),
          {
            jsonrpc: '2.0',
            id: 0,
            method: 'session/request_permission',
            params: { toolCall: { toolCallId: 'call_4', rawInput: { command: 'npm test' } }, options: [] },
          },
          update('tool_call_update', {
            toolCallId: 'call_4',
            status: 'completed',
            rawOutput: { type: 'shell_result', exitCode: 0, directory: '/ws' },
          }),
        ),
      ).toEqual([{ type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 0, is_success: true }]);
    },
  );

  test(
    'usage per model call in _meta.usage of an empty message chunk, none in the prompt response: the ' +
      '_meta.usage rule',
    async () => {
      const { bodies, rules } = await capture('qwen/tools.jsonl');
      expect(bodies.filter((event) => event.type === 'usage')).toHaveLength(3);
      expect(rules.filter((rule) => rule === updates.agent_message_chunk.rules.usage)).toHaveLength(3);
    },
  );

  test(
    'extension messages (craft/drainMidTurnQueue, qwen/notify/session/prompt-suggestion) and an ' +
      'available_commands_update after the prompt response: consumed',
    async () => {
      const { rules, lines } = await capture('qwen/tools.jsonl');
      expect([lines[13]!.method, lines[27]!.method]).toEqual([
        'craft/drainMidTurnQueue',
        'qwen/notify/session/prompt-suggestion',
      ]);
      expect([rules[12], rules[26]]).toEqual([
        records['extension method'].rules.consumed,
        records['extension method'].rules.consumed,
      ]);
      const after = await run(
        jsonl(
          update('agent_message_chunk', { content: { type: 'text', text: 'Done.' } }),
          { jsonrpc: '2.0', id: 3, result: { stopReason: 'end_turn' } },
          update('available_commands_update', { availableCommands: [] }),
        ),
        options,
      );
      expect(bodies(after.events)).toEqual([{ type: 'agent', message: 'Done.' }]);
      expect(after.metrics.ended).toBe(true);
    },
  );
});

describe('Gemini', () => {
  test(
    "no rawInput ever; a shell call's title is its command line; a search's title is 'Q' within P: the title " +
      'rules',
    async () => {
      const { bodies } = await capture('gemini/tools.jsonl');
      expect(bodies).toContainEqual({ type: 'command', command: 'ls -la && echo done' });
      expect(bodies).toContainEqual({ type: 'search', query: 'magic', path: project, is_success: true });
    },
  );

  test(
    'a shell call may appear first in ' + 'session/request_permission: the permission toolCall creates the record',
    async () => {
      const { lines, rules } = await capture('gemini/fail.jsonl');
      expect(lines[6]!.method).toBe('session/request_permission');
      expect(rules[5]).toBe(records['session/request_permission'].rules.open);
    },
  );

  test('read_file with a range gives only locations[0].line (the start): start line only', async () => {
    expect(
      await authored(
        update('tool_call', {
          toolCallId: 'read_file_1',
          status: 'completed',
          title: 'a.ts',
          kind: 'read',
          locations: [{ path: '/ws/a.ts', line: 20 }],
        }),
      ),
    ).toEqual([{ type: 'read', path: '/ws/a.ts', start_line: 20, is_success: true }]);
  });

  test('every shell command ends `completed`, with no exit code: is_success unset (the name rule)', async () => {
    const { bodies, lines } = await capture('gemini/fail.jsonl');
    expect(lines[7]!.params.update.status).toBe('completed');
    expect(bodies).toContainEqual({ type: 'command', command: "node -e 'process.exit(3)'" });
  });

  test('thought chunks begin with the subject in bold (`****\\n` when there is none): kept verbatim', async () => {
    expect((await capture('gemini/text.jsonl')).bodies[0]).toEqual({
      type: 'reasoning',
      message: '****\nThe user wants the magic word; I remember it from the notes.',
    });
  });

  test('usage only as _meta.quota in the prompt response: not read', async () => {
    const { bodies, metrics, lines } = await capture('gemini/text.jsonl');
    expect(lines[6]!.result._meta.quota.token_count).toEqual({ input_tokens: 900, output_tokens: 30 });
    expect(bodies.filter((event) => event.type === 'usage')).toEqual([]);
    expect(metrics.tokens).toEqual({});
  });
});
