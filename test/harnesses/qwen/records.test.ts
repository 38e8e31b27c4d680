/** One test per row of qwen.md's raw event stream table, on authored lines (./lines.ts). */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/qwen/correlate.js';
import {
  harness,
  session,
  init,
  assistant,
  user,
  system,
  text,
  toolUse,
  toolResult,
  call,
  result,
  events,
  claudeEvents,
} from './lines.js';

describe('raw event stream', () => {
  test('system init: captures the session id and cwd; no event', async () => {
    const { events: out, metrics } = await run(jsonl(init, ...call('read_file', { file_path: 'src/../a.ts' })), {
      harness,
    });
    expect(out.map((e) => e.session_id)).toEqual([session]);
    expect(bodies(out)).toEqual([{ type: 'read', path: '/ws/a.ts', is_success: true }]);
    expect(metrics.session_id).toBe(session);
    expect(metrics.input.rules).toEqual({
      [records.system.rules.init]: 1,
      [records.assistant.rules.blocks]: 1,
      [records.user.rules.blocks]: 1,
    });
  });

  test('the cwd option wins over init', async () => {
    expect(
      bodies(
        (await run(jsonl(init, ...call('read_file', { file_path: 'a.ts' })), { harness, cwd: '/opt/run' })).events,
      ),
    ).toEqual([{ type: 'read', path: '/opt/run/a.ts', is_success: true }]);
  });

  test('system task_started, task_notification: orchestration (difference 5)', async () => {
    expect(
      await events(
        system('task_started', {
          task_id: 'Explore-call_9',
          tool_use_id: 'call_9',
          description: 'Look around',
          subagent_type: 'Explore',
        }),
        system('task_notification', {
          task_id: 'Explore-call_9',
          tool_use_id: 'call_9',
          status: 'completed',
          usage: { total_tokens: 10, tool_uses: 1, duration_ms: 5 },
        }),
      ),
    ).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_started',
        subagent_id: 'call_9',
        subagent_name: 'Explore',
        is_success: true,
      },
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'call_9',
        subagent_name: 'Explore',
        is_success: true,
      },
    ]);
  });

  test('system task_started or task_notification without its tool-use id (or status) is unknown', async () => {
    const records = [
      system('task_started', { task_id: 'x' }),
      system('task_notification', { tool_use_id: 'call_1' }),
      system('task_started'),
    ];
    expect(await events(...records)).toEqual(records.map((raw) => ({ type: 'unknown', raw })));
  });

  test('system retry, model_fallback, continue_turn_failed: warning, code = the subtype (difference 4)', async () => {
    expect(
      await events(
        system('retry', {
          reason: 'retry',
          attempt: 2,
          maxRetries: 5,
          delayMs: 1500,
          discardedToolCalls: 1,
          preserveText: false,
        }),
        system('model_fallback', {
          fromModel: 'qwen3-max',
          toModel: 'qwen3-coder-plus',
          statusCode: 429,
          fallbackIndex: 0,
        }),
        system('continue_turn_failed', { error: 'socket hang up' }),
      ),
    ).toEqual([
      {
        type: 'warning',
        code: 'retry',
        message: 'Qwen Code retries the turn (attempt 2 of 5, after 1500 ms, 1 tool call discarded)',
      },
      {
        type: 'warning',
        code: 'model_fallback',
        message: 'Qwen Code falls back from qwen3-max to qwen3-coder-plus (HTTP 429)',
      },
      {
        type: 'warning',
        code: 'continue_turn_failed',
        message: 'Qwen Code could not continue the turn: socket hang up',
      },
    ]);
  });

  test('system worktree_started, worktree_restored, session_start, session_end: consumed', async () => {
    const { events: out, rules } = await run(
      jsonl(
        system('worktree_started', { slug: 'w', path: '/ws/.qwen/worktrees/w' }),
        system('worktree_restored', { slug: 'w', path: '/p', branch: 'b' }),
        system('session_start'),
        system('session_end'),
      ),
      { harness },
    );
    expect(out).toEqual([]);
    expect(rules).toEqual([
      records.system.rules.worktreeStarted,
      records.system.rules.worktreeRestored,
      records.system.rules.sessionStart,
      records.system.rules.sessionEnd,
    ]);
  });

  test(
    "system with another subtype (Claude Code's status " + 'and thinking_tokens too), or none, is unknown, verbatim',
    async () => {
      const records = [
        system('status', { status: 'requesting' }),
        system('thinking_tokens'),
        system('hook_started'),
        { type: 'system', session_id: session },
      ];
      expect(await events(...records)).toEqual(records.map((raw) => ({ type: 'unknown', raw })));
    },
  );

  test('assistant: text is agent, non-empty thinking is reasoning, tool_use waits for its result', async () => {
    expect(
      await events(
        assistant([{ type: 'thinking', thinking: '', signature: '' }]),
        assistant([{ type: 'thinking', thinking: 'Plan: read it.', signature: 'Planning' }]),
        assistant([text('Reading.')]),
        assistant([toolUse('call_1', 'read_file', { file_path: '/a' })]),
      ),
    ).toEqual([
      { type: 'reasoning', message: 'Plan: read it.' },
      { type: 'agent', message: 'Reading.' },
      // Its result never came: emitted at the end of input with its outcome unset.
      { type: 'read', path: '/a' },
    ]);
  });

  test('an unrecognized block, a malformed tool use or a malformed assistant record is unknown', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const noName = { type: 'tool_use', id: 'call_1', input: {} };
    const malformed = { type: 'assistant', session_id: session, message: { content: 'text' } };
    expect(await events(assistant([image, noName]), malformed)).toEqual([
      { type: 'unknown', raw: image },
      { type: 'unknown', raw: noName },
      { type: 'unknown', raw: malformed },
    ]);
  });

  test('user: tool_result blocks resolve the recorded call, paired by id; text blocks consumed', async () => {
    expect(
      await events(
        assistant([
          toolUse('a', 'read_file', { file_path: '/a' }),
          toolUse('b', 'write_file', { file_path: '/b', content: 'x' }),
        ]),
        user([text('Background agent "Explore: x" completed.')]),
        user('a prompt as a string'),
        user([toolResult('b')]),
        user([toolResult('a', 'File not found: /a', true)]),
      ),
    ).toEqual([
      { type: 'write', path: '/b', is_success: true },
      { type: 'read', path: '/a', is_success: false },
    ]);
  });

  test('a tool result for a call never seen is unknown (no Read recovery as in Claude Code)', async () => {
    const orphan = toolResult('never-seen', 'line one');
    const record = {
      ...user([orphan]),
      tool_use_result: { file: { filePath: '/ws/notes.txt', startLine: 1, numLines: 1 } },
    };
    expect(await events(record)).toEqual([{ type: 'unknown', raw: orphan }]);
    expect(await claudeEvents(record)).toEqual([
      { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 1, is_success: true },
    ]);
  });

  test('two different calls under one id are ambiguous: unknown with both', async () => {
    const first = toolUse('dup', 'read_file', { file_path: '/a' });
    const second = toolUse('dup', 'run_shell_command', { command: 'rm -rf /tmp/x' });
    expect(await events(assistant([first]), assistant([second]), user([toolResult('dup')]))).toEqual([
      { type: 'unknown', raw: { tool_use: [first, second], tool_result: toolResult('dup') } },
    ]);
  });

  test('stream_event, control_request, control_response: consumed', async () => {
    const { events: out, rules } = await run(
      jsonl(
        {
          type: 'stream_event',
          uuid: 'e',
          session_id: session,
          parent_tool_use_id: null,
          event: { type: 'goal_state', goal_state: { v: 2, goal: null, activity: 'idle' } },
        },
        {
          type: 'control_request',
          request_id: 'r1',
          request: { subtype: 'can_use_tool', tool_name: 'run_shell_command', input: { command: 'ls' } },
        },
        {
          type: 'control_response',
          response: { subtype: 'success', request_id: 'r1', response: { behavior: 'allow' } },
        },
      ),
      { harness },
    );
    expect(out).toEqual([]);
    expect(rules).toEqual([
      records.stream_event.rules.consumed,
      records.control_request.rules.consumed,
      records.control_response.rules.consumed,
    ]);
  });

  test('result success: consumed for the metrics (tokens from result.usage, final text = result)', async () => {
    const { events: out, metrics } = await run(
      jsonl(init, result({ num_turns: 3, duration_ms: 4200, result: 'All done.' })),
      { harness },
    );
    expect(out).toEqual([]);
    expect(metrics).toMatchObject({
      ended: true,
      is_error: false,
      turns: 3,
      duration_ms: 4200,
      final_output: 'All done.',
      tokens: { input: 60, cache_read: 40, output: 10 },
    });
    expect(metrics.cost).toBeUndefined();
  });

  test('result error: an error with error.message, code the error_* subtype', async () => {
    const failed = result({
      subtype: 'error_during_execution',
      is_error: true,
      result: undefined,
      error: { message: 'Tool execution was cancelled' },
    });
    const { events: out, metrics } = await run(jsonl(failed), { harness });
    expect(bodies(out)).toEqual([
      { type: 'error', message: 'Tool execution was cancelled', code: 'error_during_execution' },
    ]);
    expect(metrics).toMatchObject({ ended: true, is_error: true });
    expect(metrics.final_output).toBeUndefined();
    expect(await events(result({ subtype: 'error_during_execution', is_error: true, error: null }))).toEqual([
      { type: 'error', message: 'Done.', code: 'error_during_execution' },
    ]);
    expect(await events(result({ subtype: 'error_max_turns', is_error: true, result: undefined }))).toEqual([
      { type: 'error', message: 'Qwen Code ended in error (error_max_turns)', code: 'error_max_turns' },
    ]);
  });

  test(
    'any other type (rate_limit_event too), and JSON that is not a typed object, is unknown; a non-JSON line a ' +
      'warning',
    async () => {
      const records = [
        { type: 'rate_limit_event', rate_limit_info: { status: 'rejected' } },
        { type: 'tool_progress', tool_use_id: 't' },
        [1],
        { no: 'type' },
      ];
      expect(await events(...records, 'Warning: running headless with --yolo')).toEqual([
        ...records.map((raw) => ({ type: 'unknown', raw })),
        { type: 'warning', message: 'Warning: running headless with --yolo', code: 'not_json' },
      ]);
    },
  );
});
