/** claude-code.md's raw event stream rows, interleaved writes, the session id. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/claude-code/correlate.js';
import { harness, session, init, assistant, user, toolUse, call, events } from './lines.js';

describe('raw event stream', () => {
  test('system/init: its cwd resolves relative paths; init, status and thinking_tokens emit nothing', async () => {
    expect(
      await events(
        init,
        { type: 'system', subtype: 'status', status: 'requesting', session_id: session },
        { type: 'system', subtype: 'thinking_tokens', estimated_tokens: 5, session_id: session },
        ...call('Read', { file_path: 'src/../a.ts' }),
      ),
    ).toEqual([{ type: 'read', path: '/ws/a.ts', is_success: true }]);
  });

  test('the cwd option wins over init; a second init does not move the cwd', async () => {
    const records = [init, { ...init, cwd: '/elsewhere' }, ...call('Read', { file_path: 'a.ts' })];
    expect(bodies((await run(jsonl(...records), { harness, cwd: '/opt/run' })).events)).toEqual([
      { type: 'read', path: '/opt/run/a.ts', is_success: true },
    ]);
    expect(await events(...records)).toEqual([{ type: 'read', path: '/ws/a.ts', is_success: true }]);
  });

  test('without any cwd a relative path is reported as given', async () => {
    expect(await events(...call('Read', { file_path: 'a.ts' }))).toEqual([
      { type: 'read', path: 'a.ts', is_success: true },
    ]);
  });

  test('system with another subtype is unknown, verbatim', async () => {
    const tasks = { type: 'system', subtype: 'background_tasks_changed', tasks: [], session_id: session };
    const noSubtype = { type: 'system', session_id: session };
    expect(await events(tasks, noSubtype)).toEqual([
      { type: 'unknown', raw: tasks },
      { type: 'unknown', raw: noSubtype },
    ]);
  });

  test('assistant: text is activity, tool use is recorded (no event until its result)', async () => {
    expect(
      await events(assistant('m1', { type: 'text', text: 'Hello.' }, toolUse('t1', 'Read', { file_path: '/a' }))),
    ).toEqual([
      { type: 'agent', message: 'Hello.' },
      // The call never got a result: at the end of input it is emitted with its outcome unset.
      { type: 'read', path: '/a' },
    ]);
  });

  test('user: tool results resolve recorded calls; echoed prompt and injected text emit nothing', async () => {
    expect(
      await events(
        user('the prompt, as a string'),
        user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
        ...call('Read', { file_path: '/a' }),
      ),
    ).toEqual([{ type: 'read', path: '/a', is_success: true }]);
  });

  test('rate_limit_event: allowed is consumed, any other status is a warning', async () => {
    const event = (info: unknown) => ({ type: 'rate_limit_event', rate_limit_info: info, session_id: session });
    expect(
      await events(
        event({ status: 'allowed', resetsAt: 1796008004 }),
        event({ status: 'allowed_warning', rateLimitType: 'seven_day', utilization: 0.91, resetsAt: 1796008004 }),
        event({ status: 'rejected' }),
        event(null),
      ),
    ).toEqual([
      {
        type: 'warning',
        code: 'rate_limit_allowed_warning',
        message: 'Claude Code rate limit allowed_warning (seven_day, 91% used, resets 2026-11-30T03:06:44.000Z)',
      },
      { type: 'warning', code: 'rate_limit_rejected', message: 'Claude Code rate limit rejected' },
      { type: 'warning', code: 'rate_limit_unknown', message: 'Claude Code rate limit unknown' },
    ]);
  });

  test('result: usage, cost, turns, duration and final output go to the metrics; a success emits nothing', async () => {
    const result = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: 1200,
      num_turns: 3,
      result: 'Done.',
      total_cost_usd: 0.25,
      session_id: session,
      usage: {
        input_tokens: 10,
        output_tokens: 50,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 200,
        output_tokens_details: { thinking_tokens: 20 },
      },
    };
    const { events: out, metrics } = await run(jsonl(result), { harness });
    expect(out).toEqual([]);
    expect(metrics).toMatchObject({
      ended: true,
      is_error: false,
      final_output: 'Done.',
      cost: 0.25,
      turns: 3,
      duration_ms: 1200,
      tokens: { input: 10, output: 30, reasoning: 20, cache_read: 1000, cache_write: 200 },
    });
  });

  test(
    'result repeats (a background task starts a new turn): usage, turns and duration add up, cost and output ' +
      'are the last',
    async () => {
      const result = (n: number, cost: number, text: string) => ({
        type: 'result',
        subtype: 'success',
        is_error: false,
        duration_ms: 100 * n,
        num_turns: n,
        result: text,
        total_cost_usd: cost,
        session_id: session,
        usage: { input_tokens: 100 * n, output_tokens: 10 * n },
      });
      const { metrics } = await run(
        jsonl(
          result(1, 0.1, 'first'),
          assistant('m9', { type: 'text', text: 'after the result' }),
          result(2, 0.3, 'second'),
        ),
        { harness },
      );
      expect(metrics).toMatchObject({
        tokens: { input: 300, output: 30 },
        turns: 3,
        duration_ms: 300,
        cost: 0.3,
        final_output: 'second',
      });
    },
  );

  test('result reporting an error: is_error true or an error_* subtype is an error event', async () => {
    const base = { type: 'result', session_id: session, usage: {} };
    expect(
      await events(
        {
          ...base,
          subtype: 'success',
          is_error: true,
          result: 'Invalid API key · Fix external API key',
          terminal_reason: 'api_error',
        },
        { ...base, subtype: 'error_during_execution', is_error: false, errors: ['No conversation found', 'second'] },
        { ...base, subtype: 'error_max_budget_usd', is_error: true, result: null },
      ),
    ).toEqual([
      { type: 'error', message: 'Invalid API key · Fix external API key', code: 'api_error' },
      { type: 'error', message: 'No conversation found; second', code: 'error_during_execution' },
      { type: 'error', message: 'Claude Code ended in error (error_max_budget_usd)', code: 'error_max_budget_usd' },
    ]);
  });

  test('stream_event is consumed', async () => {
    expect(
      await events({
        type: 'stream_event',
        event: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'Hel' } },
        session_id: session,
      }),
    ).toEqual([]);
  });

  test('any other type, and JSON that is not a typed object, is unknown, verbatim', async () => {
    const records = [
      { type: 'tool_progress', tool_use_id: 't', elapsed_time_seconds: 3 },
      [1, 2],
      'text',
      7,
      null,
      { no: 'type' },
    ];
    expect(await events(...records.map((record) => JSON.stringify(record)))).toEqual(
      records.map((raw) => ({ type: 'unknown', raw })),
    );
  });

  test('a non-JSON line is a warning carrying the line, and the stream goes on', async () => {
    const { events: out } = await run(
      `Service not running, starting service...\n${jsonl(assistant('m', { type: 'text', text: 'hi' }))}{"type":"assis`,
      { harness },
    );
    expect(bodies(out)).toEqual([
      { type: 'warning', message: 'Service not running, starting service...', code: 'not_json' },
      { type: 'agent', message: 'hi' },
      { type: 'warning', message: '{"type":"assis', code: 'not_json' },
    ]);
  });
});

describe('interleaved writes (anthropics/claude-code#49640)', () => {
  test(
    'a rate_limit_event written into the middle of an ' + 'assistant line: both records recovered, the reply not lost',
    async () => {
      const outer = JSON.stringify(assistant('m1', { type: 'text', text: 'The tests pass now.' }));
      const inner = JSON.stringify({
        type: 'rate_limit_event',
        rate_limit_info: { status: 'rejected' },
        session_id: session,
      });
      const cut = outer.indexOf('pass');
      const { events: out, rules } = await run(`${outer.slice(0, cut)}${inner}\n${outer.slice(cut)}\n`, { harness });
      expect(bodies(out)).toEqual([
        { type: 'warning', code: 'rate_limit_rejected', message: 'Claude Code rate limit rejected' },
        { type: 'agent', message: 'The tests pass now.' },
      ]);
      expect(rules).toEqual([records.rate_limit_event.rules.other, records.assistant.rules.blocks]);
    },
  );

  test('when nothing completes the head, it is a warning carrying its text', async () => {
    const outer = JSON.stringify(assistant('m1', { type: 'text', text: 'cut off' }));
    const inner = JSON.stringify({ type: 'stream_event', session_id: session });
    const head = outer.slice(0, 40);
    const { events: out, rules } = await run(`${head}${inner}\n${JSON.stringify(init)}\n`, { harness });
    expect(bodies(out)).toEqual([{ type: 'warning', code: 'interleaved_fragment', message: head }]);
    expect(rules).toEqual([records.stream_event.rules.consumed, records.system.rules.init]);
  });
});

describe('session id', () => {
  test(
    "the first non-empty session_id is the stream's; " + 'events before it carry none, later ones all carry it',
    async () => {
      const { events: out, metrics } = await run(
        jsonl(
          { type: 'system', subtype: 'hook_started', hook_id: 'h' },
          { type: 'system', subtype: 'hook_response', hook_id: 'h', session_id: '' },
          { ...init, session_id: 'first' },
          'not json',
          { type: 'mystery', session_id: 'second' },
        ),
        { harness },
      );
      expect(out.map((e) => e.session_id)).toEqual([undefined, undefined, 'first', 'first']);
      expect(metrics.session_id).toBe('first');
    },
  );
});
