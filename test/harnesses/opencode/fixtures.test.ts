/**
 * OpenCode on real streams (test/fixtures/opencode/, see SOURCES.md and lab/LAB.md there).
 * Every expected list below was checked by hand against docs/harnesses/opencode.md, docs/contract.md and the raw
 * lines. The lab ran in /home/user/project, which is the `cwd` given here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { HarnessEvent, Tokens } from '../../../lib/kernel/events.js';
import { tools } from '../../../lib/harnesses/opencode/tools.js';
import { bodies, expectLossless, fixtureFiles, fixturePath, parsedLines, runFixture, untimed } from '../../helpers.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { records } from '../../../lib/harnesses/opencode/correlate.js';

const harness = 'opencode';
const cwd = '/home/user/project';

/** The rules of lib/harnesses/opencode/correlate.ts and the ones every harness shares. */
const opencodeRules = ruleNames(sharedRecords, records);

/** The lab's usual step: 1200 prompt tokens, none cached, 40 completion tokens, no price. */
const labStep = {
  type: 'usage',
  tokens: { input: 1200, output: 40, reasoning: 0, cache_read: 0, cache_write: 0 },
  cost: 0,
};

function usageTotals(events: HarnessEvent[]): { tokens: Tokens; cost?: number } {
  const tokens: Record<string, number> = {};
  let cost: number | undefined;
  for (const event of events) {
    if (event.type !== 'usage') continue;
    for (const [name, count] of Object.entries(event.tokens)) tokens[name] = (tokens[name] ?? 0) + count;
    if (event.cost !== undefined) cost = (cost ?? 0) + event.cost;
  }
  return { tokens, cost };
}

type Line = { type?: string; part?: { tool?: string; text?: string } };

describe('every OpenCode fixture', () => {
  for (const file of fixtureFiles('opencode')) {
    if (readFileSync(fixturePath(file)).length === 0) continue;
    test(`${file}: strict, lossless, text kept, usage adds up`, async () => {
      const result = await runFixture(file, { harness, cwd });
      expectLossless(result, file, opencodeRules);
      const lines = parsedLines(file) as (Line | undefined)[];
      const unknownRaws = result.events.filter((e) => e.type === 'unknown').map((e) => JSON.stringify(e.raw));
      const said = result.events.filter((e) => e.type === 'agent' || e.type === 'reasoning').map((e) => e.message);
      for (const line of lines) {
        // A tool outside the table is an unknown event carrying the tool part verbatim.
        const tool = line?.type === 'tool_use' ? line.part?.tool : undefined;
        if (tool !== undefined && !tools.has(tool.toLowerCase()))
          expect(unknownRaws, tool).toContain(JSON.stringify(line!.part));
        // Every non-empty text and reasoning part is a message, whole.
        const text = line?.type === 'text' || line?.type === 'reasoning' ? line.part?.text : undefined;
        if (text) expect(said, text).toContain(text);
      }
      // The per-step usage events and the run total are the same numbers (docs/contract.md "Run metrics").
      expect(usageTotals(result.events)).toEqual({ tokens: result.metrics.tokens, cost: result.metrics.cost });
      expect(result.metrics.turns).toBe(lines.filter((line) => line?.type === 'step_finish').length || undefined);
    });
  }

  test(
    'lab/error-http-500-persistent.jsonl is empty ' + '(OpenCode retried until killed): no events, no error',
    async () => {
      const { events, metrics, rules } = await runFixture('opencode/lab/error-http-500-persistent.jsonl', {
        harness,
        cwd,
      });
      expect(events).toEqual([]);
      expect(rules).toEqual([]);
      expect(metrics).toEqual({ harness, tokens: {}, input: { bytes: 0, lines: 0, rules: {} }, events: {} });
    },
  );
});

