/**
 * Gemini CLI on real streams (test/fixtures/gemini/lab/, see LAB.md there): @google/gemini-cli
 * 0.61.0 driven offline by a scripted model. Every expected list below was checked by hand
 * against gemini.md and the raw lines. Gemini never reports its working directory; the lab ran in
 * /home/user/project, so the runs here are given it.
 */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/gemini/correlate.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { bodies, expectLossless, fixtureFiles, parsedLines, runFixture, untimed } from '../../helpers.js';

const harness = 'gemini';
const cwd = '/home/user/project';

/** The rules of lib/harnesses/gemini/correlate.ts and the ones every harness shares. */
const geminiRules = ruleNames(sharedRecords, records);

describe('every Gemini capture', () => {
  // And the live suite's defaults and plan rounds (test/harnesses/refusals.test.ts).
  test('the lab folder holds the nine captures LAB.md describes, and the defaults and plan rounds', () => {
    expect(fixtureFiles('gemini')).toEqual(
      [
        'empty-response',
        'error-http-400',
        'error-http-500-retried',
        'file-tools',
        'multi-turn',
        'permission-default',
        'permission-plan',
        'shell',
        'subagent',
        'text-thoughts',
        'tool-errors',
      ].map((name) => `gemini/lab/${name}.jsonl`),
    );
  });

  for (const file of fixtureFiles('gemini')) {
    test(`${file}: strict, lossless, every event carries the init session id`, async () => {
      const result = await runFixture(file, { harness, cwd });
      expectLossless(result, file, geminiRules);
      const init = parsedLines(file)[1] as { type: string; session_id: string };
      expect(init.type).toBe('init');
      expect(result.events.every((event) => event.session_id === init.session_id)).toBe(true);
      expect(result.metrics.session_id).toBe(init.session_id);
    });
  }
});

/** Line `n` of a capture, parsed. */
function line(file: string, n: number): unknown {
  return parsedLines(`gemini/lab/${file}.jsonl`)[n];
}

