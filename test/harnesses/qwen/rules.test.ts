/**
 * One test per row of qwen.md's tables and per numbered difference from claude-code.md, on
 * authored lines in Qwen Code 0.24.4's real shapes (docs/harnesses/qwen.md, test/fixtures/qwen/lab/),
 * for what no capture covers and to pin each rule alone. Where a difference is a difference, the
 * same lines also go through the claude-code harness, so both readings stand side by side.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createNormalizer } from '../../../lib/runtime/normalizer.js';
import type { HarnessName } from '../../../lib/index.js';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, fixturePath, jsonl, run, settled } from '../../helpers.js';
import { records } from '../../../lib/harnesses/qwen/correlate.js';

const harness = 'qwen';
const session = '0f7e2c1a-5b1d-4c9e-9f3a-2d6b8e4a7c10';
const init = {
  type: 'system',
  subtype: 'init',
  uuid: session,
  session_id: session,
  cwd: '/ws',
  tools: ['read_file'],
  model: 'qwen3-coder',
  permission_mode: 'yolo',
  qwen_code_version: '0.24.4',
};

let uuids = 0;
function assistant(
  content: unknown[],
  { parent = null, id = `msg-${++uuids}` }: { parent?: string | null; id?: string } = {},
) {
  return {
    type: 'assistant',
    uuid: id,
    session_id: session,
    parent_tool_use_id: parent,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'qwen3-coder',
      content,
      stop_reason: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  };
}
function user(content: unknown, parent: string | null = null) {
  return {
    type: 'user',
    uuid: `u-${++uuids}`,
    session_id: session,
    parent_tool_use_id: parent,
    message: { role: 'user', content },
  };
}
function system(subtype: string, data?: unknown) {
  return { type: 'system', subtype, uuid: `s-${++uuids}`, session_id: session, parent_tool_use_id: null, data };
}
function text(value: string) {
  return { type: 'text', text: value };
}
function toolUse(id: string, name: string, input: unknown) {
  return { type: 'tool_use', id, name, input };
}
function toolResult(id: string, content: unknown = 'ok', is_error = false) {
  return { type: 'tool_result', tool_use_id: id, is_error, content };
}
/** A tool call and its result, as two lines. */
function call(name: string, input: unknown, content: unknown = 'ok', is_error = false, id = `call_${name}`) {
  return [assistant([toolUse(id, name, input)]), user([toolResult(id, content, is_error)])];
}
/** The unknown event a call whose tool has no row (or whose input does not fit it) becomes. */
function unknownCall(name: string, input: unknown, content: unknown = 'ok', is_error = false) {
  return {
    type: 'unknown',
    raw: { tool_use: toolUse(`call_${name}`, name, input), tool_result: toolResult(`call_${name}`, content, is_error) },
  };
}
function result(fields: Record<string, unknown> = {}) {
  return {
    type: 'result',
    subtype: 'success',
    uuid: `r-${++uuids}`,
    session_id: session,
    is_error: false,
    duration_ms: 1000,
    duration_api_ms: 800,
    num_turns: 1,
    result: 'Done.',
    usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 40, total_tokens: 110 },
    permission_denials: [],
    ...fields,
  };
}
/** Qwen's shell summary block, as it writes it for a failure (and some empty-output successes). */
function shellBlock(command: string, exit: string, output = '(empty)') {
  return (
    `Command: ${command}\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exit}\nSignal: ` +
    `(none)\nProcess Group PGID: (none)`
  );
}

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness })).events);
}
async function claudeEvents(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness: 'claude-code' })).events);
}

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

