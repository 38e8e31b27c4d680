/**
 * One test per row of gemini.md's tables ("Raw event stream", "Run metrics", "Tools"), on
 * authored lines in Gemini CLI 0.61.0's shapes (docs/harnesses/gemini.md "Raw event stream"),
 * for the rows no capture covers and to pin each rule alone.
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { records } from '../../../lib/harnesses/gemini/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const harness = 'gemini';
const cwd = '/ws';
const at = '2026-12-01T00:00:00.000Z';

const init = { type: 'init', timestamp: at, session_id: 'sess-1', model: 'gemini-2.5-flash' };
const prompt = { type: 'message', timestamp: at, role: 'user', content: 'Do the thing.' };
function say(content: string) {
  return { type: 'message', timestamp: at, role: 'assistant', content, delta: true };
}
function use(tool_name: string, tool_id: string, parameters: unknown) {
  return { type: 'tool_use', timestamp: at, tool_name, tool_id, parameters };
}
function ok(tool_id: string, output?: string) {
  return {
    type: 'tool_result',
    timestamp: at,
    tool_id,
    status: 'success',
    ...(output === undefined ? {} : { output }),
  };
}
function failed(tool_id: string, type: string, message: string) {
  return { type: 'tool_result', timestamp: at, tool_id, status: 'error', output: message, error: { type, message } };
}
function stats(
  total_tokens: number,
  input_tokens: number,
  output_tokens: number,
  cached: number,
  extra: Record<string, unknown> = {},
) {
  const counts = { total_tokens, input_tokens, output_tokens, cached, input: Math.max(0, input_tokens - cached) };
  return { ...counts, duration_ms: 1200, tool_calls: 2, models: { 'gemini-2.5-flash': counts }, ...extra };
}
const success = { type: 'result', timestamp: at, status: 'success', stats: stats(120, 100, 20, 0) };

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness, cwd })).events);
}

/** The events of one call: its tool_use, then its result. */
function call(name: string, parameters: unknown, result: (id: string) => unknown = (id) => ok(id)) {
  const id = `${name}__${name}_1796086709913_0`;
  return events(use(name, id, parameters), result(id));
}

