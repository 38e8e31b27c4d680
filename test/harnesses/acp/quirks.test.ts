/**
 * acp.md "Per-agent quirks, and how they are normalized": one test per row, on the capture that
 * shows the quirk (test/fixtures/acp/), or on authored messages in the agent's shape where no
 * capture does.
 */
import { describe, expect, test } from 'vitest';
import { records, updates } from '../../../lib/harnesses/acp/records.js';
import { permissionAnswer } from '../../../lib/harnesses/acp/client.js';
import { bodies, jsonl, parsedLines, run, runFixture } from '../../helpers.js';

const options = { harness: 'acp' as const, cwd: '/home/user/project' };
const project = '/home/user/project';

async function capture(file: string) {
  const result = await runFixture(`acp/${file}`, options);
  return { ...result, bodies: bodies(result.events), lines: parsedLines(`acp/${file}`) as Record<string, any>[] };
}
async function authored(...lines: unknown[]) {
  return bodies((await run(jsonl(...lines), options)).events);
}
const update = (sessionUpdate: string, fields: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate, ...fields } },
});
const agentInfo = (name: string) => ({
  jsonrpc: '2.0',
  id: 1,
  result: { protocolVersion: 1, agentInfo: { name, version: '1' } },
});

describe('Copilot', () => {
  test('grep and glob are `kind: "read"` with rawInput.pattern: the read + pattern rule makes a search', async () => {
    const { bodies, lines } = await capture('copilot/tools.jsonl');
    expect(lines[18]!.params.update).toMatchObject({
      toolCallId: 'call_0005',
      kind: 'read',
      rawInput: { pattern: 'magic' },
    });
    expect(bodies).toContainEqual({ type: 'search', query: 'magic', is_success: true });
  });

  test(
    'a failing shell command ends `completed`, its exit code in rawOutput.contents[shell_exit]: the exit code ' +
      'rule fails it',
    async () => {
      const { bodies, lines } = await capture('copilot/fail.jsonl');
      expect(lines[12]!.params.update).toMatchObject({
        status: 'completed',
        rawOutput: { contents: [{ type: 'shell_exit', exitCode: 3 }] },
      });
      expect(bodies).toContainEqual({
        type: 'command',
        command: "node -e 'process.exit(3)'",
        working_directory: project,
        exit_code: 3,
        is_success: false,
      });
    },
  );

  test(
    "a running command's output is re-sent whole in every update: replace semantics, one command event, no " + 'output',
    async () => {
      const { bodies } = await capture('copilot/tools.jsonl');
      expect(bodies.filter((event) => event.type === 'command')).toEqual([
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
      ]);
    },
  );

  test('available_commands_update before the session/new response: the session id from its params', async () => {
    const { lines, metrics, events } = await capture('copilot/text.jsonl');
    expect(lines[2]!.params.update.sessionUpdate).toBe('available_commands_update');
    expect(lines[3]!.id).toBe(2);
    expect(metrics.session_id).toBe(lines[2]!.params.sessionId);
    expect(events[0]!.session_id).toBe(lines[2]!.params.sessionId);
  });

  test(
    'a notice relayed as an agent_message_chunk (`Info: <path>` while create writes a file): an agent event, as ' +
      'sent',
    async () => {
      expect(
        await authored(
          update('tool_call', {
            toolCallId: 'c1',
            title: 'Creating /ws/new.ts',
            kind: 'edit',
            status: 'pending',
            rawInput: { path: '/ws/new.ts' },
            content: [{ type: 'diff', path: '/ws/new.ts', newText: 'x' }],
          }),
          update('agent_message_chunk', { content: { type: 'text', text: 'Info: /ws/new.ts' } }),
          update('tool_call_update', { toolCallId: 'c1', status: 'completed' }),
        ),
      ).toEqual([
        { type: 'agent', message: 'Info: /ws/new.ts' },
        { type: 'write', path: '/ws/new.ts', is_success: true },
      ]);
    },
  );
});

