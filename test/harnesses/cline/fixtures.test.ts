/**
 * Cline CLI on real streams (test/fixtures/cline/lab/, see LAB.md there: Cline 3.0.65 driven
 * offline). Every expected list below was checked by hand against docs/harnesses/cline.md, docs/contract.md and the
 * raw lines. The lab ran in /home/user/project, which is the `cwd` given here (Cline never
 * reports it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { agentEvents, records, teamEvents } from '../../../lib/harnesses/cline/correlate.js';
import { tools } from '../../../lib/harnesses/cline/tools.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { bodies, expectLossless, fixtureFiles, fixturePath, parsedLines, runFixture } from '../../helpers.js';

const harness = 'cline';
const cwd = '/home/user/project';
const clineRules = ruleNames(sharedRecords, records, agentEvents, teamEvents);

type Line = {
  type?: string;
  event?: { type?: string; contentType?: string; toolCallId?: string; toolName?: string; text?: string };
};

const usage = (input: number, output: number, more: Record<string, number> = {}, cost?: number) => ({
  type: 'usage',
  tokens: { input, output, ...more },
  ...(cost === undefined ? {} : { cost }),
});
const unknownTools = (events: HarnessEvent[]) =>
  events.flatMap((e) =>
    e.type === 'unknown' ? [(e.raw as { content_start: Line }).content_start.event?.toolName] : [],
  );

describe('every Cline fixture', () => {
  for (const file of fixtureFiles('cline')) {
    test(`${file}: strict, lossless, texts kept whole, unknown tools carry both records, no session id`, async () => {
      const result = await runFixture(file, { harness, cwd });
      expectLossless(result, file, clineRules);
      const lines = parsedLines(file) as (Line | undefined)[];
      const unknownRaws = result.events.filter((e) => e.type === 'unknown').map((e) => JSON.stringify(e.raw));
      const said = result.events.filter((e) => e.type === 'agent').map((e) => e.message);
      const starts = new Map<string, Line>();
      for (const line of lines) {
        const event = line?.event;
        if (event?.type === 'content_end' && event.contentType === 'text' && event.text!.trim() !== '')
          expect(said).toContain(event.text);
        if (event?.type === 'content_start' && event.contentType === 'tool') starts.set(event.toolCallId!, line!);
        if (event?.type === 'content_end' && event.contentType === 'tool' && !tools.has(event.toolName!)) {
          const start = starts.get(event.toolCallId!)!;
          expect(unknownRaws).toContain(JSON.stringify({ content_start: start, content_end: line }));
        }
      }
      // Only a line a rule named unknown becomes unknown (the helper checks the other way).
      expect(result.metrics.ended).toBe(true);
      expect(result.metrics.session_id).toBeUndefined();
      expect(result.events.filter((e) => 'session_id' in e)).toEqual([]);
    });
  }
});

describe('exact events of the lab captures (Cline 3.0.65)', () => {
  test(
    'text-reasoning.jsonl: usage, then the text, then the reasoning (wire ' + 'order); input less the cached part',
    async () => {
      const file = 'cline/lab/text-reasoning.jsonl';
      const { events, metrics } = await runFixture(file, { harness, cwd });
      expect(bodies(events)).toEqual([
        usage(1076, 42, { cache_read: 1024 }),
        { type: 'agent', message: 'This is a tiny demo TypeScript project used for agent stream captures.' },
        { type: 'reasoning', message: 'The user wants a one-line summary. The README says it is a demo project.' },
      ]);
      expect(metrics).toEqual({
        harness,
        ended: true,
        is_error: false,
        tokens: { input: 1076, output: 42, cache_read: 1024 },
        final_output: 'This is a tiny demo TypeScript project used for agent stream captures.',
        turns: 1,
        duration_ms: 974,
        input: {
          bytes: readFileSync(fixturePath(file)).length,
          lines: 16,
          rules: {
            [records.run_start.rules.consumed]: 1,
            [records.hook_event.rules.consumed]: 2,
            [agentEvents.iteration_start.rules.consumed]: 1,
            [agentEvents.content_start.rules.delta]: 6,
            [agentEvents.usage.rules.usage]: 1,
            [agentEvents.content_end.rules.agent]: 1,
            [agentEvents.content_end.rules.reasoning]: 1,
            [agentEvents.iteration_end.rules.consumed]: 1,
            [agentEvents.done.rules.consumed]: 1,
            [records.run_result.rules.consumed]: 1,
          },
        },
        events: { usage: 1, agent: 1, reasoning: 1 },
      });
    },
  );

  test('files.jsonl (hub): one read per file of read_files, a search per query, four editor writes', async () => {
    const { events, metrics } = await runFixture('cline/lab/files.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      // The hub writes zero cache fields: they are reported.
      usage(2600, 80, { cache_read: 0, cache_write: 0 }),
      { type: 'agent', message: 'I will read the notes and sources first.' },
      { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
      { type: 'read', path: '/home/user/project/src/a.ts', start_line: 2, end_line: 3, is_success: true },
      { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
      { type: 'search', query: 'greet\\(', is_success: true },
      usage(500, 160, { cache_read: 2600, cache_write: 0 }),
      { type: 'write', path: '/home/user/project/notes.txt', is_success: true },
      { type: 'write', path: '/home/user/project/docs/guide.md', is_success: true },
      // insert_line 1: an insertion before line 1.
      { type: 'write', path: '/home/user/project/src/b.ts', start_line: 1, is_success: true },
      // old_text not found.
      { type: 'write', path: '/home/user/project/src/a.ts', is_success: false },
      usage(500, 20, { cache_read: 3100, cache_write: 0 }),
      { type: 'agent', message: 'Done: the magic word is now mango and docs/guide.md exists.' },
    ]);
    expect(metrics).toMatchObject({
      tokens: { input: 3600, output: 260, cache_read: 5700, cache_write: 0 },
      turns: 3,
      duration_ms: 1950,
      is_error: false,
    });
    expect(metrics.cost).toBeUndefined();
  });

  test('patch-cost.jsonl: apply_patch one write per file (update + move is two), costs summed', async () => {
    const { events, metrics } = await runFixture('cline/lab/patch-cost.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      usage(2000, 120, { cache_read: 1000 }, 0.00546),
      { type: 'reasoning', message: 'One patch can do all three changes.' },
      { type: 'write', path: '/home/user/project/notes.txt', is_success: true },
      { type: 'write', path: '/home/user/project/docs/new.md', is_success: true },
      { type: 'write', path: '/home/user/project/src/b.ts', is_success: true },
      { type: 'write', path: '/home/user/project/src/main.ts', is_success: true },
      // run_commands `cat notes.txt` is a read, relative to the cwd.
      { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
      usage(400, 40, { cache_read: 3000 }, 0.002620000000000001),
      { type: 'write', path: '/home/user/project/src/missing.ts', is_success: false },
      usage(400, 20, { cache_read: 3400 }, 0.002659999999999999),
      { type: 'agent', message: 'Patched notes.txt, added docs/new.md and renamed src/b.ts to src/main.ts.' },
    ]);
    expect(metrics.tokens).toEqual({ input: 2800, output: 180, cache_read: 7400 });
    expect(metrics.cost).toBeCloseTo(0.01074, 12);
  });

  test('shell.jsonl: each command of run_commands is its own event; exit codes from the entries', async () => {
    const { events } = await runFixture('cline/lab/shell.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      usage(2400, 60),
      { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
      { type: 'read', path: '/home/user/project/README.md', start_line: 1, end_line: 2, is_success: true },
      { type: 'list', path: '/home/user/project/src', is_success: true },
      { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
      usage(400, 70, { cache_read: 2400 }),
      { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
      // grep exited 1 (`Command exited with code 1`): completed without a match (docs/contract.md).
      { type: 'search', query: 'zzz_nomatch_zzz', path: '/home/user/project/src', is_success: true },
      { type: 'list', path: '/home/user/project/does-not-exist', is_success: false },
      { type: 'search', query: 'zzz_nomatch_zzz', is_success: true },
      usage(400, 50, { cache_read: 2800 }),
      {
        type: 'command',
        command: 'echo built > build.log && git status --short',
        working_directory: '/home/user/project',
        is_success: true,
      },
      // {command, args} rendered as Cline renders it.
      {
        type: 'command',
        command: 'node -e "console.log(6 * 7)"',
        working_directory: '/home/user/project',
        is_success: true,
      },
      usage(400, 18, { cache_read: 3200 }),
      { type: 'agent', message: 'The project has two TypeScript files; greet is defined in src/a.ts.' },
    ]);
  });

  test(
    'subagent-mcp.jsonl: the skill, spawn_agent around its own usage, read ' + 'and text; MCP tools unknown',
    async () => {
      const { events, metrics } = await runFixture('cline/lab/subagent-mcp.jsonl', { harness, cwd });
      const zero = { cache_read: 0, cache_write: 0 };
      expect(bodies(events).filter((e) => e.type !== 'unknown')).toEqual([
        usage(2200, 20, zero),
        {
          type: 'skill',
          path: '/home/user/project/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        usage(300, 40, { cache_read: 2200, cache_write: 0 }),
        { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_0004' },
        usage(900, 20, zero),
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 4, end_line: 4, is_success: true },
        usage(100, 12, { cache_read: 900, cache_write: 0 }),
        { type: 'agent', message: 'The notes say the magic word is pineapple.' },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_0004', is_success: true },
        usage(400, 40, { cache_read: 2500, cache_write: 0 }),
        usage(400, 20, { cache_read: 2900, cache_write: 0 }),
        { type: 'agent', message: 'Release notes drafted; the helper found pineapple; tile 1/2/3 is cached.' },
      ]);
      expect(unknownTools(events)).toEqual(['lab__lookup_tile', 'lab__fail_always']);
      // The sub-agent's calls count (run_result.usage leaves them out: 10900 in).
      expect(metrics.tokens).toEqual({ input: 4300, output: 152, cache_read: 8500, cache_write: 0 });
      expect(metrics.turns).toBe(4);
    },
  );

  test(
    'tool-errors.jsonl: failed calls unknown, a recoverable error a ' + 'warning, a reversed range no range',
    async () => {
      const { events } = await runFixture('cline/lab/tool-errors.jsonl', { harness, cwd });
      const lines = parsedLines('cline/lab/tool-errors.jsonl') as Line[];
      const failedMessage = (lines.find((l) => l?.event?.type === 'error')!.event as { error: { message: string } })
        .error.message;
      expect(failedMessage.startsWith('2 tool call(s) failed: [not_a_tool]')).toBe(true);
      expect(bodies(events).filter((e) => e.type !== 'unknown')).toEqual([
        usage(2000, 30),
        { type: 'warning', message: failedMessage },
        usage(300, 30, { cache_read: 2000 }),
        usage(300, 30, { cache_read: 2300 }),
        usage(300, 30, { cache_read: 2600 }),
        // Cline creates the missing file even with old_text, and says so.
        { type: 'write', path: '/home/user/project/nope/missing.ts', is_success: true },
        { type: 'read', path: '/home/user/project/notes.txt', is_success: false },
        { type: 'read', path: '/home/user/project/README.md', start_line: 1, end_line: 1, is_success: true },
        usage(300, 14, { cache_read: 2900 }),
        { type: 'agent', message: 'One tool did not exist; the page says zoom 0 to 19.' },
      ]);
      // A tool that does not exist, read_files with input that fits no shape, and two tools outside the table.
      expect(unknownTools(events)).toEqual(['not_a_tool', 'read_files', 'ask_question', 'fetch_web_content']);
      expect(events.findIndex((e) => e.type === 'warning')).toBe(3);
    },
  );

  test('api-401.jsonl: the fatal auth error once; run_result repeats it', async () => {
    const { events, metrics, rules } = await runFixture('cline/lab/api-401.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([{ type: 'error', message: 'Incorrect API key provided.', code: 'auth' }]);
    expect(rules.at(-1)).toBe(records.run_result.rules.repeated);
    expect(metrics).toMatchObject({ is_error: true, ended: true, final_output: 'Incorrect API key provided.' });
    expect(metrics.tokens).toEqual({});
  });

  test(
    'retry-then-400.jsonl (hub): no agent error is written; run_result is ' + 'the error, code its finishReason',
    async () => {
      const { events, metrics } = await runFixture('cline/lab/retry-then-400.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        usage(1900, 26, { cache_read: 0, cache_write: 0 }),
        { type: 'agent', message: 'Reading the notes after two retries.' },
        // end_line alone: 1..end_line.
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 1, end_line: 2, is_success: true },
        { type: 'error', message: "Invalid 'tools[0].function': unknown field 'strict'.", code: 'error' },
      ]);
      expect(metrics).toMatchObject({ is_error: true, turns: 2, duration_ms: 6456 });
    },
  );

  test(
    "standard error's JSON lines merged after the stream: the repeated " + 'error is consumed, others are errors',
    async () => {
      const stdout = readFileSync(fixturePath('cline/lab/retry-then-400.jsonl'), 'utf8');
      const stderr = readFileSync(fixturePath('cline/lab/retry-then-400.stderr.txt'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'));
      const { run } = await import('../../helpers.js');
      const { events, rules } = await run(stdout + stderr.join('\n') + '\n', { harness, cwd });
      expect(bodies(events).slice(-2)).toEqual([
        { type: 'error', message: "Invalid 'tools[0].function': unknown field 'strict'.", code: 'error' },
        { type: 'error', message: 'hook dispatch failed: session.hook requires a valid hook event payload' },
      ]);
      expect(rules.slice(-2)).toEqual([records.error.rules.error, records.error.rules.repeated]);
    },
  );
});
