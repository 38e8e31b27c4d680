/**
 * One test per row of claude-code.md's tables, on authored lines in Claude Code's real shapes
 * (docs/harnesses/claude-code.md), for the rows no real capture covers and to pin each rule alone.
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/claude-code/correlate.js';

const harness = 'claude-code';
const session = 'sess-1';
const init = { type: 'system', subtype: 'init', cwd: '/ws', session_id: session, tools: ['Read'] };

function assistant(id: string, ...content: unknown[]) {
  return {
    type: 'assistant',
    message: { id, type: 'message', role: 'assistant', content },
    parent_tool_use_id: null,
    session_id: session,
  };
}
function user(content: unknown, extra: Record<string, unknown> = {}) {
  return { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: session, ...extra };
}
function toolUse(id: string, name: string, input: unknown) {
  return { type: 'tool_use', id, name, input };
}
function toolResult(id: string, content: unknown = 'ok', extra: Record<string, unknown> = {}) {
  return { tool_use_id: id, type: 'tool_result', content, ...extra };
}
/** A tool call and its result, as two lines. */
function call(name: string, input: unknown, result: Record<string, unknown> = {}, tool_use_result?: unknown) {
  return [
    assistant(`msg_${name}`, toolUse(`toolu_${name}`, name, input)),
    user([toolResult(`toolu_${name}`, 'ok', result)], tool_use_result === undefined ? {} : { tool_use_result }),
  ];
}

/** The unknown event a call whose tool has no row becomes: the call and its result, verbatim. */
function unknownCall(name: string, input: unknown) {
  return {
    type: 'unknown',
    raw: { tool_use: toolUse(`toolu_${name}`, name, input), tool_result: toolResult(`toolu_${name}`) },
  };
}

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness })).events);
}

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
      { type: 'control_request', request_id: 'r' },
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

describe('normalized mapping', () => {
  test('text blocks of one message, arriving as several lines, are joined into one agent message', async () => {
    expect(
      await events(
        assistant('m1', { type: 'text', text: 'Part one, ' }),
        assistant('m1', { type: 'text', text: 'part two.' }),
        assistant('m2', { type: 'text', text: 'Next message.' }),
      ),
    ).toEqual([
      { type: 'agent', message: 'Part one, part two.' },
      { type: 'agent', message: 'Next message.' },
    ]);
  });

  test(
    'thinking blocks are joined per message into ' + 'reasoning; empty (signature-only) thinking says nothing',
    async () => {
      expect(
        await events(
          assistant('m1', { type: 'thinking', thinking: '', signature: 'sig' }),
          assistant(
            'm1',
            { type: 'thinking', thinking: 'First, ', signature: 'sig' },
            { type: 'thinking', thinking: 'then.', signature: 'sig' },
          ),
          assistant('m1', { type: 'text', text: 'Answer.' }),
        ),
      ).toEqual([
        { type: 'reasoning', message: 'First, then.' },
        { type: 'agent', message: 'Answer.' },
      ]);
    },
  );

  test('a tool use between two text blocks splits them, in order', async () => {
    expect(
      await events(
        assistant('m1', { type: 'text', text: 'Reading.' }, toolUse('t1', 'Read', { file_path: '/a' }), {
          type: 'text',
          text: 'Meanwhile.',
        }),
        user([toolResult('t1')]),
      ),
    ).toEqual([
      { type: 'agent', message: 'Reading.' },
      { type: 'agent', message: 'Meanwhile.' },
      { type: 'read', path: '/a', is_success: true },
    ]);
  });

  test('redacted_thinking is consumed', async () => {
    expect(await events(assistant('m1', { type: 'redacted_thinking', data: 'EmwK...' }))).toEqual([]);
  });

  test('an unrecognized assistant block, a malformed tool use, or a malformed message is unknown', async () => {
    const server = { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} };
    const noId = { type: 'tool_use', name: 'Read', input: {} };
    const badText = { type: 'text', text: 42 };
    const malformed = { type: 'assistant', message: { content: 'a string' }, session_id: session };
    expect(await events(assistant('m1', server, noId, badText), malformed)).toEqual([
      { type: 'unknown', raw: server },
      { type: 'unknown', raw: noId },
      { type: 'unknown', raw: badText },
      { type: 'unknown', raw: malformed },
    ]);
  });

  test('an unrecognized user block, or a user line without content, is unknown', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const empty = { type: 'user', session_id: session };
    expect(await events(user([image]), empty)).toEqual([
      { type: 'unknown', raw: image },
      { type: 'unknown', raw: empty },
    ]);
  });
});