describe('exact events of the lab captures', () => {
  test(
    'shell.jsonl: reads, a listing and a search as shell; dir_path is the working directory; wc | cut stays a ' +
      'command; ls of a missing dir keeps success unset',
    async () => {
      const { events } = await runFixture('gemini/lab/shell.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        // `cat notes.txt`, status success: the CLI reports success whatever the exit code, so success is unset.
        { type: 'read', path: '/home/user/project/notes.txt' },
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 1, end_line: 3 },
        // Two calls announced together (lines 7, 8), their results in request order (lines 9, 10).
        { type: 'list', path: '/home/user/project/src' },
        { type: 'search', query: 'greet', path: '/home/user/project/src' },
        // `head -n 2 a.ts` with dir_path src: the path is joined onto it.
        { type: 'read', path: '/home/user/project/src/a.ts', start_line: 1, end_line: 2 },
        // A pipeline into cut is not a file operation; the cwd is its working directory.
        { type: 'command', command: 'wc -l notes.txt | cut -d" " -f1', working_directory: '/home/user/project' },
        // `ls does-not-exist` exited 2, but its output is ls's message, not `Command exited with code: N`.
        { type: 'list', path: '/home/user/project/does-not-exist' },
        { type: 'agent', message: 'notes.txt has 5 lines; src holds a.ts and b.ts; `greet` is defined in src/a.ts.' },
      ]);
    },
  );

  test('file-tools.jsonl: every file tool, relative and absolute paths against the cwd', async () => {
    const { events } = await runFixture('gemini/lab/file-tools.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'I will read the notes first.' },
      { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 4, is_success: true },
      { type: 'list', path: '/home/user/project/src', is_success: true },
      // glob without dir_path: no path.
      { type: 'search', query: '**/*.ts', is_success: true },
      { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
      { type: 'write', path: '/home/user/project/docs/USAGE.md', is_success: true },
      { type: 'write', path: '/home/user/project/src/a.ts', is_success: true },
      {
        type: 'agent',
        message: 'Done: read the notes, listed src, found greet, wrote docs/USAGE.md and capitalized the greeting.',
      },
    ]);
  });

  test(
    'tool-errors.jsonl: failed calls are their events with success false; a call without its path and an ' +
      'unregistered tool are unknown',
    async () => {
      const { events } = await runFixture('gemini/lab/tool-errors.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
        { type: 'write', path: '/home/user/project/notes.txt', is_success: false },
        // read_file with no file_path (invalid_tool_params): no read to report.
        { type: 'unknown', raw: { tool_use: line('tool-errors', 7), tool_result: line('tool-errors', 8) } },
        { type: 'unknown', raw: { tool_use: line('tool-errors', 9), tool_result: line('tool-errors', 10) } },
        // `ls` in dir_path /etc, refused (status error): a listing with no operand has no path (the shared shell rule).
        { type: 'list', is_success: false },
        { type: 'agent', message: 'Each of those attempts failed as expected.' },
      ]);
    },
  );

  test(
    "subagent.jsonl: invoke_agent is one subagent_completed, identified by its tool_id; the subagent's own " +
      'calls are not in the stream',
    async () => {
      const { events } = await runFixture('gemini/lab/subagent.jsonl', { harness, cwd });
      expect(untimed(events)).toEqual(
        [
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'invoke_agent__invoke_agent_1796086799094_0',
            subagent_name: 'generalist',
            is_success: true,
          },
          { type: 'agent', message: 'The generalist reports that notes.txt has 5 lines.' },
        ].map((event) => ({ ...event, session_id: '15053042-a13d-41a7-a883-d70c15e17169' })),
      );
    },
  );

  test('error-http-400.jsonl: the result with an error object is an error, code error.type', async () => {
    const { events } = await runFixture('gemini/lab/error-http-400.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      {
        type: 'error',
        message:
          '[API Error: {"error":{"code":400,"message":"Request contains an invalid ' +
          'argument.","status":"INVALID_ARGUMENT"}}]',
        code: 'unknown',
      },
    ]);
  });

  test(
    'empty-response.jsonl: the error record is the ' + 'error; the result without an error object adds none',
    async () => {
      const { events } = await runFixture('gemini/lab/empty-response.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        {
          type: 'error',
          message:
            'The model returned an empty response with no text or thoughts. This may be a transient API issue; ' +
            'please try again.',
        },
      ]);
    },
  );

  test('error-http-500-retried.jsonl: the retry leaves no trace', async () => {
    const { events } = await runFixture('gemini/lab/error-http-500-retried.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'Hello after a retry.' }]);
  });

  test('text-thoughts.jsonl: three deltas are one agent event; the thoughts are nowhere', async () => {
    const { events } = await runFixture('gemini/lab/text-thoughts.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'Hello from the lab!' }]);
  });

  test(
    'multi-turn.jsonl: todos and topic consumed, web tools unknown, the skill from its loaded directory, deltas ' +
      'joined per span',
    async () => {
      const { events } = await runFixture('gemini/lab/multi-turn.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Let me plan this first.' },
        { type: 'unknown', raw: { tool_use: line('multi-turn', 8), tool_result: line('multi-turn', 9) } },
        { type: 'unknown', raw: { tool_use: line('multi-turn', 10), tool_result: line('multi-turn', 11) } },
        {
          type: 'skill',
          path: '/home/user/project/.gemini/skills/lab-notes/SKILL.md',
          skill_name: 'lab-notes',
          is_success: true,
        },
        { type: 'agent', message: 'Summary:\n- the lab is offline\n- notes are bullet lists' },
        { type: 'agent', message: 'All done.' },
      ]);
    },
  );
});

/**
 * gemini.md "Run metrics", by hand from each capture's `result.stats`: input = `input`,
 * cache_read = `cached`, output = `output_tokens`, reasoning = `total_tokens - input_tokens -
 * output_tokens` when above 0; `duration_ms`; `tool_calls`. The final output is the last agent message.
 */