describe('raw event stream', () => {
  test('init: its session_id is the session id of every later event; model consumed; no event', async () => {
    const { events: out, metrics, rules } = await run(jsonl(say('before'), init, say('after')), { harness });
    expect(untimed(out)).toEqual([
      { type: 'agent', message: 'before' },
      { type: 'agent', message: 'after', session_id: 'sess-1' },
    ]);
    expect(metrics.session_id).toBe('sess-1');
    expect(rules).toEqual([
      records.message.rules.assistant,
      records.init.rules.session,
      records.message.rules.assistant,
    ]);
  });

  test(
    'init without a session_id string is unknown, ' + 'verbatim; a later init does not replace the session id',
    async () => {
      const bad = { type: 'init', session_id: '', model: 'm' };
      const { events: out } = await run(jsonl(bad, init, { ...init, session_id: 'sess-2' }, say('hi')), { harness });
      expect(untimed(out)).toEqual([
        { type: 'unknown', raw: bad },
        { type: 'agent', message: 'hi', session_id: 'sess-1' },
      ]);
    },
  );

  test('message with role user: consumed (the prompt, echoed)', async () => {
    const out = await run(jsonl(init, prompt, { ...prompt, content: ['not text'] }), { harness });
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.init.rules.session, records.message.rules.user, records.message.rules.user]);
  });

  test(
    'message with role assistant: deltas joined into one agent event, flushed by any other record and at the ' +
      'end of input',
    async () => {
      const id = 'list_directory__1';
      expect(
        await events(
          init,
          say('Hello'),
          say(' from'),
          say(' the lab!'),
          use('list_directory', id, { dir_path: 'src' }),
          ok(id),
          say('Second '),
          say('span.'),
        ),
      ).toEqual([
        { type: 'agent', message: 'Hello from the lab!' },
        { type: 'list', path: '/ws/src', is_success: true },
        { type: 'agent', message: 'Second span.' },
      ]);
    },
  );

  test(
    'message with role assistant: an empty span emits ' + 'nothing; a user message and an error record flush it too',
    async () => {
      const warning = { type: 'error', timestamp: at, severity: 'warning', message: 'Loop detected' };
      expect(await events(say(''), say(''), prompt, say('one'), prompt, say('two'), warning, say(''), success)).toEqual(
        [
          { type: 'agent', message: 'one' },
          { type: 'agent', message: 'two' },
          { type: 'warning', message: 'Loop detected' },
        ],
      );
    },
  );

  test('message with any other role, or assistant content that is not a string, is unknown', async () => {
    const system = { type: 'message', role: 'system', content: 'x' };
    const noRole = { type: 'message', content: 'x' };
    const noContent = { type: 'message', role: 'assistant', delta: true };
    expect(await events(say('a'), system, noRole, noContent)).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'unknown', raw: system },
      { type: 'unknown', raw: noRole },
      { type: 'unknown', raw: noContent },
    ]);
  });

  test(
    'tool_use: recorded under tool_id, no event until its result; parallel calls announced before their results ' +
      'pair by id',
    async () => {
      const out = await run(
        jsonl(
          use('read_file', 'read_file__a', { file_path: 'a.ts' }),
          use('read_file', 'read_file__b', { file_path: 'b.ts' }),
          ok('read_file__b'),
          failed('read_file__a', 'file_not_found', 'File not found: /ws/a.ts'),
        ),
        { harness, cwd },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'read', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/a.ts', is_success: false },
      ]);
      expect(out.rules).toEqual([
        records.tool_use.rules.recorded,
        records.tool_use.rules.recorded,
        records.tool_result.rules.resolved,
        records.tool_result.rules.resolved,
      ]);
    },
  );

  test(
    'tool_use without a tool_id or tool_name, or with an id already waiting, is unknown; the first call keeps ' +
      'its result',
    async () => {
      const noId = { type: 'tool_use', tool_name: 'read_file', parameters: {} };
      const noName = { type: 'tool_use', tool_id: 'x', parameters: {} };
      const first = use('read_file', 'read_file__a', { file_path: 'a.ts' });
      const again = use('read_file', 'read_file__a', { file_path: 'other.ts' });
      expect(await events(noId, noName, first, again, ok('read_file__a'))).toEqual([
        { type: 'unknown', raw: noId },
        { type: 'unknown', raw: noName },
        { type: 'unknown', raw: again },
        { type: 'read', path: '/ws/a.ts', is_success: true },
      ]);
    },
  );

  test('tool_result: success is status == "success"; error is false; any other status leaves it unset', async () => {
    const other = { ...ok('read_file__c'), status: 'cancelled' };
    expect(
      await events(
        use('read_file', 'read_file__a', { file_path: 'a' }),
        ok('read_file__a'),
        use('read_file', 'read_file__b', { file_path: 'b' }),
        failed('read_file__b', 'read_content_failure', 'nope'),
        use('read_file', 'read_file__c', { file_path: 'c' }),
        other,
      ),
    ).toEqual([
      { type: 'read', path: '/ws/a', is_success: true },
      { type: 'read', path: '/ws/b', is_success: false },
      { type: 'read', path: '/ws/c' },
    ]);
  });

  test(
    'tool_result whose tool_id was never announced ' + '(or already resolved) is unknown, carrying the result',
    async () => {
      const stray = ok('read_file__never', 'x');
      const twice = ok('read_file__a');
      const noId = { type: 'tool_result', status: 'success' };
      const out = await run(
        jsonl(stray, use('read_file', 'read_file__a', { file_path: 'a' }), ok('read_file__a'), twice, noId),
        { harness, cwd },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'unknown', raw: stray },
        { type: 'read', path: '/ws/a', is_success: true },
        { type: 'unknown', raw: twice },
        { type: 'unknown', raw: noId },
      ]);
      expect(out.rules[0]).toBe(records.tool_result.rules.unpaired);
    },
  );

  test(
    'error with severity warning: a warning with its ' + 'message, no code (loop detected, a hook blocking the agent)',
    async () => {
      expect(
        await events(
          { type: 'error', timestamp: at, severity: 'warning', message: 'Loop detected, stopping execution' },
          {
            type: 'error',
            timestamp: at,
            severity: 'warning',
            message: 'Agent execution blocked: policy hook said no',
          },
        ),
      ).toEqual([
        { type: 'warning', message: 'Loop detected, stopping execution' },
        { type: 'warning', message: 'Agent execution blocked: policy hook said no' },
      ]);
    },
  );

  test(
    'error with severity error: an error with its message, no code (maximum session turns); it does not end the ' +
      'run',
    async () => {
      const { events: out, metrics } = await run(
        jsonl({ type: 'error', timestamp: at, severity: 'error', message: 'Maximum session turns exceeded.' }),
        { harness },
      );
      expect(bodies(out)).toEqual([{ type: 'error', message: 'Maximum session turns exceeded.' }]);
      expect(metrics).toMatchObject({ ended: false });
      expect(metrics.is_error).toBeUndefined();
    },
  );

  test('error with another severity or without a message is unknown', async () => {
    const info = { type: 'error', severity: 'info', message: 'x' };
    const noMessage = { type: 'error', severity: 'error' };
    expect(await events(info, noMessage)).toEqual([
      { type: 'unknown', raw: info },
      { type: 'unknown', raw: noMessage },
    ]);
  });

  test('result status success: no event; the run ended, not in error', async () => {
    const { events: out, metrics, rules } = await run(jsonl(init, say('done'), success), { harness });
    expect(bodies(out)).toEqual([{ type: 'agent', message: 'done' }]);
    expect(metrics).toMatchObject({ ended: true, is_error: false });
    expect(rules.at(-1)).toBe(records.result.rules.success);
  });

  test(
    'result status error with an error object: an error with error.message, code error.type; the run ended in ' +
      'error',
    async () => {
      const fatal = {
        type: 'result',
        timestamp: at,
        status: 'error',
        error: { type: 'FatalTurnLimitedError', message: 'Reached max session turns for this session.' },
        stats: stats(0, 0, 0, 0),
      };
      const { events: out, metrics } = await run(jsonl(init, fatal), { harness });
      expect(bodies(out)).toEqual([
        { type: 'error', message: 'Reached max session turns for this session.', code: 'FatalTurnLimitedError' },
      ]);
      expect(metrics).toMatchObject({ ended: true, is_error: true });
    },
  );

  test(
    'result status error without an error object (an invalid stream, already reported): no event, the run ended ' +
      'in error',
    async () => {
      const invalid = { type: 'result', timestamp: at, status: 'error', stats: stats(10, 10, 0, 0) };
      const { events: out, metrics, rules } = await run(jsonl(invalid), { harness });
      expect(out).toEqual([]);
      expect(metrics).toMatchObject({ ended: true, is_error: true });
      expect(rules).toEqual([records.result.rules.reported]);
    },
  );

  test(
    'result with another status, or an error object ' + 'without a message, is unknown; its stats still count',
    async () => {
      const odd = { type: 'result', status: 'cancelled', stats: stats(30, 20, 10, 0) };
      const noMessage = { type: 'result', status: 'error', error: { type: 'unknown' }, stats: stats(50, 40, 10, 0) };
      const first = await run(jsonl(odd), { harness });
      expect(bodies(first.events)).toEqual([{ type: 'unknown', raw: odd }]);
      expect(first.metrics).toMatchObject({ ended: true, tokens: { input: 20, cache_read: 0, output: 10 } });
      expect(first.metrics.is_error).toBeUndefined();
      const second = await run(jsonl(noMessage), { harness });
      expect(bodies(second.events)).toEqual([{ type: 'unknown', raw: noMessage }]);
      expect(second.metrics).toMatchObject({
        ended: true,
        is_error: true,
        tokens: { input: 40, cache_read: 0, output: 10 },
      });
    },
  );

  test('any other type, or a record without a string type, is unknown, verbatim', async () => {
    const thought = { type: 'thought', content: 'hmm' };
    const noType = { role: 'assistant', content: 'x' };
    const out = await run(jsonl(thought, noType, '[1]', 'null', { type: 7 }), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'unknown', raw: thought },
      { type: 'unknown', raw: noType },
      { type: 'unknown', raw: [1] },
      { type: 'unknown', raw: null },
      { type: 'unknown', raw: { type: 7 } },
    ]);
    expect(out.rules).toEqual([
      sharedRecords['any other type'].rules.unknown,
      sharedRecords['not a typed object'].rules.unknown,
      sharedRecords['not a typed object'].rules.unknown,
      sharedRecords['not a typed object'].rules.unknown,
      sharedRecords['not a typed object'].rules.unknown,
    ]);
  });

  test('a line that is not JSON is a warning, after the text held before it, and the stream goes on', async () => {
    expect(await events(say('held'), 'Loaded cached credentials.', say('next'))).toEqual([
      { type: 'agent', message: 'held' },
      { type: 'warning', message: 'Loaded cached credentials.', code: 'not_json' },
      { type: 'agent', message: 'next' },
    ]);
  });

  test('a tool call still waiting at the end of input is its classified event with success unset', async () => {
    expect(
      await events(
        init,
        use('read_file', 'read_file__a', { file_path: 'a.ts', start_line: 3 }),
        use('run_shell_command', 'run_shell_command__b', { command: 'make' }),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts', start_line: 3 },
      { type: 'command', command: 'make', working_directory: '/ws' },
    ]);
  });

  test('what ends a run: result is the terminal record; a stream without it has not ended', async () => {
    const cut = await run(jsonl(init, prompt, say('half')), { harness });
    expect(cut.metrics.ended).toBe(false);
    const empty = await run('', { harness });
    expect(empty.metrics).toMatchObject({ ended: false, tokens: {} });
    expect(empty.events).toEqual([]);
  });
});

