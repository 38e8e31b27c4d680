/**
 * acp.md "Per-agent quirks, and how they are normalized", Copilot's, Droid's and Kilo's: one test per row, on
 * the capture that shows the quirk (test/fixtures/acp/), or on authored messages in the agent's shape where no
 * capture does.
 */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/acp/records.js';
import { permissionAnswer } from '../../../lib/harnesses/acp/client.js';
import { project, capture, authored, update } from './quirks.js';

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
