/**
 * Copilot CLI on real streams (test/fixtures/copilot/lab/, see LAB.md there: Copilot 1.0.102
 * driven offline). Every expected list below was checked by hand against copilot.md,
 * docs/contract.md and the raw lines. The lab ran in /home/user/project, which is the `cwd` given
 * here (Copilot never reports it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/copilot/correlate.js';
import { tools } from '../../../lib/harnesses/copilot/tools.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { bodies, expectLossless, fixtureFiles, fixturePath, parsedLines, runFixture, untimed } from '../../helpers.js';

const harness = 'copilot';
const cwd = '/home/user/project';

/** The rules of lib/harnesses/copilot/records.ts and the ones every harness shares. */
const copilotRules = ruleNames(sharedRecords, records);

type Line = {
  type?: string;
  agentId?: string;
  sessionId?: string;
  data?: { toolCallId?: string; toolName?: string; content?: string };
};

describe('every Copilot fixture', () => {
  for (const file of fixtureFiles('copilot')) {
    test(`${file}: strict, lossless, messages kept, session id from the result line`, async () => {
      const result = await runFixture(file, { harness, cwd });
      expectLossless(result, file, copilotRules);
      const lines = parsedLines(file) as (Line | undefined)[];
      const unknownRaws = result.events.filter((e) => e.type === 'unknown').map((e) => JSON.stringify(e.raw));
      const said = result.events.filter((e) => e.type === 'agent' || e.type === 'reasoning').map((e) => e.message);
      const starts = new Map<string, Line>();
      for (const line of lines) {
        // Every non-empty message and reasoning is an event, whole.
        if ((line?.type === 'assistant.message' || line?.type === 'assistant.reasoning') && line.data?.content)
          expect(said).toContain(line.data.content);
        if (line?.type === 'tool.execution_start') starts.set(line.data!.toolCallId!, line);
        // A tool outside the table is an unknown event carrying both of its records.
        if (line?.type === 'tool.execution_complete') {
          const start = starts.get(line.data!.toolCallId!)!;
          if (!tools.has(start.data!.toolName!))
            expect(unknownRaws).toContain(JSON.stringify({ execution_start: start, execution_complete: line }));
        }
      }
      // The result line is the last; it names the session, which no earlier event carries.
      const last = lines.filter((line) => line !== undefined).at(-1)!;
      expect(last.type).toBe('result');
      expect(result.metrics.session_id).toBe(last.sessionId);
      expect(result.metrics.ended).toBe(true);
      expect(result.events.filter((e) => 'session_id' in e)).toEqual([]);
      // 1.0.102 writes no token counts in this mode (copilot.md "Metrics").
      expect(result.events.filter((e) => e.type === 'usage')).toEqual([]);
      expect(result.metrics.tokens).toEqual({});
    });
  }
});