const expectedMetrics = {
  // 5249 - 5200 - 12 = 37 thoughts tokens.
  'text-thoughts': {
    tokens: { input: 1104, cache_read: 4096, output: 12, reasoning: 37 },
    duration_ms: 597,
    tool_calls: 0,
    is_error: false,
    final_output: 'Hello from the lab!',
  },
  // 50971 - 50800 - 171 = 0: no reasoning class.
  'file-tools': {
    tokens: { input: 50800, cache_read: 0, output: 171 },
    duration_ms: 1885,
    tool_calls: 7,
    is_error: false,
    final_output: 'Done: read the notes, listed src, found greet, wrote docs/USAGE.md and capitalized the greeting.',
  },
  // 44235 - 44100 - 135 = 0.
  shell: {
    tokens: { input: 44100, cache_read: 0, output: 135 },
    duration_ms: 3436,
    tool_calls: 7,
    is_error: false,
    final_output: 'notes.txt has 5 lines; src holds a.ts and b.ts; `greet` is defined in src/a.ts.',
  },
  // 37568 - 37500 - 68 = 0; failed calls end in success all the same.
  'tool-errors': {
    tokens: { input: 37500, cache_read: 0, output: 68 },
    duration_ms: 1246,
    tool_calls: 5,
    is_error: false,
    final_output: 'Each of those attempts failed as expected.',
  },
  // The error handler's result: all zeros, duration 0; no agent text, so no final output.
  'error-http-400': {
    tokens: { input: 0, cache_read: 0, output: 0 },
    duration_ms: 0,
    tool_calls: 0,
    is_error: true,
    failure: 'api_error',
  },
  // 5008 - 5000 - 8 = 0.
  'error-http-500-retried': {
    tokens: { input: 5000, cache_read: 0, output: 8 },
    duration_ms: 5132,
    tool_calls: 0,
    is_error: false,
    final_output: 'Hello after a retry.',
  },
  // 20000 - 20000 - 0 = 0; an invalid stream ends in error without an error object.
  'empty-response': {
    tokens: { input: 20000, cache_read: 0, output: 0 },
    duration_ms: 7488,
    tool_calls: 0,
    is_error: true,
    failure: 'api_error',
  },
  // Two models (44100 + 300 input, 149 + 10 output): the top-level sums; 44559 - 44400 - 159 = 0.
  'multi-turn': {
    tokens: { input: 44400, cache_read: 0, output: 159 },
    duration_ms: 927,
    tool_calls: 6,
    is_error: false,
    final_output: 'All done.',
  },
  // 3 tool calls: the parent's invoke_agent and the subagent's two, which the stream does not show.
  subagent: {
    tokens: { input: 20200, cache_read: 0, output: 72 },
    duration_ms: 979,
    tool_calls: 3,
    is_error: false,
    final_output: 'The generalist reports that notes.txt has 5 lines.',
  },
};

describe('metrics of every capture, against its result.stats', () => {
  for (const [name, expected] of Object.entries(expectedMetrics)) {
    test(`${name}.jsonl`, async () => {
      const file = `gemini/lab/${name}.jsonl`;
      const { metrics } = await runFixture(file, { harness, cwd });
      const { input: _input, events: _events, ...reported } = metrics;
      expect(reported).toEqual({
        harness,
        session_id: (line(name, 1) as { session_id: string }).session_id,
        ended: true,
        ...expected,
      });
      // No usage event: Gemini reports no per-turn usage.
      expect(metrics.events.usage).toBeUndefined();
    });
  }

  test('the whole metrics of shell.jsonl, line accounting included', async () => {
    const { metrics } = await runFixture('gemini/lab/shell.jsonl', { harness, cwd });
    expect(metrics).toEqual({
      harness,
      session_id: '119a6a61-9837-4771-8bcf-1fb9f610fac7',
      ended: true,
      is_error: false,
      tokens: { input: 44100, cache_read: 0, output: 135 },
      duration_ms: 3436,
      tool_calls: 7,
      final_output: 'notes.txt has 5 lines; src holds a.ts and b.ts; `greet` is defined in src/a.ts.',
      input: {
        bytes: 3776,
        lines: 18,
        rules: {
          [records.init.rules.session]: 1,
          [records.message.rules.user]: 1,
          [records.tool_use.rules.recorded]: 7,
          [records.tool_result.rules.resolved]: 7,
          [records.message.rules.assistant]: 1,
          [records.result.rules.success]: 1,
        },
      },
      events: { read: 3, list: 2, search: 1, command: 1, agent: 1 },
    });
  });
});