describe('run metrics', () => {
  test(
    'result.stats replace the tokens: input = input, cache_read = cached, output = output_tokens, reasoning = ' +
      'total - input_tokens - output_tokens',
    async () => {
      // 9000 total - 8000 prompt - 300 output = 700 thoughts tokens; 8000 - 6000 cached = 2000 uncached.
      const { metrics, events: out } = await run(
        jsonl(init, { type: 'result', status: 'success', stats: stats(9000, 8000, 300, 6000) }),
        { harness },
      );
      expect(metrics).toMatchObject({
        tokens: { input: 2000, cache_read: 6000, output: 300, reasoning: 700 },
        duration_ms: 1200,
        tool_calls: 2,
      });
      expect(metrics.cost).toBeUndefined();
      expect(metrics.turns).toBeUndefined();
      expect(out).toEqual([]);
    },
  );

  test(
    'no reasoning class when the total has nothing ' + 'beyond input and output (or less); never a cache_write',
    async () => {
      const even = await run(jsonl({ type: 'result', status: 'success', stats: stats(120, 100, 20, 0) }), { harness });
      expect(even.metrics.tokens).toEqual({ input: 100, cache_read: 0, output: 20 });
      const short = await run(jsonl({ type: 'result', status: 'success', stats: stats(50, 100, 20, 0) }), { harness });
      expect(short.metrics.tokens).toEqual({ input: 100, cache_read: 0, output: 20 });
    },
  );

  test('each class only when its fields are present and are token counts', async () => {
    const partial = {
      type: 'result',
      status: 'success',
      stats: { total_tokens: 100, output_tokens: 5, cached: -1, input: 1e400, duration_ms: 'slow', tool_calls: 1.5 },
    };
    const { metrics } = await run(jsonl(partial), { harness });
    // No input_tokens: no reasoning either; cached and input are not counts.
    expect(metrics.tokens).toEqual({ output: 5 });
    expect(metrics.duration_ms).toBeUndefined();
    expect(metrics.tool_calls).toBeUndefined();
  });

  test("a later result replaces the earlier totals (the stats are the session's cumulative total)", async () => {
    const first = { type: 'result', status: 'success', stats: stats(120, 100, 20, 0) };
    const second = { type: 'result', status: 'error', stats: { ...stats(300, 250, 40, 50), duration_ms: 0 } };
    const { metrics } = await run(jsonl(first, second), { harness });
    expect(metrics).toMatchObject({
      tokens: { input: 200, cache_read: 50, output: 40, reasoning: 10 },
      duration_ms: 0,
      is_error: true,
    });
  });

  test('a result without stats keeps the tokens as they were', async () => {
    const { metrics } = await run(jsonl({ type: 'result', status: 'success' }), { harness });
    expect(metrics).toMatchObject({ ended: true, is_error: false, tokens: {} });
  });

  test('no usage event: Gemini reports no per-turn usage', async () => {
    const { metrics } = await run(jsonl(init, say('a'), success), { harness });
    expect(metrics.events).toEqual({ agent: 1 });
  });

  test('the final output is the last agent message', async () => {
    const { metrics } = await run(
      jsonl(say('first'), use('write_todos', 'w', { todos: [] }), ok('w'), say('last '), say('words'), success),
      { harness },
    );
    expect(metrics.final_output).toBe('last words');
  });
});

