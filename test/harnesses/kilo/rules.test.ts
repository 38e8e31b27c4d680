/**
 * One test per row of kilo.md's tables and per numbered difference, on authored lines in Kilo
 * 7.7.7's real shapes (docs/harnesses/kilo.md), for the rows no capture covers and to pin each rule
 * alone. Where kilo.md says "as OpenCode", these tests check that Kilo's table does what
 * opencode.md says (test/harnesses/opencode/ covers OpenCode's own rows in depth).
 */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/kilo/correlate.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const harness = 'kilo';
const sessionID = 'ses_dd0c2eeb1ffeZ5FfHcY5WHDlD0';
const cwd = '/ws';

/** A record as Kilo's `run` writes it: type, timestamp, the root session id, then its payload. */
function record<P extends Record<string, unknown>>(type: string, payload?: P) {
  return { type, timestamp: 1796088870219, sessionID, ...payload } as {
    type: string;
    timestamp: number;
    sessionID: string;
  } & P;
}
function stepFinish(tokens: unknown, cost: unknown, extra: Record<string, unknown> = {}) {
  return record('step_finish', {
    part: {
      id: 'prt_sf',
      sessionID,
      messageID: 'msg_1',
      type: 'step-finish',
      reason: 'stop',
      snapshot: 'abc',
      metrics: { generation: 51.02, source: 'computed' },
      time: { start: 1, end: 2, elapsed: 1 },
      cost,
      tokens,
      ...extra,
    },
  });
}
function toolUse(tool: string, input: unknown, state: Record<string, unknown> = {}, id = `prt_${tool}`) {
  return record('tool_use', {
    part: {
      id,
      sessionID,
      messageID: 'msg_1',
      type: 'tool',
      callID: `call_${id}`,
      tool,
      state: {
        status: 'completed',
        input,
        output: '',
        title: '',
        metadata: { truncated: false },
        time: { start: 1, end: 2 },
        ...state,
      },
    },
  });
}

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness, cwd })).events);
}

describe('difference 2 with docs/contract.md "OpenCode (and Kilo)"', () => {
  test('bash: exit null is no exit code; a command the shell tool terminated at its timeout failed', async () => {
    const output =
      '\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 1000 ms. If this command is ' +
      'expected to take longer and is not waiting for interactive input, retry with a larger timeout value in ' +
      'milliseconds.\n</shell_metadata>';
    expect(
      await events(
        toolUse('bash', { command: 'npm test' }, { metadata: { exit: null } }, 'prt_1'),
        toolUse('bash', { command: 'npm test', timeout: 1000 }, { output, metadata: { exit: null } }, 'prt_2'),
      ),
    ).toEqual([
      { type: 'command', command: 'npm test', working_directory: '/ws', is_success: true },
      { type: 'command', command: 'npm test', working_directory: '/ws', is_success: false },
    ]);
  });
});

