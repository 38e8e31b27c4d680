/**
 * pi on real streams (test/fixtures/pi/lab/, see LAB.md there): pi 0.73.1 driven offline by a
 * scripted model in /home/user/project. Every expected list below was checked by hand against
 * pi.md and the raw lines; the session header gives the cwd, so no `cwd` option is passed.
 */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/pi/correlate.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { bodies, expectLossless, fixtureFiles, parsedLines, runFixture, untimed } from '../../helpers.js';

const harness = 'pi';
const piRules = ruleNames(sharedRecords, records);
const project = '/home/user/project';

describe('every pi fixture', () => {
  const files = fixtureFiles('pi');

  test('the six lab captures are all here', () => {
    expect(files).toEqual([
      'pi/lab/api-error.jsonl',
      'pi/lab/files.jsonl',
      'pi/lab/multi-prompt.jsonl',
      'pi/lab/retry.jsonl',
      'pi/lab/shell.jsonl',
      'pi/lab/text-reasoning.jsonl',
    ]);
  });

  for (const file of files) {
    test(`${file}: strict, lossless, every event carries the session header's id`, async () => {
      const result = await runFixture(file, { harness });
      expectLossless(result, file, piRules);
      const header = parsedLines(file)[1] as { type: string; id: string };
      expect(header.type).toBe('session');
      expect(result.metrics.session_id).toBe(header.id);
      expect(result.events.every((event) => event.session_id === header.id)).toBe(true);
      expect(result.metrics.ended).toBe(true);
    });
  }
});

