/**
 * Qwen Code on real streams (test/fixtures/qwen/lab/, Qwen Code 0.24.4; LAB.md says what
 * happened in each). Every expected list below was checked by hand against qwen.md (and
 * claude-code.md where qwen.md defers to it) and the raw lines.
 */
import { describe, expect, test } from 'vitest';
import { bodies, expectLossless, fixtureFiles, parsedLines, runFixture } from '../../helpers.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { records } from '../../../lib/harnesses/qwen/correlate.js';

const harness = 'qwen';
const lab = (name: string) => `qwen/lab/${name}.jsonl`;

/** The rules of lib/harnesses/qwen/correlate.ts and the ones every harness shares. */
const qwenRules = ruleNames(sharedRecords, records);

type Line = { type?: string; message?: { content: { type: string; text?: string; thinking?: string }[] } };

describe('every Qwen Code capture', () => {
  const files = fixtureFiles('qwen');

  // The nine of LAB.md, and the live suite's defaults and plan rounds (test/harnesses/refusals.test.ts).
  test('all eleven lab captures are here', () => {
    expect(files.length).toBe(11);
  });

  for (const file of files) {
    test(`${file}: strict, lossless, text kept`, async () => {
      const result = await runFixture(file, { harness });
      expectLossless(result, file, qwenRules);
      // Every text and thinking block is somewhere in an agent, reasoning or error message.
      const said = result.events
        .filter((e) => e.type === 'agent' || e.type === 'reasoning' || e.type === 'error')
        .map((e) => (e as { message: string }).message);
      for (const record of parsedLines(file) as Line[]) {
        if (record?.type !== 'assistant') continue;
        for (const block of record.message!.content) {
          const text = block.type === 'text' ? block.text : block.type === 'thinking' ? block.thinking : undefined;
          if (text) expect(said, text).toContain(text);
        }
      }
    });
  }
});