describe('exact events of real streams', () => {
  test(
    'lab/shell.jsonl: bash reclassified as read/search/list, exit codes, a non-zero exit fails a completed ' +
      'call, workdir',
    async () => {
      const { events } = await runFixture('opencode/lab/shell.jsonl', { harness, cwd });
      expect(new Set(events.map((e) => ('session_id' in e ? e.session_id : undefined)))).toEqual(
        new Set(['ses_dd5c6f53affeEyQjLv5WmhYG50']),
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        labStep,
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 4, is_success: true },
        labStep,
        { type: 'search', query: 'hello', path: '/home/user/project', is_success: true },
        labStep,
        { type: 'list', path: '/home/user/project/src', is_success: true },
        labStep,
        { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
        labStep,
        { type: 'command', command: 'false', working_directory: '/home/user/project', exit_code: 1, is_success: false },
        labStep,
        {
          type: 'command',
          command: 'echo hi > out.txt',
          working_directory: '/home/user/project',
          exit_code: 0,
          is_success: true,
        },
        labStep,
        {
          type: 'command',
          command: 'pwd && ls',
          working_directory: '/home/user/project/src',
          exit_code: 0,
          is_success: true,
        },
        labStep,
        { type: 'agent', message: 'Done looking around; `false` exited with status 1.' },
        labStep,
      ]);
    },
  );

  test(
    'lab/apply-patch.jsonl: one write per patch marker, resolved against the cwd; a failed patch fails its ' + 'writes',
    async () => {
      const { events } = await runFixture('opencode/lab/apply-patch.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'write', path: '/home/user/project/src/c.ts', is_success: true },
        { type: 'write', path: '/home/user/project/src/a.ts', is_success: true },
        labStep,
        { type: 'write', path: '/home/user/project/src/nope.ts', is_success: false },
        labStep,
        {
          type: 'agent',
          message: 'Added src/c.ts and updated src/a.ts; the second patch failed because src/nope.ts does not exist.',
        },
        labStep,
      ]);
    },
  );

  test(
    'lab/task-subagent.jsonl: the task call is a ' + 'completed subagent named by its child session; metrics',
    async () => {
      const file = 'opencode/lab/task-subagent.jsonl';
      const { events, metrics } = await runFixture(file, { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Delegating the search.' },
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'ses_dd5c692a3ffe6oj7YNnaY437mI',
          subagent_name: 'explore',
          is_success: true,
        },
        labStep,
        { type: 'agent', message: 'The subagent found greet defined in src/a.ts and called in src/b.ts.' },
        labStep,
      ]);
      expect(metrics).toEqual({
        harness,
        session_id: 'ses_dd5c69f20ffeEEi5a22fnoxdv0',
        tokens: { input: 2400, output: 80, reasoning: 0, cache_read: 0, cache_write: 0 },
        cost: 0,
        turns: 2,
        final_output: 'The subagent found greet defined in src/a.ts and called in src/b.ts.',
        input: {
          bytes: readFileSync(fixturePath(file)).length,
          lines: 7,
          rules: {
            [records.step_start.rules.consumed]: 2,
            [records.text.rules.event]: 2,
            [records.tool_use.rules.tool]: 1,
            [records.step_finish.rules.usage]: 2,
          },
        },
        events: { agent: 2, orchestration: 1, usage: 2 },
      });
    },
  );

  test(
    'lab/read.jsonl: whole, ranged (offset/limit) and ' + 'missing reads; per-step usage with cache reads; metrics',
    async () => {
      const { events, metrics } = await runFixture('opencode/lab/read.jsonl', { harness, cwd });
      const step = (input: number, output: number, cache_read: number) => ({
        type: 'usage',
        tokens: { input, output, reasoning: 0, cache_read, cache_write: 0 },
        cost: 0,
      });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'I will read the README first.' },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        step(2500, 30, 0),
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
        step(300, 30, 2400),
        { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
        step(300, 25, 2600),
        {
          type: 'agent',
          message:
            'README.md is a short project description; notes.txt lines 2-3 are "line two" and "line three hello"; ' +
            'missing.txt does not exist.',
        },
        step(300, 40, 2800),
      ]);
      expect(metrics).toMatchObject({
        tokens: { input: 3400, output: 125, reasoning: 0, cache_read: 7800, cache_write: 0 },
        cost: 0,
        turns: 4,
        final_output:
          'README.md is a short project description; notes.txt lines 2-3 are "line two" and "line three hello"; ' +
          'missing.txt does not exist.',
      });
      expect(metrics.ended).toBeUndefined();
    },
  );

  test(
    'lab/search.jsonl: grep and glob in completion order, with and without a path; lsp by position only is ' +
      'unknown',
    async () => {
      const file = 'opencode/lab/search.jsonl';
      const { events } = await runFixture(file, { harness, cwd });
      const lines = parsedLines(file) as { part: unknown }[];
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Searching.' },
        { type: 'search', query: 'greet', is_success: true },
        { type: 'search', query: '**/*.ts', is_success: true },
        labStep,
        { type: 'search', query: 'no_such_symbol_xyz', path: '/home/user/project', is_success: true },
        labStep,
        { type: 'search', query: '*.md', path: '/home/user/project', is_success: true },
        labStep,
        { type: 'unknown', raw: lines[13]!.part },
        labStep,
        { type: 'agent', message: 'greet is defined in src/a.ts and used in src/b.ts.' },
        labStep,
      ]);
    },
  );

  test(
    'lab/skill.jsonl: the skill file from metadata.dir; ' + 'a failed skill falls back to skills/<name>/SKILL.md',
    async () => {
      const { events } = await runFixture('opencode/lab/skill.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        {
          type: 'skill',
          path: '/home/user/project/.opencode/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        labStep,
        {
          type: 'skill',
          path: '/home/user/project/skills/no-such-skill/SKILL.md',
          skill_name: 'no-such-skill',
          is_success: false,
        },
        labStep,
        { type: 'agent', message: 'Loaded the release-notes skill; no-such-skill does not exist.' },
        labStep,
      ]);
    },
  );

  test(
    'lab/error-tool-args.jsonl: `invalid` is unknown ' + 'although completed; a read without filePath is unknown',
    async () => {
      const file = 'opencode/lab/error-tool-args.jsonl';
      const { events } = await runFixture(file, { harness, cwd });
      const lines = parsedLines(file) as { part: unknown }[];
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: lines[2]!.part },
        labStep,
        { type: 'unknown', raw: lines[5]!.part },
        labStep,
        { type: 'unknown', raw: lines[8]!.part },
        labStep,
        { type: 'agent', message: 'Recovered from the bad tool calls.' },
        labStep,
      ]);
    },
  );

  test('lab/reasoning.jsonl: reasoning records (--thinking), reasoning tokens as their own class', async () => {
    const { events } = await runFixture('opencode/lab/reasoning.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'The user wants the README. I should read it with the read tool.' },
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'usage', tokens: { input: 1500, output: 36, reasoning: 24, cache_read: 1000, cache_write: 0 }, cost: 0 },
      { type: 'reasoning', message: 'The README is short; summarise it in one line.' },
      { type: 'agent', message: 'The README describes a tiny demo project.' },
      { type: 'usage', tokens: { input: 300, output: 32, reasoning: 18, cache_read: 2500, cache_write: 0 }, cost: 0 },
    ]);
  });

  test(
    'lab/error-http-401.jsonl: the error record is an ' + 'error with data.message and the error name as code',
    async () => {
      const { events, metrics } = await runFixture('opencode/lab/error-http-401.jsonl', { harness, cwd });
      expect(untimed(events)).toEqual([
        {
          type: 'error',
          session_id: 'ses_dd5c63306ffepdjk6RCVEET1xB',
          message: 'Incorrect API key provided: fake-key-not-real.',
          code: 'APIError',
        },
      ]);
      expect(metrics).toMatchObject({ is_error: true, tokens: {} });
      expect(metrics.turns).toBeUndefined();
    },
  );

  test('lab/todo.jsonl: todowrite is consumed', async () => {
    const { events } = await runFixture('opencode/lab/todo.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      labStep,
      labStep,
      { type: 'agent', message: 'The plan is tracked in the todo list.' },
      labStep,
    ]);
  });

  test(
    'lab/error-stream-dropped.jsonl: a retried step ' + 'repeats step_start; one usage for the one step_finish',
    async () => {
      const { events, metrics } = await runFixture('opencode/lab/error-stream-dropped.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([{ type: 'agent', message: 'Hello after the dropped stream.' }, labStep]);
      expect(metrics.turns).toBe(1);
    },
  );

  test(
    'issue-26855-truncated-no-step-finish.jsonl: a stream ' + 'cut before its step_finish loses nothing already seen',
    async () => {
      const { events, metrics } = await runFixture('opencode/issue-26855-truncated-no-step-finish.jsonl', { harness });
      expect(bodies(events)).toEqual([{ type: 'agent', message: '`46457 * 352456 = 16,374,048,392`' }]);
      expect(metrics).toMatchObject({ tokens: {}, final_output: '`46457 * 352456 = 16,374,048,392`' });
      expect(metrics.turns).toBeUndefined();
    },
  );

  test('takopi-stream-success-bash.jsonl (1.0.x, no tokens.total): command, two steps whose costs add up', async () => {
    const { events, metrics } = await runFixture('opencode/takopi-stream-success-bash.jsonl', { harness });
    expect(bodies(events)).toEqual([
      { type: 'command', command: 'echo hello', exit_code: 0, is_success: true },
      { type: 'usage', tokens: { input: 21772, output: 110, reasoning: 0, cache_read: 0, cache_write: 0 }, cost: 0 },
      { type: 'agent', message: '```\nhello\n```' },
      {
        type: 'usage',
        tokens: { input: 671, output: 8, reasoning: 0, cache_read: 21415, cache_write: 0 },
        cost: 0.001,
      },
    ]);
    expect(metrics).toMatchObject({
      session_id: 'ses_494719016ffe85dkDMj0FPRbHK',
      tokens: { input: 22443, output: 118, reasoning: 0, cache_read: 21415, cache_write: 0 },
      cost: 0.001,
      turns: 2,
      final_output: '```\nhello\n```',
    });
  });

  test('nanopy-v1.18.21-read-projection.jsonl: parts without ids (a projection) are still classified', async () => {
    const { events } = await runFixture('opencode/nanopy-v1.18.21-read-projection.jsonl', { harness });
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/tmp/nanopy-agent-event-probe.ktOr9V/probe.txt', is_success: true },
      { type: 'usage', tokens: { input: 7952, output: 35, reasoning: 24, cache_read: 0, cache_write: 0 }, cost: 0 },
      { type: 'agent', message: 'NANOPY_EVENT_PROBE_20260823' },
      { type: 'usage', tokens: { input: 397, output: 16, reasoning: 20, cache_read: 7680, cache_write: 0 }, cost: 0 },
    ]);
  });
});
