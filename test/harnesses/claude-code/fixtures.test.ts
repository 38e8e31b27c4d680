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
      // Every text and thinking block is somewhere in an agent or reasoning message.
      const said = result.events
        .filter((e) => e.type === 'agent' || e.type === 'reasoning')
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
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 4, is_success: true },
      { type: 'search', query: 'hello', path: '/home/user/project', is_success: true },
      { type: 'list', path: '/home/user/project/src', is_success: true },
      { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
      // `| wc -l` is formatting; the read ran where the shell was (src), which Claude does not report.
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 1, end_line: 3, is_success: true },
      { type: 'command', command: 'false', is_success: false },
      { type: 'command', command: 'echo hi > out.txt', is_success: true },
      // `bash -lc 'ls'` is unwrapped; `ls` without an operand names no directory.
      { type: 'list', is_success: true },
      { type: 'command', command: 'pwd', is_success: true },
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
        { type: 'command', command: 'false', is_success: false },
        { type: 'command', command: 'echo after', is_success: true },
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
    'lab/subagent.jsonl: the Agent call is unknown (no ' + 'orchestration source), the subagent Read is a read',
    async () => {
      const file = 'claude-code/lab/subagent.jsonl';
      const { events } = await runFixture(file, { harness });
      const lines = parsedLines(file) as { message: { content: unknown[] } }[];
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Delegating to a subagent.' },
        { type: 'unknown', raw: lines[4] },
        { type: 'unknown', raw: lines[6] },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'unknown', raw: lines[9] },
        { type: 'unknown', raw: lines[10] },
        {
          type: 'unknown',
          raw: { tool_use: lines[3]!.message.content[0], tool_result: lines[11]!.message.content[0] },
        },
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
    'lab/rate-limit-rejected-429.jsonl: api_retry unknown, rejected rate limit a warning, is_error success an ' +
      'error',
    async () => {
      const file = 'claude-code/lab/rate-limit-rejected-429.jsonl';
      const { events, metrics } = await runFixture(file, { harness });
      const lines = parsedLines(file);
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: lines[2] },
        { type: 'unknown', raw: lines[3] },
        {
          type: 'warning',
          code: 'rate_limit_rejected',
          message:
            'Claude Code rate limit rejected (five_hour, overage rejected, out_of_credits, resets ' +
            '2026-11-30T03:06:44.000Z)',
        },
        { type: 'agent', message: "You've hit your 5-hour limit · resets 3:06am (UTC)" },
        { type: 'error', message: "You've hit your 5-hour limit · resets 3:06am (UTC)", code: 'api_error' },
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
      const lines = parsedLines(file) as { message: { content: unknown[] } }[];
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: lines[7] },
        { type: 'unknown', raw: lines[8] },
        { type: 'unknown', raw: { tool_use: lines[6]!.message.content[0], tool_result: lines[9]!.message.content[0] } },
        { type: 'unknown', raw: lines[14] },
        { type: 'agent', message: 'LAUNCHED' },
        { type: 'unknown', raw: lines[18] },
        { type: 'unknown', raw: lines[19] },
        { type: 'unknown', raw: lines[20] },
        { type: 'unknown', raw: lines[21] },
        { type: 'unknown', raw: lines[23] },
        { type: 'command', command: 'for i in 1 2 3 4; do sleep 4; done; echo DONE', is_success: false },
      ]);
      expect(metrics).toMatchObject({ ended: true, is_error: false, final_output: 'LAUNCHED' });
    },
  );
});