describe('raw event stream (opencode.md "Normalized mapping" with kilo.md\'s differences)', () => {
  test('the session id is the first sessionID, on every event', async () => {
    const { events, metrics } = await run(
      jsonl(record('text', { part: { type: 'text', text: 'Hi.', time: { start: 1, end: 2 } } })),
      { harness },
    );
    expect(untimed(events)).toEqual([{ type: 'agent', session_id: sessionID, message: 'Hi.' }]);
    expect(metrics.session_id).toBe(sessionID);
  });

  test('step_start is consumed', async () => {
    const { events, rules } = await run(
      jsonl(
        record('step_start', {
          part: { id: 'prt_ss', sessionID, messageID: 'msg_1', type: 'step-start', snapshot: 'abc' },
        }),
      ),
      { harness },
    );
    expect(events).toEqual([]);
    expect(rules).toEqual([records.step_start.rules.consumed]);
  });

  test(
    'step_finish (differences 3, 4): usage from tokens (all five, zeros included) and cost (0 included); ' +
      'part.metrics is consumed',
    async () => {
      const { events, metrics, rules } = await run(
        jsonl(
          stepFinish({ total: 3340, input: 400, output: 40, reasoning: 0, cache: { read: 2900, write: 0 } }, 0.00267),
          stepFinish({ total: 1220, input: 1200, output: 20, reasoning: 0, cache: { read: 0, write: 0 } }, 0),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        {
          type: 'usage',
          tokens: { input: 400, output: 40, reasoning: 0, cache_read: 2900, cache_write: 0 },
          cost: 0.00267,
        },
        { type: 'usage', tokens: { input: 1200, output: 20, reasoning: 0, cache_read: 0, cache_write: 0 }, cost: 0 },
      ]);
      expect(metrics).toMatchObject({
        tokens: { input: 1600, output: 60, reasoning: 0, cache_read: 2900, cache_write: 0 },
        cost: 0.00267,
        turns: 2,
      });
      expect(rules).toEqual([records.step_finish.rules.usage, records.step_finish.rules.usage]);
    },
  );

  test('step_finish without tokens is unknown, as for OpenCode (metrics alone are not a usage)', async () => {
    const bad = record('step_finish', {
      part: { id: 'prt_sf', type: 'step-finish', metrics: { generation: 10, source: 'computed' } },
    });
    const { events, rules } = await run(jsonl(bad), { harness });
    expect(bodies(events)).toEqual([{ type: 'unknown', raw: bad }]);
    expect(rules).toEqual([records.step_finish.rules.noTokens]);
  });

  test('reasoning (written with --thinking) is reasoning when it carries text, otherwise consumed', async () => {
    const { events, rules } = await run(
      jsonl(
        record('reasoning', { part: { type: 'reasoning', text: 'Read part of the notes.' } }),
        record('reasoning', { part: { type: 'reasoning', text: '' } }),
      ),
      { harness },
    );
    expect(bodies(events)).toEqual([{ type: 'reasoning', message: 'Read part of the notes.' }]);
    expect(rules).toEqual([records.reasoning.rules.event, records.reasoning.rules.empty]);
  });

  test('text is an agent message when it carries text, otherwise consumed; the last is the final output', async () => {
    const { events, metrics, rules } = await run(
      jsonl(
        record('text', { part: { type: 'text', text: 'Inspecting with the shell.' } }),
        record('text', { part: { type: 'text', text: '' } }),
      ),
      { harness },
    );
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'Inspecting with the shell.' }]);
    expect(metrics.final_output).toBe('Inspecting with the shell.');
    expect(rules).toEqual([records.text.rules.event, records.text.rules.empty]);
  });

  test("tool_use: the events of Kilo's tool table; a part id seen before is consumed", async () => {
    const read = toolUse('read', { filePath: 'notes.txt' });
    const { events, rules } = await run(jsonl(read, read), { harness, cwd });
    expect(bodies(events)).toEqual([{ type: 'read', path: '/ws/notes.txt', is_success: true }]);
    expect(rules).toEqual([records.tool_use.rules.tool, records.tool_use.rules.repeated]);
  });

  test(
    "error (difference 5): OpenCode's object, message " + 'data.message else name, code name; the run is in error',
    async () => {
      const { events, metrics, rules } = await run(
        jsonl(
          record('error', {
            error: {
              name: 'APIError',
              data: { message: 'Incorrect API key provided: fake-key.', statusCode: 401, isRetryable: false },
            },
          }),
          record('error', { error: { name: 'UnknownError', data: {} } }),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'error', message: 'Incorrect API key provided: fake-key.', code: 'APIError' },
        { type: 'error', message: 'UnknownError', code: 'UnknownError' },
      ]);
      expect(metrics.is_error).toBe(true);
      expect(rules).toEqual([records.error.rules.error, records.error.rules.error]);
    },
  );

  test(
    'error (difference 5): a plain string Kilo writes itself is the message, with no code; several errors are ' +
      'several events',
    async () => {
      expect(
        await events(
          record('step_start', { part: { type: 'step-start' } }),
          record('error', { error: { name: 'ContextOverflowError', data: { message: 'context_length_exceeded' } } }),
          record('error', { error: 'run ended with an auto-rejected permission; pass --auto for autonomous use' }),
          record('error', { error: 'run ended without an assistant message; the model returned no output' }),
          record('error'),
        ),
      ).toEqual([
        { type: 'error', message: 'context_length_exceeded', code: 'ContextOverflowError' },
        { type: 'error', message: 'run ended with an auto-rejected permission; pass --auto for autonomous use' },
        { type: 'error', message: 'run ended without an assistant message; the model returned no output' },
        { type: 'error', message: 'Kilo reported an error without details' },
      ]);
    },
  );

  test('any other type is unknown, verbatim; a line that is not JSON is a warning', async () => {
    const done = record('done', { reason: 'idle' });
    const { events, rules } = await run(jsonl(done, 'Error: Incorrect API key provided'), { harness });
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: done },
      { type: 'warning', message: 'Error: Incorrect API key provided', code: 'not_json' },
    ]);
    expect(rules).toEqual([sharedRecords['any other type'].rules.unknown, sharedRecords['not JSON'].rules.warning]);
  });

  test(
    'the end of a run (difference 8): no terminal record, so a run is never "incomplete"; a step that never ' +
      'finishes loses nothing',
    async () => {
      const { events, metrics } = await run(
        jsonl(
          record('step_start', { part: { type: 'step-start' } }),
          record('text', { part: { type: 'text', text: 'Half.' } }),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([{ type: 'agent', message: 'Half.' }]);
      expect(metrics.ended).toBeUndefined();
      expect(metrics.turns).toBeUndefined();
    },
  );
});

