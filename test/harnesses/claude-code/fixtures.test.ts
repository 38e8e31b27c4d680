/**
 * Claude Code on real streams (test/fixtures/claude-code/, see SOURCES.md and lab/LAB.md there).
 * Every expected list below was checked by hand against claude-code.md and the raw lines.
 */
import { describe, expect, test } from 'vitest';
import { bodies, expectLossless, fixtureFiles, parsedLines, runFixture } from '../../helpers.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { records } from '../../../lib/harnesses/claude-code/correlate.js';

const harness = 'claude-code';

/** The rules of lib/harnesses/claude-code/correlate.ts and the ones every harness shares. */
const claudeRules = ruleNames(sharedRecords, records);

describe('every Claude Code fixture', () => {
  for (const file of fixtureFiles('claude-code')) {
    test(`${file}: strict, lossless, text kept`, async () => {
      const result = await runFixture(file, { harness });
      expectLossless(result, file, claudeRules);
      // Every text and thinking block is somewhere in an agent or reasoning message (or, the CLI's own report of a
      // failed API request, an error's).
      const said = result.events
        .filter((e) => e.type === 'agent' || e.type === 'reasoning' || e.type === 'error')
        .map((e) => (e as { message: string }).message);
      for (const record of parsedLines(file) as { type?: string; message?: { content?: unknown } }[]) {
        if (record?.type !== 'assistant' || !Array.isArray(record.message?.content)) continue;
        for (const block of record.message.content as { type: string; text?: string; thinking?: string }[]) {
          const text = block.type === 'text' ? block.text : block.type === 'thinking' ? block.thinking : undefined;
          if (text)
            expect(
              said.some((message) => message.includes(text)),
              text,
            ).toBe(true);
        }
      }
    });
  }
});