describe('differences from claude-code.md', () => {
  test("1. tool names and shapes are Qwen's own: Claude's Read is unknown, read_file's offset is 0-based", async () => {
    const qwenRead = call('read_file', { file_path: '/f', offset: 10, limit: 5 });
    const claudeRead = call('Read', { file_path: '/f', offset: 10, limit: 5 });
    expect(await events(...qwenRead, ...claudeRead)).toEqual([
      { type: 'read', path: '/f', start_line: 11, end_line: 15, is_success: true },
      unknownCall('Read', { file_path: '/f', offset: 10, limit: 5 }),
    ]);
    // Claude Code's offset is the first line itself.
    expect(await claudeEvents(...claudeRead)).toEqual([
      { type: 'read', path: '/f', start_line: 10, end_line: 14, is_success: true },
    ]);
  });

  test(
    '2. one block type per assistant record: text is joined per record, so two records are two events even ' +
      'under one message id',
    async () => {
      const records = [
        assistant([text('Part one, '), text('still one.')], { id: 'same' }),
        assistant([text('Part two.')], { id: 'same' }),
      ];
      expect(await events(...records)).toEqual([
        { type: 'agent', message: 'Part one, still one.' },
        { type: 'agent', message: 'Part two.' },
      ]);
      expect(await claudeEvents(...records)).toEqual([{ type: 'agent', message: 'Part one, still one.Part two.' }]);
    },
  );

  test(
    "2. a record's text is emitted with its record; Claude Code's waits for the next line (more of its message " +
      'may come)',
    async () => {
      /** What a normalizer has to give once one line has been written, before any other input. */
      async function afterOneLine(name: HarnessName) {
        const normalizer = createNormalizer({ harness: name });
        await new Promise((resolve) => normalizer.write(jsonl(assistant([text('Now.')])), resolve));
        const ready = normalizer.read() as HarnessEvent | null;
        normalizer.destroy();
        return ready && bodies([ready]);
      }
      expect(await afterOneLine(harness)).toEqual([{ type: 'agent', message: 'Now.' }]);
      expect(await afterOneLine('claude-code')).toBeNull();
    },
  );

  test(
    '3. an [API Error: ...] text is an error; the error result repeating it gives no second event; another ' +
      'error result does',
    async () => {
      const apiError = '[API Error: 429 Too Many Requests]';
      const failed = (message: string) =>
        result({ subtype: 'error_during_execution', is_error: true, result: undefined, error: { message } });
      const { events: out, rules } = await run(
        jsonl(assistant([text('Trying.')]), assistant([text(apiError)]), failed(apiError)),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'agent', message: 'Trying.' },
        { type: 'error', message: apiError },
      ]);
      expect(rules.at(-1)).toBe(records.result.rules.repeated);
      expect(await events(assistant([text(apiError)]), failed('[API Error: 500 Internal Server Error]'))).toEqual([
        { type: 'error', message: apiError },
        { type: 'error', message: '[API Error: 500 Internal Server Error]', code: 'error_during_execution' },
      ]);
      // Only a whole text of that form: one that merely mentions it, or does not end the bracket, is the agent's.
      expect(
        await events(
          assistant([text('The log says [API Error: 401 x]')]),
          assistant([text('[API Error: unterminated')]),
        ),
      ).toEqual([
        { type: 'agent', message: 'The log says [API Error: 401 x]' },
        { type: 'agent', message: '[API Error: unterminated' },
      ]);
      expect(await claudeEvents(assistant([text(apiError)]))).toEqual([{ type: 'agent', message: apiError }]);
    },
  );

  test(
    '4. system subtypes: retry and model_fallback warnings summarize what they have; Claude Code calls them ' +
      'unknown',
    async () => {
      const sparse = [
        system('retry', { reason: 'model_fallback' }),
        system('model_fallback', {}),
        system('continue_turn_failed'),
        system('retry'),
      ];
      expect(await events(...sparse)).toEqual([
        { type: 'warning', code: 'retry', message: 'Qwen Code retries the turn (model_fallback)' },
        { type: 'warning', code: 'model_fallback', message: 'Qwen Code falls back' },
        { type: 'warning', code: 'continue_turn_failed', message: 'Qwen Code could not continue the turn' },
        { type: 'warning', code: 'retry', message: 'Qwen Code retries the turn' },
      ]);
      expect(await claudeEvents(...sparse)).toEqual(sparse.map((raw) => ({ type: 'unknown', raw })));
    },
  );

  describe('5. orchestration', () => {
    test(
      'task_notification: completed, or failed for any other status; its name from the task_started with that ' +
        'id, when seen',
      async () => {
        const started = system('task_started', {
          task_id: 'general-purpose-call_1',
          tool_use_id: 'call_1',
          description: 'd',
          subagent_type: 'general-purpose',
        });
        const done = (id: string, status: string) =>
          system('task_notification', { task_id: `x-${id}`, tool_use_id: id, status });
        expect(
          await events(started, done('call_1', 'failed'), done('call_2', 'cancelled'), done('call_3', 'completed')),
        ).toEqual([
          {
            type: 'orchestration',
            action: 'subagent_started',
            subagent_id: 'call_1',
            subagent_name: 'general-purpose',
            is_success: true,
          },
          {
            type: 'orchestration',
            action: 'subagent_failed',
            subagent_id: 'call_1',
            subagent_name: 'general-purpose',
            is_success: false,
          },
          { type: 'orchestration', action: 'subagent_failed', subagent_id: 'call_2', is_success: false },
          { type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_3', is_success: true },
        ]);
      },
    );

    test(
      'a foreground agent: its result is subagent_completed, subagent_failed when is_error; name subagent_type, ' +
        'else general-purpose',
      async () => {
        expect(
          await events(
            ...call(
              'agent',
              { description: 'd', prompt: 'p', subagent_type: 'Explore', run_in_background: false },
              'Found it.',
              false,
              'call_a',
            ),
            ...call(
              'agent',
              { description: 'd', prompt: 'p', run_in_background: false },
              'Subagent failed: boom',
              true,
              'call_b',
            ),
          ),
        ).toEqual([
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'call_a',
            subagent_name: 'Explore',
            is_success: true,
          },
          {
            type: 'orchestration',
            action: 'subagent_failed',
            subagent_id: 'call_b',
            subagent_name: 'general-purpose',
            is_success: false,
          },
        ]);
      },
    );

    test(
      "a foreground subagent's own calls (parent_tool_use_id set) map as the main agent's; its echoed prompt is " +
        'consumed',
      async () => {
        expect(
          await events(
            assistant([
              toolUse('call_a', 'agent', {
                description: 'd',
                prompt: 'Summarize',
                subagent_type: 'general-purpose',
                run_in_background: false,
              }),
            ]),
            user([text('Summarize')], 'call_a'),
            assistant([toolUse('call_s', 'grep_search', { pattern: 'TODO', path: '/ws' })], { parent: 'call_a' }),
            user([toolResult('call_s', 'Found 2 matches')], 'call_a'),
            user([toolResult('call_a', 'Two TODOs.')]),
          ),
        ).toEqual([
          { type: 'search', query: 'TODO', path: '/ws', is_success: true },
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'call_a',
            subagent_name: 'general-purpose',
            is_success: true,
          },
        ]);
      },
    );

    test(
      'a background agent: task_started seen before its result, so the call and its "launched" result are ' +
        'consumed',
      async () => {
        const launched = toolResult('call_bg', 'Background agent launched successfully.\ntask_id: Explore-call_bg');
        const { events: out, rules } = await run(
          jsonl(
            assistant([toolUse('call_bg', 'agent', { description: 'd', prompt: 'p', subagent_type: 'Explore' })]),
            system('task_started', {
              task_id: 'Explore-call_bg',
              tool_use_id: 'call_bg',
              description: 'd',
              subagent_type: 'Explore',
            }),
            user([launched]),
            user([text('Background agent "Explore: d" completed.')]),
            system('task_notification', { task_id: 'Explore-call_bg', tool_use_id: 'call_bg', status: 'completed' }),
            // A second "launched" result for it is not accounted for.
            user([launched]),
          ),
          { harness },
        );
        expect(bodies(out)).toEqual([
          {
            type: 'orchestration',
            action: 'subagent_started',
            subagent_id: 'call_bg',
            subagent_name: 'Explore',
            is_success: true,
          },
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'call_bg',
            subagent_name: 'Explore',
            is_success: true,
          },
          { type: 'unknown', raw: launched },
        ]);
        expect(rules).toEqual([
          records.assistant.rules.blocks,
          records.system.rules.taskStarted,
          records.user.rules.blocks,
          records.user.rules.blocks,
          records.system.rules.taskNotification,
          records.user.rules.blocks,
        ]);
      },
    );

    test(
      'an agent call whose result never came (the run ' + 'stopped) happened: subagent_started, success unset',
      async () => {
        expect(
          await events(
            assistant([
              toolUse('call_a', 'agent', {
                description: 'd',
                prompt: 'p',
                subagent_type: 'Explore',
                run_in_background: false,
              }),
            ]),
          ),
        ).toEqual([
          { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_a', subagent_name: 'Explore' },
        ]);
      },
    );

    test('Claude Code has no orchestration source: the same lines are unknown there', async () => {
      const records = [
        ...call('agent', { description: 'd', prompt: 'p', run_in_background: false }),
        system('task_started', { tool_use_id: 'call_x' }),
      ];
      expect(await claudeEvents(...records)).toEqual([
        unknownCall('agent', { description: 'd', prompt: 'p', run_in_background: false }),
        { type: 'unknown', raw: records[2] },
      ]);
    });
  });

  test('6. no rate_limit_event (unknown); control_request and control_response consumed', async () => {
    const rateLimit = { type: 'rate_limit_event', rate_limit_info: { status: 'allowed' }, session_id: session };
    const control = [
      { type: 'control_request', request_id: 'r', request: { subtype: 'can_use_tool' } },
      { type: 'control_response', response: { request_id: 'r' } },
    ];
    expect(await events(rateLimit, ...control)).toEqual([{ type: 'unknown', raw: rateLimit }]);
    expect(await claudeEvents(rateLimit, ...control)).toEqual(control.map((raw) => ({ type: 'unknown', raw })));
  });

  test('7. stream_event is consumed, the goal_state one written without --include-partial-messages too', async () => {
    const { events: out, rules } = await run(
      jsonl(
        {
          type: 'stream_event',
          session_id: session,
          parent_tool_use_id: null,
          event: { type: 'goal_state', goal_state: { v: 2, goal: null, activity: 'idle' } },
        },
        {
          type: 'stream_event',
          session_id: session,
          parent_tool_use_id: null,
          event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
        },
        assistant([text('Hello')]),
      ),
      { harness },
    );
    expect(bodies(out)).toEqual([{ type: 'agent', message: 'Hello' }]);
    expect(rules).toEqual([
      records.stream_event.rules.consumed,
      records.stream_event.rules.consumed,
      records.assistant.rules.blocks,
    ]);
  });

  describe('8. shell exit codes', () => {
    const shell = (id: string, command: string, content: unknown, is_error: boolean) => [
      assistant([toolUse(id, 'run_shell_command', { command, description: 'd', is_background: false })]),
      user([toolResult(id, content, is_error)]),
    ];

    test("the summary block's `Exit Code: N` is the command event's exit code; non-zero is a failure", async () => {
      expect(
        await events(
          init,
          ...shell('c1', 'npm test', shellBlock('npm test', '1', 'FAIL src/a.test.ts'), true),
          ...shell('c2', 'make', shellBlock('make', '0'), false),
          ...shell('c3', 'sleep 100', shellBlock('sleep 100', '(none)').replace('Signal: (none)', 'Signal: 15'), true),
          ...shell('c4', 'npm ci', [{ type: 'text', text: shellBlock('npm ci', '0') }], false),
        ),
      ).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 1, is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', exit_code: 0, is_success: true },
        { type: 'command', command: 'sleep 100', working_directory: '/ws', is_success: false },
        { type: 'command', command: 'npm ci', working_directory: '/ws', exit_code: 0, is_success: true },
      ]);
    });

    test(
      'a result that is the output itself says no exit code, even when the output has such a line; the last ' +
        'line of the block counts',
      async () => {
        const printed = 'build log\nExit Code: 7\ndone';
        expect(
          await events(
            init,
            ...shell('c1', 'node build.js', printed, false),
            ...shell('c2', 'node build.js', shellBlock('node build.js', '3', `step\nExit Code: 0\nstep`), true),
          ),
        ).toEqual([
          { type: 'command', command: 'node build.js', working_directory: '/ws', is_success: true },
          { type: 'command', command: 'node build.js', working_directory: '/ws', exit_code: 3, is_success: false },
        ]);
      },
    );

    test(
      'a reclassified read keeps the success but not the exit code; a search that exited 1 completed ' +
        '(docs/contract.md)',
      async () => {
        expect(
          await events(
            init,
            ...shell('c1', 'cat missing.txt', shellBlock('cat missing.txt', '1'), true),
            ...shell('c2', 'grep -rn zzz src', shellBlock('grep -rn zzz src', '1'), true),
            ...shell('c3', 'grep -rn zzz nowhere', shellBlock('grep -rn zzz nowhere', '2'), true),
            ...shell('c4', 'npm test', shellBlock('npm test', '1'), true),
          ),
        ).toEqual([
          { type: 'read', path: '/ws/missing.txt', is_success: false },
          { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
          { type: 'search', query: 'zzz', path: '/ws/nowhere', is_success: false },
          { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 1, is_success: false },
        ]);
      },
    );

    test(
      'a last line `Command exited with code: N` gives exit code N even with is_error false; non-zero fails, ' +
        'except the exit-1 search (difference 8, revision 2026-12-01b)',
      async () => {
        expect(
          await events(
            init,
            ...shell('c1', 'test -e missing.txt', 'Command exited with code: 1', false),
            ...shell('c2', 'grep -rn zzz src', 'Command exited with code: 1', false),
            ...shell('c3', 'node check.js', 'checking\nCommand exited with code: 0', false),
            ...shell('c4', 'cat missing.txt', 'Command exited with code: 1', false),
          ),
        ).toEqual([
          {
            type: 'command',
            command: 'test -e missing.txt',
            working_directory: '/ws',
            exit_code: 1,
            is_success: false,
          },
          { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
          { type: 'command', command: 'node check.js', working_directory: '/ws', exit_code: 0, is_success: true },
          { type: 'read', path: '/ws/missing.txt', is_success: false },
        ]);
      },
    );

    test(
      'a result far over streamLinesAbove keeps its head: the `Exit Code:` line at its end is cut, success ' +
        'comes from is_error alone',
      async () => {
        const { events: out } = await run(
          jsonl(init, ...shell('c1', 'npm test', shellBlock('npm test', '1', 'x'.repeat(200_000)), true)),
          { harness, streamLinesAbove: 64 * 1024 },
        );
        expect(bodies(out).map((e) => e.type)).toEqual(['warning', 'command']);
        expect(bodies(out)[1]).toEqual({
          type: 'command',
          command: 'npm test',
          working_directory: '/ws',
          is_success: false,
        });
      },
    );
  });

  describe('9. the end of a run', () => {
    const children = new URL('../../children/', import.meta.url).pathname;

    async function spawned(steps: unknown[]) {
      const child = spawnHarness({
        harness,
        command: process.execPath,
        args: [join(children, 'script.mjs'), JSON.stringify(steps)],
      });
      const out: HarnessEvent[] = [];
      for await (const event of child) out.push(event);
      return { events: bodies(out), done: await settled(child) };
    }

    test(
      'a stream without a result: calls still waiting are emitted with their outcome unset; the run has not ' + 'ended',
      async () => {
        const { events: out, metrics } = await run(
          jsonl(init, assistant([toolUse('c1', 'read_file', { file_path: 'notes.txt', offset: 2, limit: 1 })])),
          { harness },
        );
        expect(bodies(out)).toEqual([{ type: 'read', path: '/ws/notes.txt', start_line: 3, end_line: 3 }]);
        expect(metrics).toMatchObject({ ended: false, tokens: {} });
      },
    );

    test(
      'spawnHarness: the real turn-limit stop (exit 53, no result): its stderr and the exit code say why; not ' +
        'reported incomplete',
      async () => {
        const stdout = readFileSync(fixturePath('qwen/lab/turn-limit.jsonl'), 'utf8');
        const stderr = readFileSync(fixturePath('qwen/lab/turn-limit.stderr.txt'), 'utf8');
        const { events: out, done } = await spawned([{ out: stdout }, { err: stderr }, { exit: 53 }]);
        const [yolo, reason] = stderr.trimEnd().split('\n');
        // stdout and stderr are two pipes: each in its order, the ending last.
        expect(out.filter((e) => e.type !== 'warning')).toEqual([
          { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
          {
            type: 'error',
            code: 'exit_code',
            message: `${process.execPath} exited with code 53 (session turn limit reached)`,
          },
        ]);
        expect(out.filter((e) => e.type === 'warning')).toEqual([
          { type: 'warning', code: 'stderr', message: yolo },
          { type: 'warning', code: 'stderr', message: reason },
        ]);
        expect(done.metrics).toMatchObject({ ended: false, exit_code: 53 });
      },
    );

    test(
      "spawnHarness: an exit that is not one of Qwen's stops, without a result, is an incomplete run; an error " +
        'result ends it',
      async () => {
        const line = (record: unknown) => JSON.stringify(record) + '\n';
        const crashed = await spawned([{ out: line(init) + line(assistant([text('Working.')])) }, { exit: 1 }]);
        expect(crashed.events).toEqual([
          { type: 'agent', message: 'Working.' },
          {
            type: 'warning',
            code: 'incomplete',
            message: 'qwen ended without its terminal record (result): the run is incomplete',
          },
          { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
        ]);
        const failed = result({
          subtype: 'error_during_execution',
          is_error: true,
          result: undefined,
          error: { message: 'boom' },
        });
        const ended = await spawned([{ out: line(init) + line(failed) }, { exit: 1 }]);
        expect(ended.events).toEqual([
          { type: 'error', message: 'boom', code: 'error_during_execution' },
          { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
        ]);
      },
    );
  });

  describe('10. monitors (revision 2026-12-01b)', () => {
    const monitorUse = (id: string) =>
      assistant([toolUse(id, 'monitor', { command: 'tail -f build.log', description: 'build log' })]);
    const task = (subtype: string, data: Record<string, unknown>) =>
      system(subtype, { description: 'build log', ...data });

    test(
      'a monitor call is a command event at its result (success !is_error, no exit code); its task records and ' +
        'injected user texts are consumed',
      async () => {
        const out = await run(
          jsonl(
            init,
            monitorUse('call_m'),
            task('task_started', { task_id: 'mon_1a2b', tool_use_id: 'call_m' }),
            user([toolResult('call_m', 'Monitor "build log" started (task mon_1a2b).')]),
            user([text('Monitor "build log" event #1: error TS2304 in src/a.ts')]),
            user('Monitor "build log" was cancelled by the user.'),
            task('task_notification', { task_id: 'mon_1a2b', tool_use_id: 'call_m', status: 'cancelled' }),
            monitorUse('call_n'),
            user([toolResult('call_n', 'Monitor failed to start: no such file', true)]),
          ),
          { harness },
        );
        expect(bodies(out.events)).toEqual([
          { type: 'command', command: 'tail -f build.log', working_directory: '/ws', is_success: true },
          { type: 'command', command: 'tail -f build.log', working_directory: '/ws', is_success: false },
        ]);
        expect(out.rules.slice(1)).toEqual([
          records.assistant.rules.blocks,
          records.system.rules.monitorTask,
          records.user.rules.blocks,
          records.user.rules.blocks,
          records.user.rules.text,
          records.system.rules.monitorTask,
          records.assistant.rules.blocks,
          records.user.rules.blocks,
        ]);
      },
    );

    test("task records for an id never seen: a `mon_` task id is a monitor's, any other a subagent's", async () => {
      expect(
        await events(
          task('task_started', { task_id: 'mon_9', tool_use_id: 'call_x' }),
          task('task_notification', { task_id: 'mon_9', tool_use_id: 'call_x', status: 'completed' }),
          task('task_notification', { task_id: 'general-purpose-call_y', tool_use_id: 'call_y', status: 'completed' }),
        ),
      ).toEqual([{ type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_y', is_success: true }]);
    });

    test("an agent call's task records stay a subagent's whatever their task id", async () => {
      const agentUse = assistant([
        toolUse('call_a', 'agent', { description: 'd', prompt: 'p', run_in_background: true }),
      ]);
      expect(
        await events(
          agentUse,
          task('task_started', { task_id: 'mon_looks_like_one', tool_use_id: 'call_a', subagent_type: 'Explore' }),
          user([toolResult('call_a', 'Launched.')]),
          task('task_notification', { task_id: 'mon_looks_like_one', tool_use_id: 'call_a', status: 'completed' }),
        ),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'call_a',
          subagent_name: 'Explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'call_a',
          subagent_name: 'Explore',
          is_success: true,
        },
      ]);
    });
  });
});

describe('tools', () => {
  test(
    'read_file: start_line = offset + 1, end_line = offset + limit; offset alone, limit alone, neither; bad ' +
      'values give no range',
    async () => {
      expect(
        await events(
          init,
          ...call('read_file', { file_path: '/f', offset: 0, limit: 10 }),
          ...call('read_file', { file_path: '/f', offset: 7 }),
          ...call('read_file', { file_path: '/f', limit: 5 }),
          ...call('read_file', { file_path: 'rel.txt' }),
          ...call('read_file', { file_path: '/f', offset: -1, limit: 0 }),
          ...call('read_file', { file_path: '/f', offset: '3', limit: 2.5 }),
        ),
      ).toEqual([
        { type: 'read', path: '/f', start_line: 1, end_line: 10, is_success: true },
        { type: 'read', path: '/f', start_line: 8, is_success: true },
        { type: 'read', path: '/f', start_line: 1, end_line: 5, is_success: true },
        { type: 'read', path: '/ws/rel.txt', is_success: true },
        { type: 'read', path: '/f', is_success: true },
        { type: 'read', path: '/f', is_success: true },
      ]);
      expect(await events(...call('read_file', { path: '/wrong/field' }))).toEqual([
        unknownCall('read_file', { path: '/wrong/field' }),
      ]);
    },
  );

  test('write_file, edit (legacy replace): write, path = file_path', async () => {
    expect(
      await events(
        ...call('write_file', { file_path: '/ws/c.ts', content: 'secret' }),
        ...call('edit', { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b' }),
        ...call('replace', { file_path: '/ws/b.ts', old_string: 'a', new_string: 'b' }, 'Failed to edit', true),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/c.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/b.ts', is_success: false },
    ]);
  });

  test('notebook_edit: write, path = notebook_path', async () => {
    expect(
      await events(...call('notebook_edit', { notebook_path: '/ws/nb.ipynb', cell_id: 'c1', new_source: 'x' })),
    ).toEqual([{ type: 'write', path: '/ws/nb.ipynb', is_success: true }]);
  });

  test('glob: search, query = pattern, path when given', async () => {
    expect(
      await events(
        init,
        ...call('glob', { pattern: '**/*.ts', path: 'src' }),
        ...call('glob', { pattern: '*.md' }, 'No files found'),
      ),
    ).toEqual([
      { type: 'search', query: '**/*.ts', path: '/ws/src', is_success: true },
      { type: 'search', query: '*.md', is_success: true },
    ]);
  });

  test('grep_search (legacy search_file_content): search, query = pattern, path when given', async () => {
    expect(
      await events(
        ...call('grep_search', { pattern: 'greet', glob: '*.ts', path: '/ws/src', limit: 50 }),
        ...call('search_file_content', { pattern: 'TODO' }),
      ),
    ).toEqual([
      { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
      { type: 'search', query: 'TODO', is_success: true },
    ]);
  });

  test('list_directory: list, path = path', async () => {
    expect(await events(...call('list_directory', { path: '/ws/src', ignore: ['*.log'] }))).toEqual([
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });

  test("run_shell_command: a command in the run's cwd, or the file operations it is", async () => {
    expect(
      await events(
        init,
        ...call('run_shell_command', {
          command: 'npm run build',
          description: 'Build',
          is_background: false,
          timeout: 600000,
        }),
        ...call('run_shell_command', { command: "cd src && sed -n '10,20p' a.ts" }),
        ...call('run_shell_command', { command: 'rg -n TODO lib | head -n 5' }),
      ),
    ).toEqual([
      { type: 'command', command: 'npm run build', working_directory: '/ws', is_success: true },
      { type: 'read', path: '/ws/src/a.ts', start_line: 10, end_line: 20, is_success: true },
      { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
    ]);
    // Without a cwd there is none to report.
    expect(await events(...call('run_shell_command', { command: 'make' }))).toEqual([
      { type: 'command', command: 'make', is_success: true },
    ]);
  });

  test('skill: skill, skill_name = skill, path skills/<name>/SKILL.md under the working directory', async () => {
    expect(await events(init, ...call('skill', { skill: 'greeting', args: 'Ada' }, 'How to greet people.'))).toEqual([
      { type: 'skill', path: '/ws/skills/greeting/SKILL.md', skill_name: 'greeting', is_success: true },
    ]);
  });

  test('agent (legacy task): orchestration, subagent_id = the tool-use id', async () => {
    expect(
      await events(...call('task', { description: 'd', prompt: 'p', subagent_type: 'review-agent' }, 'Reviewed.')),
    ).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'call_task',
        subagent_name: 'review-agent',
        is_success: true,
      },
    ]);
  });

  test('tool_call: classified as the tool named by input.name, with input.arguments as its input', async () => {
    const deferred = (name: unknown, args: unknown) => ({ name, arguments: args });
    expect(
      await events(
        init,
        ...call('tool_call', deferred('read_file', { file_path: '/ws/a.ts', offset: 4, limit: 2 })),
        ...call('tool_call', deferred('run_shell_command', { command: 'npm test' }), shellBlock('npm test', '1'), true),
        ...call('tool_call', deferred('structured_output', { answer: 42 })),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts', start_line: 5, end_line: 6, is_success: true },
      { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 1, is_success: false },
    ]);
    // A tool with no row, a tool_call inside a tool_call, or no name: unknown, the call and its result.
    for (const input of [
      deferred('web_fetch', { url: 'https://x' }),
      deferred('tool_call', deferred('read_file', { file_path: '/a' })),
      deferred(7, {}),
      deferred('constructor', {}),
    ]) {
      expect(await events(...call('tool_call', input)), JSON.stringify(input)).toEqual([
        unknownCall('tool_call', input),
      ]);
    }
  });

  test('structured_output: consumed, call and result', async () => {
    expect(await events(...call('structured_output', { answer: 'hello' }))).toEqual([]);
  });

  test(
    'any other tool (todo_write, web_fetch, web_search, save_memory, goals, cron, MCP, ...) is unknown, ' +
      'carrying the call and its result',
    async () => {
      for (const name of [
        'todo_write',
        'web_fetch',
        'web_search',
        'save_memory',
        'update_goal',
        'cron_create',
        'mcp__github__create_issue',
        'Read',
        'Bash',
        'constructor',
        '__proto__',
      ]) {
        expect(await events(...call(name, { any: 'input' })), name).toEqual([unknownCall(name, { any: 'input' })]);
      }
    },
  );
});

describe('state is bounded and settled (docs/contract.md)', () => {
  test(
    'past maxPendingTools the oldest waiting call is ' + 'emitted unresolved, and its late result is then unpaired',
    async () => {
      const records = [
        assistant([
          toolUse('a', 'read_file', { file_path: '/a' }),
          toolUse('b', 'read_file', { file_path: '/b' }),
          toolUse('c', 'read_file', { file_path: '/c' }),
        ]),
        user([toolResult('a')]),
        user([toolResult('c')]),
      ];
      expect(bodies((await run(jsonl(...records), { harness, maxPendingTools: 2 })).events)).toEqual([
        { type: 'read', path: '/a' },
        { type: 'unknown', raw: toolResult('a') },
        { type: 'read', path: '/c', is_success: true },
        { type: 'read', path: '/b' },
      ]);
    },
  );

  test(
    'background agents are held within maxPendingTools: past it the oldest is forgotten (its name, its ' +
      '"launched" result)',
    async () => {
      const started = (id: string) =>
        system('task_started', { task_id: `Explore-${id}`, tool_use_id: id, subagent_type: 'Explore' });
      const records = [
        started('a'),
        started('b'),
        user([toolResult('a', 'Background agent launched successfully.')]),
        system('task_notification', { tool_use_id: 'a', status: 'completed' }),
      ];
      expect(bodies((await run(jsonl(...records), { harness, maxPendingTools: 1 })).events)).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'a',
          subagent_name: 'Explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'b',
          subagent_name: 'Explore',
          is_success: true,
        },
        { type: 'unknown', raw: toolResult('a', 'Background agent launched successfully.') },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'a', is_success: true },
      ]);
    },
  );

  test("a record's text longer than maxSpanBytes is emitted in parts, with a warning", async () => {
    const { events: out } = await run(jsonl(assistant([text('a'.repeat(6)), text('b'.repeat(6)), text('c')])), {
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