describe('exact events of real streams', () => {
  test(
    'files: every file tool; read_file offset 1 is line 2; todo_write and an unknown tool are unknown; failed ' +
      'tools unsuccessful',
    async () => {
      const file = lab('files');
      const { events, metrics } = await runFixture(file, { harness });
      const lines = parsedLines(file) as { message: { content: unknown[] } }[];
      const call = (use: number, block: number, result: number) => ({
        type: 'unknown',
        raw: { tool_use: lines[use]!.message.content[block], tool_result: lines[result]!.message.content[0] },
      });
      expect(events.every((e) => e.session_id === '52be7472-c619-4daa-9694-38aad4411538')).toBe(true);
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'I will start by reading the notes.' },
        call(4, 0, 5),
        { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
        // offset 1, limit 2: "Read lines 2-3 of 6 from notes.txt".
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
        { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
        { type: 'write', path: '/home/user/project/src/c.ts', is_success: true },
        { type: 'write', path: '/home/user/project/src/a.ts', is_success: true },
        { type: 'search', query: '**/*.ts', is_success: true },
        { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        {
          type: 'skill',
          path: '/home/user/project/skills/greeting/SKILL.md',
          skill_name: 'greeting',
          is_success: true,
        },
        { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
        { type: 'write', path: '/home/user/project/src/b.ts', is_success: false },
        call(17, 2, 20),
        { type: 'agent', message: 'Done: updated greet in src/a.ts and added src/c.ts.' },
      ]);
      expect(metrics).toEqual({
        harness,
        session_id: '52be7472-c619-4daa-9694-38aad4411538',
        ended: true,
        // result.usage {input_tokens 35100, output_tokens 380, cache_read_input_tokens 26900}: input is uncached.
        tokens: { input: 8200, output: 380, cache_read: 26900 },
        turns: 5,
        duration_ms: 7927,
        final_output: 'Done: updated greet in src/a.ts and added src/c.ts.',
        is_error: false,
        input: {
          bytes: 10766,
          lines: 22,
          rules: {
            [records.system.rules.init]: 1,
            [records.stream_event.rules.consumed]: 1,
            [records.assistant.rules.blocks]: 6,
            [records.user.rules.blocks]: 13,
            [records.result.rules.success]: 1,
          },
        },
        events: { agent: 2, unknown: 2, read: 4, write: 3, search: 2, list: 1, skill: 1 },
      });
    },
  );

  test(
    'shell: commands that are reads, a search and listings become those events; the one command carries the run ' +
      'cwd',
    async () => {
      const { events, metrics } = await runFixture(lab('shell'), { harness });
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
        // Its result is the summary block with `Exit Code: 0`; a reclassified read carries no exit code.
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 1, end_line: 3, is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
        // is_error true, `Exit Code: 2`.
        { type: 'list', path: '/home/user/project/does-not-exist', is_success: false },
        // Its result is the raw output ("?? build.log"): no exit code to report.
        {
          type: 'command',
          command: 'echo built > build.log && git status --short',
          working_directory: '/home/user/project',
          is_success: true,
        },
        { type: 'agent', message: 'The project has two TypeScript files; greet is defined in src/a.ts.' },
      ]);
      expect(metrics).toMatchObject({
        ended: true,
        is_error: false,
        turns: 4,
        tokens: { input: 6500, output: 198, cache_read: 17200 },
      });
    },
  );

  test(
    "subagent: a foreground agent; its own read (parent_tool_use_id set) maps as the main agent's, its result " +
      'is subagent_completed',
    async () => {
      const { events, metrics } = await runFixture(lab('subagent'), { harness });
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'call_0020',
          subagent_name: 'general-purpose',
          is_success: true,
        },
        { type: 'agent', message: 'The helper says: a tiny demo project used for agent stream captures.' },
      ]);
      expect(metrics).toMatchObject({
        ended: true,
        turns: 2,
        tokens: { input: 12100, output: 106, cache_read: 5500 },
        final_output: 'The helper says: a tiny demo project used for agent stream captures.',
      });
    },
  );

  test(
    'subagent-background: task_started and task_notification report it; its call and "launched" result are ' +
      'consumed',
    async () => {
      const { events, metrics } = await runFixture(lab('subagent-background'), { harness });
      expect(bodies(events)).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'call_0002',
          subagent_name: 'general-purpose',
          is_success: true,
        },
        { type: 'agent', message: 'I started a helper; it will report back.' },
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'call_0002',
          subagent_name: 'general-purpose',
          is_success: true,
        },
        { type: 'agent', message: 'The helper finished: a tiny demo project used for agent stream captures.' },
      ]);
      expect(metrics.input.rules).toEqual({
        [records.system.rules.init]: 1,
        [records.stream_event.rules.consumed]: 1,
        [records.assistant.rules.blocks]: 3,
        [records.user.rules.blocks]: 3,
        [records.system.rules.taskStarted]: 1,
        [records.system.rules.taskNotification]: 1,
        [records.result.rules.success]: 1,
      });
      expect(metrics.tokens).toEqual({ input: 12500, output: 119, cache_read: 11400 });
    },
  );

  test('api-error: the [API Error: ...] text is one error; the error result repeating it gives none', async () => {
    const { events, metrics } = await runFixture(lab('api-error'), { harness });
    expect(bodies(events)).toEqual([
      { type: 'error', message: '[API Error: 401 Incorrect API key provided: fake-key-not-real]' },
    ]);
    expect(metrics).toEqual({
      harness,
      session_id: 'b6545609-736b-42c6-b25c-aabf0317907c',
      ended: true,
      tokens: { input: 0, output: 0, cache_read: 0 },
      turns: 1,
      duration_ms: 3921,
      is_error: true,
      failure: 'auth',
      input: {
        bytes: 2271,
        lines: 4,
        rules: {
          [records.system.rules.init]: 1,
          [records.stream_event.rules.consumed]: 1,
          [records.assistant.rules.blocks]: 1,
          [records.result.rules.repeated]: 1,
        },
      },
      events: { error: 1 },
    });
  });

  test('text-reasoning: a thinking record and a text record of one model call give reasoning, then agent', async () => {
    const { events, metrics } = await runFixture(lab('text-reasoning'), { harness });
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'The user wants a one-line summary. The README says it is a demo project.' },
      { type: 'agent', message: 'This is a tiny demo project used for agent stream captures.' },
    ]);
    // result.usage, not the assistant records' (5100 in): the session total includes the memory request.
    expect(metrics.tokens).toEqual({ input: 1904, output: 47, cache_read: 4096 });
  });

  test('partial-messages: stream_event deltas consumed; the shell command carries the run cwd', async () => {
    const { events, metrics } = await runFixture(lab('partial-messages'), { harness });
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'I will count the lines with wc.' },
      { type: 'agent', message: 'Let me count them.' },
      { type: 'command', command: 'wc -l notes.txt', working_directory: '/home/user/project', is_success: true },
      { type: 'agent', message: 'notes.txt has 5 lines.' },
    ]);
    expect(metrics.input.rules[records.stream_event.rules.consumed]).toBe(23);
  });

  test('retry: an HTTP 500 retried inside the client leaves no record; only the answer', async () => {
    const { events, metrics } = await runFixture(lab('retry'), { harness });
    expect(bodies(events)).toEqual([{ type: 'agent', message: 'Hello!' }]);
    expect(metrics).toMatchObject({ ended: true, is_error: false, tokens: { input: 5900, output: 8, cache_read: 0 } });
  });

  test('turn-limit: the stream ends without a result; the run is not ended and reports no tokens', async () => {
    const { events, metrics } = await runFixture(lab('turn-limit'), { harness });
    expect(bodies(events)).toEqual([{ type: 'read', path: '/home/user/project/notes.txt', is_success: true }]);
    expect(metrics).toEqual({
      harness,
      session_id: '1a46de71-3d22-41eb-af2a-6a3d2ebedfb4',
      ended: false,
      tokens: {},
      input: {
        bytes: 2265,
        lines: 4,
        rules: {
          [records.system.rules.init]: 1,
          [records.stream_event.rules.consumed]: 1,
          [records.assistant.rules.blocks]: 1,
          [records.user.rules.blocks]: 1,
        },
      },
      events: { read: 1 },
    });
  });
});