describe('tools', () => {
  test(
    'read_file: read of file_path; both lines give start..end, start_line alone a start, end_line alone 1..end, ' +
      'neither no range',
    async () => {
      const calls = [
        { file_path: 'notes.txt' },
        { file_path: 'notes.txt', start_line: 2, end_line: 4 },
        { file_path: '/abs/notes.txt', start_line: 5 },
        { file_path: './docs/../notes.txt', end_line: 10 },
        // Not line numbers: no range.
        { file_path: 'notes.txt', start_line: 0, end_line: 'x' },
      ];
      const out = await events(
        ...calls.flatMap((parameters, n) => [use('read_file', `r${n}`, parameters), ok(`r${n}`)]),
      );
      expect(out).toEqual([
        { type: 'read', path: '/ws/notes.txt', is_success: true },
        { type: 'read', path: '/ws/notes.txt', start_line: 2, end_line: 4, is_success: true },
        { type: 'read', path: '/abs/notes.txt', start_line: 5, is_success: true },
        { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 10, is_success: true },
        { type: 'read', path: '/ws/notes.txt', is_success: true },
      ]);
    },
  );

  test("a leading @ on a file tool's path parameter is dropped before resolving (gemini.md Tools, 2026-12-01b)", async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['read_file', { file_path: '@src/b.ts' }],
      ['read_file', { file_path: '@/abs/c.ts', start_line: 3 }],
      ['write_file', { file_path: '@docs/USAGE.md', content: 'x' }],
      ['replace', { file_path: '@src/a.ts', old_string: 'a', new_string: 'b' }],
      ['list_directory', { dir_path: '@src' }],
      ['glob', { pattern: '*.ts', dir_path: '@src' }],
      ['grep_search', { pattern: 'TODO', dir_path: '@lib' }],
      ['search_file_content', { pattern: 'TODO', dir_path: '@lib' }],
      ['read_many_files', { include: ['@README.md', '@src/*.ts'] }],
      // Only a leading one: an @ inside a name is the name's.
      ['read_file', { file_path: 'pkg/@scope/x.json' }],
    ];
    const out = await events(
      ...calls.flatMap(([tool, parameters], n) => [use(tool, `t${n}`, parameters), ok(`t${n}`)]),
    );
    expect(out).toEqual([
      { type: 'read', path: '/ws/src/b.ts', is_success: true },
      { type: 'read', path: '/abs/c.ts', start_line: 3, is_success: true },
      { type: 'write', path: '/ws/docs/USAGE.md', is_success: true },
      { type: 'write', path: '/ws/src/a.ts', is_success: true },
      { type: 'list', path: '/ws/src', is_success: true },
      { type: 'search', query: '*.ts', path: '/ws/src', is_success: true },
      { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
      { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
      { type: 'read', path: '/ws/README.md', is_success: true },
      { type: 'search', query: 'src/*.ts', is_success: true },
      { type: 'read', path: '/ws/pkg/@scope/x.json', is_success: true },
    ]);
  });

  test('read_file without a file_path is unknown, carrying both records', async () => {
    const announced = use('read_file', 'r', {});
    const result = failed('r', 'invalid_tool_params', "params must have required property 'file_path'");
    expect(await events(announced, result)).toEqual([
      { type: 'unknown', raw: { tool_use: announced, tool_result: result } },
    ]);
  });

  test(
    'read_many_files: one event per include entry, a read for a path, a search for a glob, success on every ' + 'event',
    async () => {
      expect(
        await call(
          'read_many_files',
          { include: ['README.md', 'src/**/*.ts', 'docs/?.md', 'a[12].txt', '{x,y}.json'] },
          (id) => failed(id, 'read_many_files_search_error', 'x'),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/README.md', is_success: false },
        { type: 'search', query: 'src/**/*.ts', is_success: false },
        { type: 'search', query: 'docs/?.md', is_success: false },
        { type: 'search', query: 'a[12].txt', is_success: false },
        { type: 'search', query: '{x,y}.json', is_success: false },
      ]);
    },
  );

  test('read_many_files without include entries, or with one that is not a string, is unknown', async () => {
    expect((await call('read_many_files', { include: [] })).map((e) => e.type)).toEqual(['unknown']);
    expect((await call('read_many_files', { include: ['a', 7] })).map((e) => e.type)).toEqual(['unknown']);
  });

  test('write_file and replace: write of file_path, no line range', async () => {
    expect(await call('write_file', { file_path: 'docs/USAGE.md', content: '# Usage\n' })).toEqual([
      { type: 'write', path: '/ws/docs/USAGE.md', is_success: true },
    ]);
    expect(
      await call('replace', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b', instruction: 'x' }, (id) =>
        failed(id, 'edit_no_occurrence_found', 'Could not find'),
      ),
    ).toEqual([{ type: 'write', path: '/ws/src/a.ts', is_success: false }]);
  });

  test('list_directory: list of dir_path', async () => {
    expect(await call('list_directory', { dir_path: 'src', ignore: ['*.log'] })).toEqual([
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });

  test('glob: search, query pattern, path dir_path when given', async () => {
    expect(await call('glob', { pattern: '**/*.ts' }, (id) => ok(id, 'Found 2 matching file(s)'))).toEqual([
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
    expect(await call('glob', { pattern: '*.md', dir_path: 'docs' })).toEqual([
      { type: 'search', query: '*.md', path: '/ws/docs', is_success: true },
    ]);
  });

  test(
    'grep_search and its legacy alias ' + 'search_file_content: search, query pattern, path dir_path when given',
    async () => {
      expect(await call('grep_search', { pattern: 'greet', dir_path: 'src', include_pattern: '*.ts' })).toEqual([
        { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
      ]);
      expect(
        await call('search_file_content', { pattern: 'TODO' }, (id) => failed(id, 'grep_execution_error', 'rg failed')),
      ).toEqual([{ type: 'search', query: 'TODO', is_success: false }]);
    },
  );

  describe('run_shell_command', () => {
    test(
      'a command that is not a file operation: command, working directory the cwd, success unset for status ' +
        'success',
      async () => {
        expect(
          await call('run_shell_command', { command: 'npm test', description: 'Run the tests.' }, (id) =>
            ok(id, 'all green'),
          ),
        ).toEqual([{ type: 'command', command: 'npm test', working_directory: '/ws' }]);
      },
    );

    test(
      'dir_path resolved against the cwd is the ' + 'working directory; recognized paths are joined onto it',
      async () => {
        expect(await call('run_shell_command', { command: 'make build', dir_path: 'packages/app' })).toEqual([
          { type: 'command', command: 'make build', working_directory: '/ws/packages/app' },
        ]);
        expect(await call('run_shell_command', { command: 'cat a.ts && ls lib', dir_path: 'src' })).toEqual([
          { type: 'read', path: '/ws/src/a.ts' },
          { type: 'list', path: '/ws/src/lib' },
        ]);
      },
    );

    test('without a cwd: dir_path as given, and no working directory when there is none', async () => {
      const { events: out } = await run(
        jsonl(
          use('run_shell_command', 'a', { command: 'make', dir_path: 'src' }),
          ok('a'),
          use('run_shell_command', 'b', { command: 'make' }),
          ok('b'),
        ),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'command', command: 'make', working_directory: 'src' },
        { type: 'command', command: 'make' },
      ]);
    });

    test(
      'exit code only when the output is exactly ' + '`Command exited with code: N`; non-zero makes it a failure',
      async () => {
        expect(
          await call('run_shell_command', { command: 'false' }, (id) => ok(id, 'Command exited with code: 1')),
        ).toEqual([{ type: 'command', command: 'false', working_directory: '/ws', exit_code: 1, is_success: false }]);
        expect(
          await call('run_shell_command', { command: 'true' }, (id) => ok(id, 'Command exited with code: 0')),
        ).toEqual([{ type: 'command', command: 'true', working_directory: '/ws', exit_code: 0 }]);
        // Anything around it, or the model-facing `Exit Code: N` form: no exit code.
        for (const output of [
          'oops\nCommand exited with code: 2',
          'Command exited with code: 2\n',
          'Exit Code: 2',
          'Command exited with code: 99999999999999999999',
        ]) {
          expect(await call('run_shell_command', { command: 'make' }, (id) => ok(id, output)), output).toEqual([
            { type: 'command', command: 'make', working_directory: '/ws' },
          ]);
        }
      },
    );

    test('status error is a failure (a refused dir_path, a command that could not run)', async () => {
      expect(
        await call('run_shell_command', { command: 'make', dir_path: '/etc' }, (id) =>
          failed(id, 'invalid_tool_params', 'Path not in workspace'),
        ),
      ).toEqual([{ type: 'command', command: 'make', working_directory: '/etc', is_success: false }]);
    });

    test('a reclassified search that exited 1 completed without a match; a read that exited 1 failed', async () => {
      expect(
        await call('run_shell_command', { command: 'grep -rn zzz src' }, (id) => ok(id, 'Command exited with code: 1')),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: true }]);
      expect(
        await call('run_shell_command', { command: 'cat missing.txt' }, (id) => ok(id, 'Command exited with code: 1')),
      ).toEqual([{ type: 'read', path: '/ws/missing.txt', is_success: false }]);
    });

    test('without a command string it is unknown', async () => {
      expect((await call('run_shell_command', { command: ['ls'] })).map((e) => e.type)).toEqual(['unknown']);
    });
  });

  test('activate_skill: the directory named after `Resources loaded from` joined with SKILL.md', async () => {
    const output =
      'Skill **lab-notes** activated. Resources loaded from ' +
      '`/home/user/project/.gemini/skills/lab-notes`:\n\n/home/user/project/.gemini/skills/lab-notes/\n└───SKILL.md';
    expect(await call('activate_skill', { name: 'lab-notes' }, (id) => ok(id, output))).toEqual([
      {
        type: 'skill',
        path: '/home/user/project/.gemini/skills/lab-notes/SKILL.md',
        skill_name: 'lab-notes',
        is_success: true,
      },
    ]);
  });

  test(
    'activate_skill without that directory: ' + 'skills/<name>/SKILL.md under the cwd; without a name: unknown',
    async () => {
      expect(
        await call('activate_skill', { name: 'review' }, (id) =>
          failed(id, 'invalid_tool_params', 'Skill "review" not found.'),
        ),
      ).toEqual([{ type: 'skill', path: '/ws/skills/review/SKILL.md', skill_name: 'review', is_success: false }]);
      expect((await call('activate_skill', {})).map((e) => e.type)).toEqual(['unknown']);
    },
  );

  test('write_todos, update_topic, enter_plan_mode, exit_plan_mode and tracker_*: consumed', async () => {
    const names = [
      'write_todos',
      'update_topic',
      'enter_plan_mode',
      'exit_plan_mode',
      'tracker_create_task',
      'tracker_update_task',
    ];
    const out = await run(jsonl(...names.flatMap((name, n) => [use(name, `t${n}`, {}), ok(`t${n}`)])), {
      harness,
      cwd,
    });
    expect(out.events).toEqual([]);
    expect(
      out.rules.every(
        (rule) => rule === records.tool_use.rules.recorded || rule === records.tool_result.rules.resolved,
      ),
    ).toBe(true);
  });

  describe('invoke_agent', () => {
    const parameters = { agent_name: 'codebase_investigator', prompt: 'Find the greeting.' };
    const id = 'invoke_agent__invoke_agent_1796086709913_0';

    test('its result is one subagent_completed: subagent_id the tool_id, subagent_name the agent_name', async () => {
      expect(await call('invoke_agent', parameters)).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: id,
          subagent_name: 'codebase_investigator',
          is_success: true,
        },
      ]);
    });

    test('a result with status error is subagent_failed', async () => {
      expect(
        await call('invoke_agent', parameters, (callId) => failed(callId, 'execution_failed', 'Subagent failed')),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_failed',
          subagent_id: id,
          subagent_name: 'codebase_investigator',
          is_success: false,
        },
      ]);
    });

    test('a call whose result never arrives is subagent_started at the end of input', async () => {
      expect(await events(init, use('invoke_agent', id, { prompt: 'no name given' }))).toEqual([
        { type: 'orchestration', action: 'subagent_started', subagent_id: id },
      ]);
    });
  });

  test(
    'google_web_search, web_fetch, ask_user, background processes, internal docs, MCP resources, complete_task, ' +
      'MCP tools and any other tool: unknown with both records',
    async () => {
      const names = [
        'google_web_search',
        'web_fetch',
        'ask_user',
        'list_background_processes',
        'read_background_output',
        'get_internal_docs',
        'read_mcp_resource',
        'list_mcp_resources',
        'complete_task',
        'mcp_github_create_issue',
        'delete_everything',
        'constructor',
        'Read_File',
      ];
      for (const name of names) {
        const announced = use(name, `${name}__1`, { query: 'x' });
        const result = ok(`${name}__1`, 'whatever');
        expect(await events(announced, result), name).toEqual([
          { type: 'unknown', raw: { tool_use: announced, tool_result: result } },
        ]);
      }
    },
  );

  test('an unknown call whose result never arrived carries the tool_use alone', async () => {
    const announced = use('web_fetch', 'w', { prompt: 'http://example.com' });
    expect(await events(announced)).toEqual([{ type: 'unknown', raw: { tool_use: announced } }]);
  });

  test("the tool's output and error message are never copied into a file event", async () => {
    const out = await call('grep_search', { pattern: 'secret' }, (id) => ({
      ...ok(id, 'src/a.ts:1:secret=hunter2'),
      error: { type: 'x', message: 'hunter2' },
    }));
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });
});

describe('state is bounded (docs/contract.md)', () => {
  test(
    'past maxPendingTools waiting calls, the oldest is ' + 'emitted unresolved, and its late result is unpaired',
    async () => {
      const late = ok('a');
      const { events: out } = await run(
        jsonl(
          use('read_file', 'a', { file_path: 'a' }),
          use('read_file', 'b', { file_path: 'b' }),
          use('read_file', 'c', { file_path: 'c' }),
          late,
          ok('c'),
        ),
        { harness, cwd, maxPendingTools: 2 },
      );
      expect(bodies(out)).toEqual([
        { type: 'read', path: '/ws/a' },
        { type: 'unknown', raw: late },
        { type: 'read', path: '/ws/c', is_success: true },
        { type: 'read', path: '/ws/b' },
      ]);
    },
  );

  test('an agent message longer than maxSpanBytes is emitted in parts, with a warning', async () => {
    const { events: out } = await run(jsonl(say('a'.repeat(6)), say('b'.repeat(6)), say('c')), {
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