describe('exact events of the lab captures (Copilot 1.0.102)', () => {
  test(
    'shell-reads.jsonl: four parallel bash calls reclassified in completion order; exit 3 with success true is ' +
      'a failed command',
    async () => {
      const file = 'copilot/lab/shell-reads.jsonl';
      const { events, metrics } = await runFixture(file, { harness, cwd });
      expect(untimed(events)).toEqual([
        { type: 'agent', message: 'Inspecting with the shell.' },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 1, end_line: 3, is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
        {
          type: 'command',
          command: "node -e 'process.exit(3)'",
          working_directory: '/home/user/project',
          exit_code: 3,
          is_success: false,
        },
        { type: 'agent', message: 'The sources look fine, but the check script exits with status 3.' },
      ]);
      expect(metrics).toEqual({
        harness,
        session_id: '58c80243-8c7d-4f1f-86d8-6352881ca8d8',
        ended: true,
        exit_code: 0,
        is_error: false,
        duration_ms: 1657,
        api_duration_ms: 194,
        tokens: {},
        final_output: 'The sources look fine, but the check script exits with status 3.',
        input: {
          bytes: readFileSync(fixturePath(file)).length,
          lines: 193,
          rules: {
            [records['session.skills_loaded'].rules.skills]: 1,
            [records['session.mcp_servers_loaded'].rules.consumed]: 1,
            [records['session.tools_updated'].rules.consumed]: 1,
            [records['user.message'].rules.consumed]: 1,
            [records['assistant.turn_start'].rules.consumed]: 3,
            [records['model.call_start'].rules.consumed]: 3,
            [records['assistant.message_start'].rules.consumed]: 2,
            [records['assistant.message_delta'].rules.consumed]: 6,
            [records['assistant.tool_call_delta'].rules.consumed]: 15,
            [records['model.call_finished'].rules.consumed]: 3,
            [records['assistant.message'].rules.agent]: 2,
            [records['assistant.message'].rules.empty]: 1,
            [records['tool.execution_start'].rules.recorded]: 5,
            [records['model.call_final_result'].rules.consumed]: 3,
            [records['session.background_tasks_changed'].rules.consumed]: 123,
            [records['tool.shell_output'].rules.consumed]: 4,
            [records['tool.execution_partial_result'].rules.consumed]: 9,
            [records['tool.execution_complete'].rules.tools]: 5,
            [records['assistant.turn_end'].rules.consumed]: 3,
            [records['assistant.idle'].rules.consumed]: 1,
            [records.result.rules.metrics]: 1,
          },
        },
        events: { agent: 2, read: 2, list: 1, search: 1, command: 1 },
      });
    },
  );

  test(
    'files.jsonl: view of a file, a range and a directory (a list); glob without and grep with a path; a failed ' +
      'create and an edit',
    async () => {
      const { events, metrics } = await runFixture('copilot/lab/files.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Reading the notes, a slice of the README and the src folder.' },
        // After the message of the same model call, as Copilot writes it.
        { type: 'reasoning', message: 'Start by looking at the notes and the sources.' },
        // Completion order: notes.txt, then the src directory, then the README slice.
        { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        { type: 'read', path: '/home/user/project/README.md', start_line: 1, end_line: 2, is_success: true },
        { type: 'search', query: '**/*.ts', is_success: true },
        { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
        { type: 'write', path: '/home/user/project/docs/guide.md', is_success: false },
        { type: 'write', path: '/home/user/project/notes.txt', is_success: true },
        {
          type: 'agent',
          message:
            'greet is defined in src/a.ts and used in src/b.ts; I added docs/guide.md and changed the magic word to ' +
            'mango.',
        },
      ]);
      expect(metrics).toMatchObject({
        session_id: '13635d1c-f2d0-4e48-8bba-5954c0f36949',
        exit_code: 0,
        is_error: false,
        duration_ms: 802,
        api_duration_ms: 90,
      });
    },
  );

  test(
    'tool-errors.jsonl: failed view, edit and create; a grep without a match succeeded; ls of a missing folder ' +
      '(exit 2) failed',
    async () => {
      const { events } = await runFixture('copilot/lab/tool-errors.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
        { type: 'write', path: '/home/user/project/notes.txt', is_success: false },
        { type: 'write', path: '/home/user/project/README.md', is_success: false },
        { type: 'search', query: 'zzz_nomatch_zzz', is_success: true },
        { type: 'list', path: '/home/user/project/no-such-dir', is_success: false },
        {
          type: 'agent',
          message:
            'missing.txt does not exist, the edit target text was not found, README.md already exists, and nothing ' +
            'matches.',
        },
      ]);
    },
  );

  test(
    "subagent.jsonl: started and completed around the subagent's own message and read; the task call itself is " +
      'consumed',
    async () => {
      const { events, metrics } = await runFixture('copilot/lab/subagent.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Delegating to an explore agent.' },
        { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_0002', subagent_name: 'explore' },
        { type: 'agent', message: 'Looking at src.' },
        { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
        { type: 'agent', message: 'src/a.ts exports greet(name).' },
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'call_0002',
          subagent_name: 'explore',
          is_success: true,
        },
        { type: 'agent', message: 'The explorer reports that src/a.ts exports greet(name).' },
      ]);
      expect(metrics.final_output).toBe('The explorer reports that src/a.ts exports greet(name).');
      expect(metrics.input.rules[records['tool.execution_complete'].rules.tools]).toBe(2);
    },
  );

  test(
    'api-401.jsonl: two model_retry warnings, the ' + 'authentication error; the failed result adds no second error',
    async () => {
      const { events, metrics } = await runFixture('copilot/lab/api-401.jsonl', { harness, cwd });
      const retry = {
        type: 'warning',
        message: 'Request failed due to a transient API error. Retrying...',
        code: 'model_retry',
      };
      expect(untimed(events)).toEqual([
        retry,
        retry,
        {
          type: 'error',
          message:
            'Authentication failed with provider at http://127.0.0.1:46113/v1 (HTTP 401).\n  Check your ' +
            'COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.',
          code: 'authentication',
        },
      ]);
      expect(metrics).toMatchObject({
        session_id: 'f314103e-d851-451f-b58b-b1b43978ef63',
        ended: true,
        exit_code: 1,
        is_error: true,
        duration_ms: 3482,
        api_duration_ms: 0,
      });
      expect(metrics.final_output).toBeUndefined();
    },
  );

  test('api-500.jsonl: the read before the failures, five retries, then the query error', async () => {
    const { events, metrics } = await runFixture('copilot/lab/api-500.jsonl', { harness, cwd });
    const retry = {
      type: 'warning',
      message: 'Request failed due to a transient API error. Retrying...',
      code: 'model_retry',
    };
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Reading the notes.' },
      { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
      ...Array<typeof retry>(5).fill(retry),
      {
        type: 'error',
        message:
          'Failed to get response from the AI model; retried 5 times (total retry wait time: 17.13 seconds) Last ' +
          'error: 500 The server had an error while processing your request.',
        code: 'query',
      },
    ]);
    expect(metrics).toMatchObject({ exit_code: 1, is_error: true, final_output: 'Reading the notes.' });
  });

  test('unreachable.jsonl: five transport retries, then "Could not connect"', async () => {
    const { events } = await runFixture('copilot/lab/unreachable.jsonl', { harness, cwd });
    const retry = {
      type: 'warning',
      message: 'Response was interrupted due to a server error. Retrying...',
      code: 'model_retry',
    };
    expect(bodies(events)).toEqual([
      ...Array<typeof retry>(5).fill(retry),
      {
        type: 'error',
        message:
          'Could not connect to local model provider at http://127.0.0.1:46101/v1.\n  Check that the service is ' +
          'running and the port is correct.',
        code: 'query',
      },
    ]);
  });

  test('retry-500.jsonl: one retry warning, then the answer; the run succeeded', async () => {
    const { events, metrics } = await runFixture('copilot/lab/retry-500.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'warning', message: 'Request failed due to a transient API error. Retrying...', code: 'model_retry' },
      { type: 'agent', message: 'Answered after one retry.' },
    ]);
    expect(metrics).toMatchObject({ exit_code: 0, is_error: false });
  });

  test(
    'skill.jsonl: the project skill located by session.skills_loaded; a missing skill failed at the default ' +
      'path; sql is unknown',
    async () => {
      const file = 'copilot/lab/skill.jsonl';
      const { events } = await runFixture(file, { harness, cwd });
      const lines = parsedLines(file) as (Line | undefined)[];
      const sql = (type: string) => lines.find((line) => line?.type === type && line.data?.toolCallId === 'call_0005');
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Loading the release-notes skill.' },
        {
          type: 'skill',
          path: '/home/user/project/.github/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        {
          type: 'skill',
          path: '/home/user/project/skills/no-such-skill/SKILL.md',
          skill_name: 'no-such-skill',
          is_success: false,
        },
        {
          type: 'unknown',
          raw: { execution_start: sql('tool.execution_start'), execution_complete: sql('tool.execution_complete') },
        },
        { type: 'agent', message: 'Release notes: greet(name) is the only export.' },
      ]);
      expect(sql('tool.execution_start')?.data?.toolName).toBe('sql');
    },
  );

  test(
    'resume.jsonl and resume-continue.jsonl: the continued run writes only its new turn and names the same ' +
      'session',
    async () => {
      const first = await runFixture('copilot/lab/resume.jsonl', { harness, cwd });
      const next = await runFixture('copilot/lab/resume-continue.jsonl', { harness, cwd });
      expect(bodies(first.events)).toEqual([{ type: 'agent', message: 'Noted: kiwi.' }]);
      expect(bodies(next.events)).toEqual([{ type: 'agent', message: 'You named kiwi.' }]);
      expect(next.metrics.session_id).toBe('e694efd0-08c0-4f88-b7f4-0cf730c0b09c');
      expect(first.metrics.session_id).toBe(next.metrics.session_id);
    },
  );

  test(
    'notes-tools.jsonl and text.jsonl: reasoning, a ' + 'view, bash and grep in parallel, an edit, a failed view',
    async () => {
      const { events } = await runFixture('copilot/lab/notes-tools.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'reasoning', message: 'I should read the notes file first.' },
        { type: 'read', path: '/home/user/project/notes.md', is_success: true },
        { type: 'search', query: 'magic', is_success: true },
        {
          type: 'command',
          command: 'ls -la && echo done',
          working_directory: '/home/user/project',
          exit_code: 0,
          is_success: true,
        },
        { type: 'write', path: '/home/user/project/notes.md', is_success: true },
        { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
        { type: 'agent', message: 'The magic word was pineapple; I changed it to mango.' },
      ]);
      const text = await runFixture('copilot/lab/text.jsonl', { harness, cwd });
      expect(bodies(text.events)).toEqual([{ type: 'agent', message: 'Hello from the lab. The answer is 42.' }]);
    },
  );
});
