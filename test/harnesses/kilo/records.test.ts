/** kilo.md's numbered differences and its raw event stream (opencode.md's with kilo.md's differences). */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/kilo/correlate.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, sessionID, cwd, record, stepFinish, toolUse, events } from './lines.js';

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