describe('Droid', () => {
  test(
    '`execute` with terminal content although no terminal was offered, no output, no exit code: content other ' +
      'than diff ignored, success from the status',
    async () => {
      const tools = await capture('droid/tools.jsonl');
      expect(tools.lines[15]!.params.update.content).toEqual([
        { type: 'terminal', terminalId: '96173f10-8ceb-4430-8b59-88538f53f6ab' },
      ]);
      expect(tools.bodies).toContainEqual({ type: 'command', command: 'ls -la && echo done', is_success: true });
      expect((await capture('droid/fail.jsonl')).bodies).toContainEqual({
        type: 'command',
        command: "node -e 'process.exit(3)'",
        is_success: false,
      });
    },
  );

  test(
    'asks session/request_permission for edits and commands: answered by the option; its toolCall adds nothing ' +
      'new',
    async () => {
      const { bodies, rules, lines } = await capture('droid/edit.jsonl');
      expect(rules[10]).toBe(records['session/request_permission'].rules.open);
      expect(permissionAnswer(lines[11]!.params.options, 'bypass')).toEqual({
        outcome: { outcome: 'selected', optionId: 'proceed_once' },
      });
      expect(bodies).toEqual([
        { type: 'agent', message: 'Editing notes.md.' },
        { type: 'write', path: `${project}/notes.md`, is_success: true },
        { type: 'agent', message: 'Done: the magic word is now mango.' },
      ]);
    },
  );

  test('locations[].line 0 for a whole-file read: no range', async () => {
    const { bodies, lines } = await capture('droid/tools.jsonl');
    expect(lines[11]!.params.update.locations).toEqual([{ path: `${project}/notes.md`, line: 0 }]);
    expect(bodies).toContainEqual({ type: 'read', path: `${project}/notes.md`, is_success: true });
  });
});

describe('Kilo', () => {
  test(
    'every tool_call starts with rawInput {}, locations [] and the tool name as title; in_progress updates ' +
      'carry the input: merged by id, classified at completion',
    async () => {
      const { bodies, lines } = await capture('kilo/tools.jsonl');
      expect(lines[10]!.params.update).toMatchObject({ title: 'read', locations: [], rawInput: {} });
      expect(bodies.slice(2, 5)).toEqual([
        { type: 'read', path: `${project}/notes.md`, is_success: true },
        { type: 'search', query: 'magic', is_success: true },
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
      ]);
    },
  );

  test('chunks carry messageId: span boundaries (a new id is a new message)', async () => {
    expect(
      await authored(
        update('agent_message_chunk', { messageId: 'msg_1', content: { type: 'text', text: 'First.' } }),
        update('agent_message_chunk', { messageId: 'msg_2', content: { type: 'text', text: 'Second.' } }),
      ),
    ).toEqual([
      { type: 'agent', message: 'First.' },
      { type: 'agent', message: 'Second.' },
    ]);
  });

  test(
    'usage counts classes disjointly, for the last ' + 'model call only: the disjoint rule, reported as sent',
    async () => {
      const { bodies, lines } = await capture('kilo/tools.jsonl');
      expect(lines[28]!.result.usage).toEqual({
        inputTokens: 500,
        outputTokens: 15,
        totalTokens: 1315,
        cachedReadTokens: 800,
      });
      expect(bodies.at(-1)).toEqual({ type: 'usage', tokens: { input: 500, output: 15, cache_read: 800 } });
    },
  );

  test(
    'a failing shell command ends `completed`, its exit ' + 'code in rawOutput.metadata.exit: the exit code rule',
    async () => {
      expect((await capture('kilo/fail.jsonl')).bodies).toContainEqual({
        type: 'command',
        command: "node -e 'process.exit(3)'",
        working_directory: project,
        exit_code: 3,
        is_success: false,
      });
    },
  );

  test('a command the abort killed ends `completed` with `exit: null`: no exit code, a failure', async () => {
    const { bodies, lines } = await capture('kilo/cancel.jsonl');
    expect(lines[11]!.params.update).toMatchObject({ status: 'completed', rawOutput: { metadata: { exit: null } } });
    expect(bodies).toContainEqual({
      type: 'command',
      command: 'sleep 30 && echo built',
      working_directory: project,
      is_success: false,
    });
  });

  test("a cancelled turn's prompt response has usage all 0: no event", async () => {
    const { bodies, metrics } = await capture('kilo/cancel.jsonl');
    expect(bodies.filter((event) => event.type === 'usage')).toEqual([]);
    expect(metrics.tokens).toEqual({});
  });
});

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
