/** gemini.md's "Raw event stream" table, one test per row. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { records } from '../../../lib/harnesses/gemini/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, cwd, at, init, prompt, say, use, ok, failed, stats, success, events } from './lines.js';

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