describe('exact events of real streams', () => {
  test('lab/read.jsonl: whole, ranged and missing reads; text joined per message', async () => {
    const { events, metrics } = await runFixture('claude-code/lab/read.jsonl', { harness });
    expect(events.every((e) => e.session_id === '02d16f6d-0bf7-4aa4-bbd8-ba2366e57ce9')).toBe(true);
    expect(bodies(events)).toEqual([
      { type: 'agent', message: "I'll start by reading the README." },
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'agent', message: 'Now lines 3-6 of the notes.' },
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 3, end_line: 6, is_success: true },
      { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
      {
        type: 'agent',
        message: 'The README says hello world, notes lines 3-6 are gamma to zeta, and missing.txt does not exist.',
      },
    ]);
    expect(metrics).toEqual({
      harness,
      session_id: '02d16f6d-0bf7-4aa4-bbd8-ba2366e57ce9',
      ended: true,
      tokens: { input: 480, output: 100, cache_read: 0, cache_write: 0, reasoning: 0 },
      cost: 0.00392,
      turns: 4,
      duration_ms: 613,
      final_output: 'The README says hello world, notes lines 3-6 are gamma to zeta, and missing.txt does not exist.',
      is_error: false,
      input: {
        bytes: 10565,
        lines: 11,
        rules: {
          [records.system.rules.init]: 1,
          [records.assistant.rules.blocks]: 6,
          [records.user.rules.blocks]: 3,
          [records.result.rules.success]: 1,
        },
      },
      events: { agent: 3, read: 3 },
    });
  });

  test('lab/bash.jsonl: Bash commands that are file reads, searches and listings become those events', async () => {
    const { events } = await runFixture('claude-code/lab/bash.jsonl', { harness });
    const src = '/home/user/project/src';
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 4, is_success: true },
      { type: 'search', query: 'hello', path: '/home/user/project', is_success: true },
      { type: 'list', path: '/home/user/project/src', is_success: true },
      { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
      // `| wc -l` is formatting; the read ran where the shell was after `cd src && ...` exited 0 (claude-code.md
      // "Shell directory"): src, where notes.txt is not (the result says so).
      { type: 'read', path: '/home/user/project/src/notes.txt', start_line: 1, end_line: 3, is_success: true },
      { type: 'command', command: 'false', working_directory: src, is_success: false },
      { type: 'command', command: 'echo hi > out.txt', working_directory: src, is_success: true },
      // `bash -lc 'ls'` is unwrapped; `ls` without an operand names no directory.
      { type: 'list', is_success: true },
      // Its result is `/home/user/project/src`.
      { type: 'command', command: 'pwd', working_directory: src, is_success: true },
      {
        type: 'agent',
        message:
          'Done: the shell stayed in src after the cd, so notes.txt was not found there and out.txt landed in src.',
      },
    ]);
  });

  test(
    'lab/parallel.jsonl: three calls of one message resolved in completion order; a failing Bash beside a good ' +
      'one',
    async () => {
      const { events } = await runFixture('claude-code/lab/parallel.jsonl', { harness });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Reading three things at once.' },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 1, end_line: 2, is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        { type: 'agent', message: 'Two commands at once, the first fails.' },
        { type: 'command', command: 'false', working_directory: '/home/user/project', is_success: false },
        { type: 'command', command: 'echo after', working_directory: '/home/user/project', is_success: true },
        { type: 'agent', message: 'README, src listing and notes all read; the failing pair was reported.' },
      ]);
    },
  );

  test(
    'lab/thinking.jsonl: reasoning ahead of its ' + 'message, redacted thinking and thinking_tokens consumed',
    async () => {
      const { events } = await runFixture('claude-code/lab/thinking.jsonl', { harness });
      expect(bodies(events)).toEqual([
        {
          type: 'reasoning',
          message: 'The user wants me to think first. I should read README.md to see what the project is.',
        },
        { type: 'agent', message: 'Let me look at the README.' },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'reasoning', message: 'The README says hello world. That answers the question.' },
        { type: 'agent', message: 'The project README says hello world.' },
      ]);
    },
  );

  test('lab/write-edit.jsonl: Write, Edit (also failing), NotebookEdit; ToolSearch is unknown', async () => {
    const { events } = await runFixture('claude-code/lab/write-edit.jsonl', { harness });
    const lines = parsedLines('claude-code/lab/write-edit.jsonl') as { message: { content: unknown[] } }[];
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Creating the file.' },
      { type: 'write', path: '/home/user/project/src/add.ts', is_success: true },
      { type: 'write', path: '/home/user/project/src/add.ts', is_success: true },
      { type: 'write', path: '/home/user/project/src/add.ts', is_success: false },
      { type: 'write', path: '/home/user/project/README.md', is_success: true },
      { type: 'agent', message: 'Loading the notebook tool.' },
      { type: 'unknown', raw: { tool_use: lines[12]!.message.content[0], tool_result: lines[13]!.message.content[0] } },
      { type: 'read', path: '/home/user/project/nb.ipynb', is_success: true },
      { type: 'write', path: '/home/user/project/nb.ipynb', is_success: true },
      { type: 'agent', message: 'Created src/add.ts, edited it, and replaced the code cell in nb.ipynb.' },
    ]);
  });

  test(
    'lab/subagent.jsonl: task_started and task_notification are ' + 'the orchestration, the subagent Read is a read',
    async () => {
      const { events } = await runFixture('claude-code/lab/subagent.jsonl', { harness });
      const agent = 'toolu_01Agent0000001';
      const subagent_name = 'general-purpose';
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Delegating to a subagent.' },
        // task_started; the Agent call and its result, task_progress and task_updated are consumed.
        { type: 'orchestration', action: 'subagent_started', subagent_id: agent, subagent_name, is_success: true },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: agent, subagent_name, is_success: true },
        { type: 'agent', message: 'The subagent reports that the first line of the README is "# Demo project".' },
      ]);
    },
  );

  test('lab/errors-max-turns.jsonl: an error_* result is an error, its usage still counted', async () => {
    const { events, metrics } = await runFixture('claude-code/lab/errors-max-turns.jsonl', { harness });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Reading.' },
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'error', message: 'Reached maximum number of turns (1)', code: 'error_max_turns' },
    ]);
    expect(metrics).toMatchObject({ is_error: true, ended: true, turns: 2, tokens: { input: 120, output: 25 } });
    expect(metrics.final_output).toBeUndefined();
  });

  test(
    'lab/rate-limit-rejected-429.jsonl: api_retry warnings, rejected rate limit a warning, the synthetic API ' +
      'error message an error (not agent), its repeating result nothing',
    async () => {
      const file = 'claude-code/lab/rate-limit-rejected-429.jsonl';
      const { events, metrics } = await runFixture(file, { harness });
      expect(bodies(events)).toEqual([
        {
          type: 'warning',
          code: 'api_retry',
          message: 'Claude Code retries the API request (attempt 1 of 2, HTTP 429, rate_limit, after 582 ms)',
        },
        {
          type: 'warning',
          code: 'api_retry',
          message: 'Claude Code retries the API request (attempt 2 of 2, HTTP 429, rate_limit, after 1221 ms)',
        },
        {
          type: 'warning',
          code: 'rate_limit_rejected',
          message:
            'Claude Code rate limit rejected (five_hour, overage rejected, out_of_credits, resets ' +
            '2026-11-30T03:06:44.000Z)',
        },
        // The CLI's own message (is_api_error_message) is the error, code its `error`; the result repeating it
        // gives none.
        { type: 'error', message: "You've hit your 5-hour limit · resets 3:06am (UTC)", code: 'rate_limit' },
      ]);
      expect(metrics.is_error).toBe(true);
    },
  );

  test('myterminal-read-tool.jsonl (2.1.265 on Windows): Windows paths stay Windows paths', async () => {
    const { events } = await runFixture('claude-code/myterminal-read-tool.jsonl', { harness });
    expect(bodies(events)).toEqual([
      {
        type: 'read',
        path: 'C:\\Users\\robert_ma\\AppData\\Local\\Temp\\agent-spike-670\\hello.txt',
        is_success: true,
      },
      { type: 'agent', message: 'AGENT_SPIKE_FILE_OK' },
    ]);
  });

  test(
    'hivemind-agent-ceiling-killed.jsonl: events after the result, a rejected subagent Bash, interruption text ' +
      'consumed',
    async () => {
      const file = 'claude-code/hivemind-agent-ceiling-killed.jsonl';
      const { events, metrics } = await runFixture(file, { harness });
      const lines = parsedLines(file);
      const agent = 'toolu_0137PNA9rjZuMZD5dDGNd4Pw';
      const subagent_name = 'general-purpose';
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: lines[7] },
        // The background agent's task_started; its Agent call, "launched" result and task_progress are consumed.
        { type: 'orchestration', action: 'subagent_started', subagent_id: agent, subagent_name, is_success: true },
        { type: 'agent', message: 'LAUNCHED' },
        // A background Bash's task is no subagent's: unknown, as before.
        { type: 'unknown', raw: lines[18] },
        { type: 'unknown', raw: lines[19] },
        // task_updated (killed) consumed; task_notification `stopped` is a failure.
        { type: 'orchestration', action: 'subagent_failed', subagent_id: agent, subagent_name, is_success: false },
        { type: 'unknown', raw: lines[23] },
        // The subagent's Bash ran in its parent's directory.
        {
          type: 'command',
          command: 'for i in 1 2 3 4; do sleep 4; done; echo DONE',
          working_directory: '/tmp/repro-out',
          is_success: false,
        },
      ]);
      expect(metrics).toMatchObject({ ended: true, is_error: false, final_output: 'LAUNCHED' });
    },
  );
});