describe('exact events of the lab captures (pi 0.73.1)', () => {
  test(
    'files.jsonl: all seven built-in tools, relative ' + 'paths against the session cwd, tool errors, an unknown tool',
    async () => {
      const { events, metrics } = await runFixture('pi/lab/files.jsonl', { harness });
      const lines = parsedLines('pi/lab/files.jsonl');
      // The made-up tool: its start (line 125) and end (line 126) records, verbatim.
      const madeUp = { tool_execution_start: lines[125], tool_execution_end: lines[126] };
      expect((lines[125] as { toolName: string }).toolName).toBe('does_not_exist');
      expect((lines[126] as { toolCallId: string }).toolCallId).toBe('call_0015');
      expect(bodies(events)).toEqual([
        // Turn 1: the text, this call's usage, then the three reads as their executions end.
        { type: 'agent', message: 'I will start by reading the notes.' },
        { type: 'usage', tokens: { input: 2600, output: 80, cache_read: 0, cache_write: 0 }, cost: 0.00276 },
        { type: 'read', path: `${project}/notes.txt`, is_success: true },
        { type: 'read', path: `${project}/notes.txt`, start_line: 2, end_line: 3, is_success: true },
        { type: 'read', path: `${project}/src/a.ts`, is_success: true },
        // Turn 2: write and edit are writes, without a range.
        {
          type: 'usage',
          tokens: { input: 300, output: 120, cache_read: 2600, cache_write: 0 },
          cost: 0.0007999999999999999,
        },
        { type: 'write', path: `${project}/src/c.ts`, is_success: true },
        { type: 'write', path: `${project}/src/a.ts`, is_success: true },
        // Turn 3: in the order the executions ended (ls first); find has no path.
        { type: 'usage', tokens: { input: 500, output: 90, cache_read: 2900, cache_write: 0 }, cost: 0.00097 },
        { type: 'list', path: `${project}/src`, is_success: true },
        { type: 'search', query: 'greet', path: `${project}/src`, is_success: true },
        { type: 'search', query: '*.ts', is_success: true },
        // Turn 4: an unknown tool, a missing file, an edit whose text does not match.
        { type: 'usage', tokens: { input: 700, output: 70, cache_read: 3400, cache_write: 0 }, cost: 0.00118 },
        { type: 'unknown', raw: madeUp },
        { type: 'read', path: `${project}/missing.txt`, is_success: false },
        { type: 'write', path: `${project}/src/b.ts`, is_success: false },
        { type: 'agent', message: 'Done: updated greet in src/a.ts and added src/c.ts.' },
        {
          type: 'usage',
          tokens: { input: 500, output: 20, cache_read: 4100, cache_write: 0 },
          cost: 0.0009500000000000001,
        },
      ]);
      expect(metrics).toEqual({
        harness,
        session_id: '01a22f21-ee23-7566-8d38-d319287ad596',
        ended: true,
        is_error: false,
        turns: 5,
        tokens: { input: 4600, output: 380, cache_read: 13000, cache_write: 0 },
        cost: 0.00276 + 0.0007999999999999999 + 0.00097 + 0.00118 + 0.0009500000000000001,
        final_output: 'Done: updated greet in src/a.ts and added src/c.ts.',
        input: {
          bytes: 133767,
          lines: 145,
          rules: {
            [records.session.rules.session]: 1,
            [records.agent_start.rules.consumed]: 1,
            [records.turn_start.rules.consumed]: 5,
            [records.message_start.rules.consumed]: 17,
            [records.message_update.rules.consumed]: 76,
            [records.message_end.rules.assistant]: 5,
            [records.message_end.rules.consumed]: 12,
            [records.tool_execution_start.rules.recorded]: 11,
            [records.tool_execution_end.rules.tool]: 11,
            [records.turn_end.rules.consumed]: 5,
            [records.agent_end.rules.consumed]: 1,
          },
        },
        events: { agent: 2, usage: 5, read: 4, write: 3, list: 1, search: 2, unknown: 1 },
      });
    },
  );

  test(
    'shell.jsonl: reads, a listing and a search written as shell; a failed ls stays a failed listing; a write ' +
      'is a command in the session cwd',
    async () => {
      const { events, metrics } = await runFixture('pi/lab/shell.jsonl', { harness });
      expect(bodies(events)).toEqual([
        {
          type: 'usage',
          tokens: { input: 2400, output: 60, cache_read: 0, cache_write: 0 },
          cost: 0.0025199999999999997,
        },
        { type: 'read', path: `${project}/notes.txt`, is_success: true },
        { type: 'read', path: `${project}/notes.txt`, start_line: 1, end_line: 3, is_success: true },
        { type: 'usage', tokens: { input: 300, output: 60, cache_read: 2400, cache_write: 0 }, cost: 0.00066 },
        { type: 'list', path: `${project}/src`, is_success: true },
        { type: 'search', query: 'greet', path: `${project}/src`, is_success: true },
        {
          type: 'usage',
          tokens: { input: 400, output: 60, cache_read: 2700, cache_write: 0 },
          cost: 0.0007899999999999999,
        },
        // "Command exited with code 2": a listing that failed; as a reclassified command it carries no exit code.
        { type: 'list', path: `${project}/does-not-exist`, is_success: false },
        {
          type: 'command',
          command: 'echo built > build.log && git status --short',
          working_directory: project,
          is_success: true,
        },
        { type: 'agent', message: 'The project has two TypeScript files; greet is defined in src/a.ts.' },
        {
          type: 'usage',
          tokens: { input: 400, output: 18, cache_read: 3100, cache_write: 0 },
          cost: 0.0007459999999999999,
        },
      ]);
      expect(metrics).toMatchObject({
        ended: true,
        is_error: false,
        turns: 4,
        tokens: { input: 3500, output: 198, cache_read: 8200, cache_write: 0 },
      });
      expect(metrics.input.rules[records.tool_execution_update.rules.consumed]).toBe(12);
    },
  );

  test(
    'retry.jsonl: the 503 held until auto_retry_start is ' + 'a warning (code auto_retry); the retried call answers',
    async () => {
      const { events, metrics } = await runFixture('pi/lab/retry.jsonl', { harness });
      expect(untimed(events)).toEqual(
        [
          { type: 'warning', message: '503 Service temporarily unavailable', code: 'auto_retry' },
          { type: 'agent', message: 'Hello!' },
          { type: 'usage', tokens: { input: 2000, output: 3, cache_read: 0, cache_write: 0 }, cost: 0.002006 },
        ].map((event) => ({ ...event, session_id: '01a22f20-e38d-7385-9b81-d1134f30c822' })),
      );
      expect(metrics).toEqual({
        harness,
        session_id: '01a22f20-e38d-7385-9b81-d1134f30c822',
        ended: true,
        is_error: false,
        turns: 2,
        tokens: { input: 2000, output: 3, cache_read: 0, cache_write: 0 },
        cost: 0.002006,
        final_output: 'Hello!',
        input: {
          bytes: 7977,
          lines: 22,
          rules: {
            [records.session.rules.session]: 1,
            [records.agent_start.rules.consumed]: 2,
            [records.turn_start.rules.consumed]: 2,
            [records.message_start.rules.consumed]: 3,
            [records.message_update.rules.consumed]: 5,
            [records.message_end.rules.consumed]: 1,
            [records.message_end.rules.assistant]: 2,
            [records.turn_end.rules.consumed]: 2,
            [records.agent_end.rules.consumed]: 2,
            [records.auto_retry_start.rules.warning]: 1,
            [records.auto_retry_end.rules.success]: 1,
          },
        },
        events: { warning: 1, agent: 1, usage: 1 },
      });
    },
  );

  test(
    'api-error.jsonl: the 401 is not retried, so the held error is an error at the end of input; all-zero usage ' +
      'gives no usage event',
    async () => {
      const { events, metrics } = await runFixture('pi/lab/api-error.jsonl', { harness });
      expect(untimed(events)).toEqual([
        {
          type: 'error',
          message: '401 Incorrect API key provided: fake-key-not-real',
          session_id: '01a22f20-afad-75ae-94cb-418a2fa46eec',
        },
      ]);
      expect(metrics).toEqual({
        harness,
        session_id: '01a22f20-afad-75ae-94cb-418a2fa46eec',
        ended: true,
        is_error: true,
        failure: 'auth',
        turns: 1,
        tokens: {},
        input: {
          bytes: 2105,
          lines: 9,
          rules: {
            [records.session.rules.session]: 1,
            [records.agent_start.rules.consumed]: 1,
            [records.turn_start.rules.consumed]: 1,
            [records.message_start.rules.consumed]: 2,
            [records.message_end.rules.consumed]: 1,
            [records.message_end.rules.assistant]: 1,
            [records.turn_end.rules.consumed]: 1,
            [records.agent_end.rules.consumed]: 1,
          },
        },
        events: { error: 1 },
      });
    },
  );

  test(
    'text-reasoning.jsonl: the thinking block first, then the text, then the usage (cached input split out by ' + 'pi)',
    async () => {
      const { events, metrics } = await runFixture('pi/lab/text-reasoning.jsonl', { harness });
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'The user wants a one-line summary. The README says it is a demo project.' },
        { type: 'agent', message: 'This is a tiny demo project used for agent stream captures.' },
        {
          type: 'usage',
          tokens: { input: 1076, output: 42, cache_read: 1024, cache_write: 0 },
          cost: 0.0012624000000000001,
        },
      ]);
      expect(metrics).toMatchObject({
        turns: 1,
        is_error: false,
        final_output: 'This is a tiny demo project used for agent stream captures.',
      });
    },
  );

  test("multi-prompt.jsonl: two agent runs in one stream; the final output is the second prompt's answer", async () => {
    const { events, metrics } = await runFixture('pi/lab/multi-prompt.jsonl', { harness });
    expect(bodies(events)).toEqual([
      { type: 'usage', tokens: { input: 2200, output: 30, cache_read: 0, cache_write: 0 }, cost: 0.00226 },
      { type: 'read', path: `${project}/notes.txt`, is_success: true },
      { type: 'agent', message: 'notes.txt has five lines; line three says hello.' },
      { type: 'usage', tokens: { input: 300, output: 14, cache_read: 2200, cache_write: 0 }, cost: 0.000548 },
      { type: 'agent', message: 'Goodbye!' },
      { type: 'usage', tokens: { input: 400, output: 4, cache_read: 2500, cache_write: 0 }, cost: 0.000658 },
    ]);
    expect(metrics).toMatchObject({
      ended: true,
      turns: 3,
      final_output: 'Goodbye!',
      tokens: { input: 2900, output: 48, cache_read: 4700, cache_write: 0 },
    });
  });

  test('a cwd option wins over the session header', async () => {
    const { events } = await runFixture('pi/lab/multi-prompt.jsonl', { harness, cwd: '/elsewhere' });
    expect(events.find((event) => event.type === 'read')).toMatchObject({ path: '/elsewhere/notes.txt' });
  });
});