describe('tool mapping', () => {
  test('calls are paired by tool_use_id, not by order', async () => {
    expect(
      await events(
        assistant(
          'm1',
          toolUse('a', 'Read', { file_path: '/a' }),
          toolUse('b', 'Write', { file_path: '/b', content: 'x' }),
        ),
        user([toolResult('b')]),
        user([toolResult('a', 'boom', { is_error: true })]),
      ),
    ).toEqual([
      { type: 'write', path: '/b', is_success: true },
      { type: 'read', path: '/a', is_success: false },
    ]);
  });

  test('success from is_error (absent means success) and from interruption', async () => {
    expect(
      await events(
        assistant(
          'm1',
          toolUse('a', 'Bash', { command: 'sleep 100' }),
          toolUse('b', 'Bash', { command: 'make' }),
          toolUse('c', 'Bash', { command: 'make test' }),
        ),
        user([toolResult('a', 'Interrupted', { is_error: false })], {
          tool_use_result: { stdout: '', stderr: '', interrupted: true },
        }),
        user([toolResult('b', 'Exit code 2\nfailed', { is_error: true })], { tool_use_result: 'Error: Exit code 2' }),
        user([toolResult('c')]),
      ),
    ).toEqual([
      { type: 'command', command: 'sleep 100', is_success: false },
      { type: 'command', command: 'make', is_success: false },
      { type: 'command', command: 'make test', is_success: true },
    ]);
  });

  test(
    'an ambiguous id match (two different calls under one id) is unknown; the same call restated is not ' + 'ambiguous',
    async () => {
      const first = toolUse('dup', 'Read', { file_path: '/a' });
      const second = toolUse('dup', 'Bash', { command: 'rm -rf /' });
      const result = toolResult('dup');
      expect(await events(assistant('m1', first), assistant('m1', second), user([result]))).toEqual([
        { type: 'unknown', raw: { tool_use: [first, second], tool_result: result } },
      ]);
      expect(await events(assistant('m1', first), assistant('m1', first), user([result]))).toEqual([
        { type: 'read', path: '/a', is_success: true },
      ]);
    },
  );

  test(
    'a Read result with no recorded call is recovered from its file metadata; any other unpaired result is ' +
      'unknown',
    async () => {
      const orphanRead = toolResult('never-seen', '1\thello');
      const orphan = toolResult('also-never-seen', 'ok');
      expect(
        await events(
          init,
          user([orphanRead], {
            tool_use_result: {
              type: 'text',
              file: { filePath: 'notes.txt', content: 'x', numLines: 4, startLine: 3, totalLines: 9 },
            },
          }),
          user([orphan], { tool_use_result: { stdout: 'ok' } }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/notes.txt', start_line: 3, end_line: 6, is_success: true },
        { type: 'unknown', raw: orphan },
      ]);
    },
  );

  test('Read: the line range from offset (first line) and limit (count)', async () => {
    expect(
      await events(
        ...call('Read', { file_path: '/f', offset: 125, limit: 10 }),
        ...call('Read', { file_path: '/f', offset: 7 }),
        ...call('Read', { file_path: '/f', limit: 5 }),
        ...call('Read', { file_path: '/f', offset: 0, limit: 'ten' }),
        ...call('Read', { file_path: '/doc.pdf', pages: '1-5' }),
      ),
    ).toEqual([
      { type: 'read', path: '/f', start_line: 125, end_line: 134, is_success: true },
      { type: 'read', path: '/f', start_line: 7, is_success: true },
      { type: 'read', path: '/f', start_line: 1, end_line: 5, is_success: true },
      { type: 'read', path: '/f', is_success: true },
      { type: 'read', path: '/doc.pdf', is_success: true },
    ]);
  });

  test('Write, Edit, MultiEdit and NotebookEdit are writes', async () => {
    expect(
      await events(
        init,
        ...call('Write', { file_path: 'new.ts', content: 'secret' }),
        ...call('Edit', { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b' }),
        ...call('MultiEdit', { file_path: '/ws/b.ts', edits: [{ old_string: 'a', new_string: 'b' }] }),
        ...call('NotebookEdit', { notebook_path: '/ws/nb.ipynb', new_source: 'x', cell_id: 'c1' }),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/new.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/b.ts', is_success: true },
      { type: 'write', path: '/ws/nb.ipynb', is_success: true },
    ]);
  });

  test('Grep and Glob are searches', async () => {
    expect(
      await events(
        init,
        ...call('Grep', { pattern: 'TODO', path: 'src', output_mode: 'content', '-n': 'true' }),
        ...call('Glob', { pattern: '**/*.ts' }),
      ),
    ).toEqual([
      { type: 'search', query: 'TODO', path: '/ws/src', is_success: true },
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
  });

  test('LS is a list', async () => {
    expect(await events(...call('LS', { path: '/ws/services' }))).toEqual([
      { type: 'list', path: '/ws/services', is_success: true },
    ]);
  });

  test(
    'Bash that is recognizably file operations becomes them, keeping its success; a mixed command stays a ' + 'command',
    async () => {
      expect(
        await events(
          init,
          ...call('Bash', { command: "cd src && sed -n '10,20p' a.ts && cat /etc/hosts" }, { is_error: true }),
          ...call('Bash', { command: 'rg -n TODO lib | head -n 5' }),
          ...call('Bash', { command: 'cat a.ts && npm test' }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/src/a.ts', start_line: 10, end_line: 20, is_success: false },
        { type: 'read', path: '/etc/hosts', is_success: false },
        { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
        // The failed `cd src` was not kept (claude-code.md "Shell directory").
        { type: 'command', command: 'cat a.ts && npm test', working_directory: '/ws', is_success: true },
      ]);
    },
  );

  test(
    'Bash: a search whose whole result is `Exit code 1` completed without a match (docs/contract.md); any other ' +
      'failure stays a failure',
    async () => {
      const bash = (id: string, command: string, content: unknown) => [
        assistant(`msg_${id}`, toolUse(id, 'Bash', { command })),
        user([toolResult(id, content, { is_error: true })]),
      ];
      expect(
        await events(
          init,
          ...bash('t1', 'rg -n zzz src', 'Exit code 1'),
          ...bash('t2', 'grep -rn zzz .', [{ type: 'text', text: 'Exit code 1' }]),
          ...bash('t3', 'rg -n zzz src', 'Exit code 2\nrg: src: No such file or directory'),
          ...bash('t4', 'rg -n zzz src', 'Exit code 1\nsomething printed'),
          // Exit status of the pipeline is head's, and `cat` may have been what failed: not the search's.
          ...bash('t5', 'rg -n zzz src | head -n 3', 'Exit code 1'),
          ...bash('t6', 'cat a.txt && rg zzz', 'Exit code 1'),
          // One search among reads, ending the script unconditionally: only the search changes.
          ...bash('t7', 'cat a.txt; rg zzz', 'Exit code 1'),
          // Not a search: a read that exited 1 failed.
          ...bash('t8', 'cat missing.txt', 'Exit code 1'),
          // A command event carries no exit code (Claude reports none), whatever its text.
          ...bash('t9', 'npm test', 'Exit code 1'),
        ),
      ).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'read', path: '/ws/a.txt', is_success: false },
        { type: 'search', query: 'zzz', is_success: false },
        { type: 'read', path: '/ws/a.txt', is_success: false },
        { type: 'search', query: 'zzz', is_success: true },
        { type: 'read', path: '/ws/missing.txt', is_success: false },
        { type: 'command', command: 'npm test', working_directory: '/ws', is_success: false },
      ]);
    },
  );

  test('Bash is a command; Claude reports no exit code', async () => {
    expect(await events(...call('Bash', { command: 'npm test', description: 'run tests', timeout: 600000 }))).toEqual([
      { type: 'command', command: 'npm test', is_success: true },
    ]);
  });

  test('Skill is a skill, its path synthesized as skills/<name>/SKILL.md under the workspace', async () => {
    expect(await events(init, ...call('Skill', { skill: 'greet', args: 'Ada' }))).toEqual([
      { type: 'skill', path: '/ws/skills/greet/SKILL.md', skill_name: 'greet', is_success: true },
    ]);
  });

  test('StructuredOutput: neither the call nor its result is an event', async () => {
    expect(await events(...call('StructuredOutput', { answer: 'hello world' }))).toEqual([]);
  });

  test(
    'any other tool (MCP, web, todo, Task and its new ' + 'name Agent) is unknown, carrying the call and its result',
    async () => {
      for (const name of [
        'mcp__github__create_issue',
        'WebFetch',
        'TodoWrite',
        'Task',
        'Agent',
        'constructor',
        '__proto__',
      ]) {
        expect(await events(...call(name, { any: 'input' })), name).toEqual([unknownCall(name, { any: 'input' })]);
      }
    },
  );

  test('a known tool whose input does not fit its row is unknown', async () => {
    expect(await events(...call('Read', { path: '/wrong/field' }))).toEqual([
      unknownCall('Read', { path: '/wrong/field' }),
    ]);
  });
});

describe('state is bounded and settled (docs/contract.md)', () => {
  test('calls still waiting at the end of input are emitted with is_success unset, oldest first', async () => {
    expect(
      await events(assistant('m', toolUse('a', 'Read', { file_path: '/a' }), toolUse('b', 'Glob', { pattern: '*' }))),
    ).toEqual([
      { type: 'read', path: '/a' },
      { type: 'search', query: '*' },
    ]);
  });

  test(
    'past maxPendingTools the oldest waiting call is ' + 'emitted unresolved, and its late result is then unpaired',
    async () => {
      const records = [
        assistant(
          'm',
          toolUse('a', 'Read', { file_path: '/a' }),
          toolUse('b', 'Read', { file_path: '/b' }),
          toolUse('c', 'Read', { file_path: '/c' }),
        ),
        user([toolResult('a')]),
        user([toolResult('c')]),
      ];
      const { events: out } = await run(jsonl(...records), { harness, maxPendingTools: 2 });
      expect(bodies(out)).toEqual([
        { type: 'read', path: '/a' },
        { type: 'unknown', raw: toolResult('a') },
        { type: 'read', path: '/c', is_success: true },
        { type: 'read', path: '/b' },
      ]);
    },
  );

  test('an agent message longer than maxSpanBytes is emitted in parts, with a warning', async () => {
    const { events: out } = await run(
      jsonl(
        assistant('m', { type: 'text', text: 'a'.repeat(6) }),
        assistant('m', { type: 'text', text: 'b'.repeat(6) }),
        assistant('m', { type: 'text', text: 'c' }),
      ),
      { harness, maxSpanBytes: 10 },
    );
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