describe('tools (kilo.md "Tools")', () => {
  test('read: filePath; offset is 1-based, so offset 2 limit 2 reads lines 2-3; a missing file fails', async () => {
    expect(
      await events(
        toolUse('read', { filePath: '/home/user/project/notes.txt', offset: 2, limit: 2 }, {}, 'prt_1'),
        toolUse(
          'read',
          { filePath: 'missing.txt' },
          { status: 'error', error: 'File not found: /ws/missing.txt', metadata: undefined },
          'prt_2',
        ),
      ),
    ).toEqual([
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
      { type: 'read', path: '/ws/missing.txt', is_success: false },
    ]);
  });

  test('write, edit: write of filePath, relative against the cwd', async () => {
    expect(
      await events(
        toolUse('write', { filePath: 'docs/guide.md', content: '# Guide' }, {}, 'prt_1'),
        toolUse(
          'edit',
          { filePath: '/ws/notes.txt', oldString: 'x', newString: 'y' },
          { status: 'error', error: 'Could not find oldString in the file.' },
          'prt_2',
        ),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/docs/guide.md', is_success: true },
      { type: 'write', path: '/ws/notes.txt', is_success: false },
    ]);
  });

  test('grep, glob: search, query = pattern, path when given', async () => {
    expect(
      await events(
        toolUse('grep', { pattern: 'greet\\(', path: 'src', include: '*.ts' }, {}, 'prt_1'),
        toolUse('glob', { pattern: '**/*.ts' }, {}, 'prt_2'),
      ),
    ).toEqual([
      { type: 'search', query: 'greet\\(', path: '/ws/src', is_success: true },
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
  });

  test(
    'bash (difference 2): workdir is the working directory; relative paths resolve against it; exit from ' +
      'metadata.exit',
    async () => {
      expect(
        await events(
          toolUse(
            'bash',
            { command: 'cat a.ts', workdir: '/ws/src', description: 'a.ts' },
            { metadata: { output: '', exit: 0, truncated: false } },
            'prt_1',
          ),
          toolUse('bash', { command: 'npm test', workdir: 'pkg' }, { metadata: { exit: 3 } }, 'prt_2'),
          toolUse('bash', { command: 'grep -rn zzz src' }, { metadata: { exit: 1 } }, 'prt_3'),
          toolUse('bash', { command: 'make' }, { metadata: { exit: 0 } }, 'prt_4'),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/src/a.ts', is_success: true },
        { type: 'command', command: 'npm test', working_directory: '/ws/pkg', exit_code: 3, is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'command', command: 'make', working_directory: '/ws', exit_code: 0, is_success: true },
      ]);
    },
  );

  test('background_process: a command when the input carries a command line, otherwise consumed', async () => {
    expect(
      await events(
        toolUse('background_process', { command: 'npm run dev' }, {}, 'prt_1'),
        toolUse('background_process', { action: 'list' }, {}, 'prt_2'),
      ),
    ).toEqual([{ type: 'command', command: 'npm run dev', is_success: true }]);
  });

  test(
    'task (difference 6): subagent_completed named by the child session; subagent_failed when its status is ' +
      'error; unknown without the child',
    async () => {
      const input = { description: 'Explore a.ts', prompt: 'read src/a.ts', subagent_type: 'explore' };
      const noChild = toolUse('task', input, { status: 'error', error: 'denied', metadata: undefined }, 'prt_3');
      expect(
        await events(
          toolUse(
            'task',
            input,
            {
              metadata: {
                sessionId: 'ses_child',
                parentSessionId: sessionID,
                model: { modelID: 'fake-model', providerID: 'lab' },
              },
            },
            'prt_1',
          ),
          toolUse(
            'task',
            input,
            { status: 'error', error: 'boom', metadata: { sessionId: 'ses_child2', parentSessionId: sessionID } },
            'prt_2',
          ),
          noChild,
        ),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'ses_child',
          subagent_name: 'explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_failed',
          subagent_id: 'ses_child2',
          subagent_name: 'explore',
          is_success: false,
        },
        { type: 'unknown', raw: noChild.part },
      ]);
    },
  );

  test(
    'skill (difference 7): <metadata.dir>/SKILL.md; ' + 'without dir (a failed skill), skills/<name>/SKILL.md',
    async () => {
      expect(
        await events(
          toolUse(
            'skill',
            { name: 'release-notes' },
            { metadata: { name: 'release-notes', dir: '/ws/.kilo/skills/release-notes' } },
            'prt_1',
          ),
          toolUse(
            'skill',
            { name: 'nope' },
            { status: 'error', error: 'Skill "nope" not found', metadata: undefined },
            'prt_2',
          ),
        ),
      ).toEqual([
        {
          type: 'skill',
          path: '/ws/.kilo/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        { type: 'skill', path: '/ws/skills/nope/SKILL.md', skill_name: 'nope', is_success: false },
      ]);
    },
  );

  test('todowrite, todoread: consumed', async () => {
    expect(
      await events(toolUse('todowrite', { todos: [] }, {}, 'prt_1'), toolUse('TodoRead', {}, {}, 'prt_2')),
    ).toEqual([]);
  });

  test(
    'board_post, board_read, kilo_local_recall, schedule_wakeup, cancel_wakeup (difference 1), and any other ' +
      'tool: unknown carrying the part',
    async () => {
      const calls = [
        toolUse('board_post', { message: 'hi' }, {}, 'prt_1'),
        toolUse('board_read', {}, {}, 'prt_2'),
        toolUse('kilo_local_recall', { mode: 'search', query: 'greet' }, {}, 'prt_3'),
        toolUse('schedule_wakeup', { at: 'later' }, {}, 'prt_4'),
        toolUse('cancel_wakeup', { id: 'w1' }, {}, 'prt_5'),
        toolUse('webfetch', { url: 'https://example.com' }, {}, 'prt_6'),
        // OpenCode's tools that Kilo does not offer are "any other tool" here.
        toolUse('apply_patch', { patchText: '*** Begin Patch\n*** Add File: a.ts\n*** End Patch' }, {}, 'prt_7'),
        toolUse('lsp', { query: 'greet' }, {}, 'prt_8'),
      ];
      expect(await events(...calls)).toEqual(calls.map((call) => ({ type: 'unknown', raw: call.part })));
    },
  );

  test('tool names match case-insensitively, as for OpenCode', async () => {
    expect(
      await events(
        toolUse('Read', { filePath: 'a.ts' }, {}, 'prt_1'),
        toolUse('BASH', { command: 'ls src' }, { metadata: { exit: 0 } }, 'prt_2'),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });
});

describe('state is bounded (docs/contract.md)', () => {
  test('the seen part ids are bounded by maxPendingTools: the oldest is forgotten', async () => {
    const a = toolUse('read', { filePath: 'a.ts' }, {}, 'prt_a');
    const b = toolUse('read', { filePath: 'b.ts' }, {}, 'prt_b');
    const { events } = await run(jsonl(a, b, b, a), { harness, cwd, maxPendingTools: 1 });
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'read', path: '/ws/b.ts', is_success: true },
      { type: 'read', path: '/ws/a.ts', is_success: true },
    ]);
  });
});
