/**
 * Codex on real streams (test/fixtures/codex/, see SOURCES.md and lab/LAB.md there): the
 * published codex-cli 0.46 captures and the lab's codex-cli 0.169.0 ones. Every expected list
 * below was checked by hand against codex.md and the raw lines. Codex never reports its
 * working directory; the lab ran in /home/user/project, so the lab runs here are given it.
 */
import { describe, expect, test } from 'vitest';
import { tools } from '../../../lib/harnesses/codex/tools.js';
import { bodies, expectLossless, fixtureFiles, parsedLines, runFixture, untimed } from '../../helpers.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { records } from '../../../lib/harnesses/codex/correlate.js';

const harness = 'codex';
const cwd = '/home/user/project';

/** The rules of lib/harnesses/codex/correlate.ts and the ones every harness shares. */
const codexRules = ruleNames(sharedRecords, records);

describe('every Codex fixture', () => {
  for (const file of fixtureFiles('codex')) {
    test(`${file}: strict, lossless`, async () => {
      const result = await runFixture(file, { harness, cwd });
      expectLossless(result, file, codexRules);
      // An item the table has no row for is unknown, carrying its item.completed line verbatim.
      const unknownRaws = result.events
        .filter((e) => e.type === 'unknown')
        .map((e) => JSON.stringify((e as { raw: unknown }).raw));
      for (const record of parsedLines(file) as { type?: string; item?: { type?: string } }[]) {
        if (record?.type === 'item.completed' && !tools.has(record.item?.type ?? ''))
          expect(unknownRaws).toContain(JSON.stringify(record));
      }
    });
  }
});

describe('exact events of the lab captures (codex-cli 0.169.0)', () => {
  test(
    'lab/shell.jsonl: wrappers removed, reads, search and list reclassified; false, the redirect, pwd && ls and ' +
      'git status stay commands',
    async () => {
      const { events, metrics } = await runFixture('codex/lab/shell.jsonl', { harness, cwd });
      expect(events.every((e) => 'session_id' in e && e.session_id === '01a22a3a-f09b-75c3-9e1b-e125f08151df')).toBe(
        true,
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 4, is_success: true },
        { type: 'search', query: 'hello', path: '/home/user/project', is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
        { type: 'command', command: 'false', exit_code: 1, is_success: false },
        { type: 'command', command: 'echo hi > out.txt', exit_code: 0, is_success: true },
        { type: 'command', command: 'pwd && ls', exit_code: 0, is_success: true },
        { type: 'agent', message: 'Checking two things at once.' },
        { type: 'read', path: '/home/user/project/out.txt', is_success: true },
        { type: 'command', command: 'git status --short', exit_code: 0, is_success: true },
        { type: 'agent', message: 'Done looking around; `false` exited with status 1.' },
        { type: 'usage', tokens: { input: 12000, cache_read: 0, cache_write: 0, output: 400, reasoning: 0 } },
      ]);
      expect(metrics).toEqual({
        harness,
        session_id: '01a22a3a-f09b-75c3-9e1b-e125f08151df',
        ended: true,
        is_error: false,
        turns: 1,
        tokens: { input: 12000, cache_read: 0, cache_write: 0, output: 400, reasoning: 0 },
        final_output: 'Done looking around; `false` exited with status 1.',
        input: {
          bytes: 4570,
          lines: 25,
          rules: {
            [records['thread.started'].rules.session]: 1,
            [records['turn.started'].rules.consumed]: 1,
            [records['item.started'].rules.recorded]: 10,
            [records['item.completed'].rules.items]: 12,
            [records['turn.completed'].rules.usage]: 1,
          },
        },
        events: { read: 4, search: 1, list: 1, command: 4, agent: 2, usage: 1 },
      });
    },
  );

  test('lab/read.jsonl: cat, sed -n and nl | sed ranges, and a failed cat of a missing file', async () => {
    const { events } = await runFixture('codex/lab/read.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'I will read the README first.' },
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
      { type: 'read', path: '/home/user/project/src/a.ts', start_line: 1, end_line: 2, is_success: true },
      // Exit code 1, status failed: the read failed, and as a reclassified command it has no exit code.
      { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
      {
        type: 'agent',
        message:
          'README.md describes the project; notes.txt lines 2-3 are "line two" and "line three hello"; missing.txt ' +
          'does not exist.',
      },
      { type: 'usage', tokens: { input: 10300, cache_read: 37100, cache_write: 0, output: 170, reasoning: 0 } },
    ]);
  });

  test(
    'lab/subagent.jsonl: spawn starts the subagent; its ' + 'end is reported once, by wait, not again by close_agent',
    async () => {
      const { events, metrics } = await runFixture('codex/lab/subagent.jsonl', { harness, cwd });
      const subagent = '01a22a3b-0407-7c40-93d0-3b79de50cf58';
      expect(untimed(events)).toEqual(
        [
          { type: 'agent', message: 'Delegating the search to a sub-agent.' },
          { type: 'orchestration', action: 'subagent_started', subagent_id: subagent, is_success: true },
          { type: 'orchestration', action: 'subagent_completed', subagent_id: subagent, is_success: true },
          { type: 'agent', message: 'The sub-agent found greet defined in src/a.ts and called in src/b.ts.' },
          { type: 'usage', tokens: { input: 4800, cache_read: 0, cache_write: 0, output: 160, reasoning: 0 } },
        ].map((event) => ({ ...event, session_id: '01a22a3b-0379-74d2-ab77-ba38f5fe46c1' })),
      );
      expect(metrics.tokens).toEqual({ input: 4800, cache_read: 0, cache_write: 0, output: 160, reasoning: 0 });
    },
  );

  test('lab/error-stream-dropped.jsonl: Reconnecting notices are warnings, and the turn still completes', async () => {
    const { events, metrics } = await runFixture('codex/lab/error-stream-dropped.jsonl', { harness, cwd });
    const dropped =
      '(stream disconnected before completion: Transport error: network error: error decoding response body)';
    expect(bodies(events)).toEqual([
      { type: 'warning', message: `Reconnecting... 1/2 ${dropped}` },
      { type: 'warning', message: `Reconnecting... 2/2 ${dropped}` },
      { type: 'agent', message: 'Hello after reconnecting.' },
      { type: 'usage', tokens: { input: 1200, cache_read: 0, cache_write: 0, output: 40, reasoning: 0 } },
    ]);
    expect(metrics).toMatchObject({
      ended: true,
      is_error: false,
      turns: 1,
      final_output: 'Hello after reconnecting.',
    });
  });

  test('lab/error-stream-dropped-final.jsonl: the notices are warnings, turn.failed is the error', async () => {
    const { events, metrics } = await runFixture('codex/lab/error-stream-dropped-final.jsonl', { harness, cwd });
    const dropped =
      'stream disconnected before completion: Transport error: network error: error decoding response body';
    expect(bodies(events)).toEqual([
      { type: 'warning', message: `Reconnecting... 1/1 (${dropped})` },
      { type: 'warning', message: dropped },
      { type: 'error', message: dropped },
    ]);
    expect(metrics).toEqual({
      harness,
      session_id: '01a22a3b-09e4-7232-a3fb-42babec4a08e',
      ended: true,
      is_error: true,
      // "stream disconnected before completion": the model API failed.
      failure: 'api_error',
      tokens: {},
      input: {
        bytes: 526,
        lines: 5,
        rules: {
          [records['thread.started'].rules.session]: 1,
          [records['turn.started'].rules.consumed]: 1,
          [records.error.rules.warning]: 2,
          [records['turn.failed'].rules.error]: 1,
        },
      },
      events: { warning: 2, error: 1 },
    });
  });

  test('lab/write-edit.jsonl: one write per change (update, add, delete alike)', async () => {
    const { events } = await runFixture('codex/lab/write-edit.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'write', path: '/home/user/project/src/a.ts', is_success: true },
      { type: 'write', path: '/home/user/project/src/c.ts', is_success: true },
      { type: 'write', path: '/home/user/project/notes.txt', is_success: true },
      { type: 'write', path: '/home/user/project/README.md', is_success: true },
      {
        type: 'agent',
        message: 'Added src/c.ts, updated src/a.ts and README.md, deleted notes.txt; the patch for src/nope.ts failed.',
      },
      { type: 'usage', tokens: { input: 6000, cache_read: 0, cache_write: 0, output: 200, reasoning: 0 } },
    ]);
  });

  test('lab/todo.jsonl: the todo list is consumed through its started, updated and completed lines', async () => {
    const { events } = await runFixture('codex/lab/todo.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'agent', message: 'All steps are done.' },
      { type: 'usage', tokens: { input: 6000, cache_read: 0, cache_write: 0, output: 200, reasoning: 0 } },
    ]);
  });

  test('lab/reasoning.jsonl: reasoning items, and reasoning tokens split from output', async () => {
    const { events, metrics } = await runFixture('codex/lab/reasoning.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: '**Reading the README**\n\nThe user wants the README, so I will cat it.' },
      { type: 'read', path: '/home/user/project/README.md', is_success: true },
      { type: 'reasoning', message: '**Summarising**\n\nThe README is short; one line is enough.' },
      { type: 'agent', message: 'The README describes a tiny demo project.' },
      { type: 'usage', tokens: { input: 5500, cache_read: 12900, cache_write: 0, output: 60, reasoning: 80 } },
    ]);
    expect(metrics.tokens).toEqual({ input: 5500, cache_read: 12900, cache_write: 0, output: 60, reasoning: 80 });
  });

  test('lab/web-search.jsonl: web_search is unknown; its two id keys parse as the last one', async () => {
    const { events } = await runFixture('codex/lab/web-search.jsonl', { harness, cwd });
    const completed = parsedLines('codex/lab/web-search.jsonl')[4];
    expect((completed as { item: { id: string } }).item.id).toBe('ws_0227');
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: completed },
      { type: 'agent', message: 'According to the search, see the TypeScript release notes.' },
      { type: 'usage', tokens: { input: 1200, cache_read: 0, cache_write: 0, output: 40, reasoning: 0 } },
    ]);
  });

  test('lab/error-http-401.jsonl: the error notice is a warning, the failed turn an error', async () => {
    const { events, metrics } = await runFixture('codex/lab/error-http-401.jsonl', { harness, cwd });
    const message =
      'unexpected status 401 Unauthorized: Incorrect API key provided: fake-key-not-real., url: ' +
      'http://127.0.0.1:41517/v1/responses';
    expect(bodies(events)).toEqual([
      { type: 'warning', message },
      { type: 'error', message },
    ]);
    expect(metrics).toMatchObject({ ended: true, is_error: true });
  });
});

describe('exact events of the published captures (codex-cli 0.46)', () => {
  test(
    'agentcmd-stream-output-2-bash-ls.jsonl: `bash ' + '-lc ls` is a listing; item.started has no exit_code',
    async () => {
      const { events, metrics } = await runFixture('codex/agentcmd-stream-output-2-bash-ls.jsonl', { harness });
      expect(untimed(events)).toEqual(
        [
          { type: 'reasoning', message: '**Preparing to list files with bash shell**' },
          { type: 'list', is_success: true },
          { type: 'agent', message: 'Files here: `stream-output-1.jsonl`, `stream-output-2.jsonl`, `test.js`.' },
          { type: 'usage', tokens: { input: 1048, cache_read: 4992, output: 129 } },
        ].map((event) => ({ ...event, session_id: '019a2d7a-6455-7170-a661-c6d8b94c630a' })),
      );
      // 0.46 reports three usage fields: no cache_write, no reasoning.
      expect(metrics).toMatchObject({ ended: true, turns: 1, tokens: { input: 1048, cache_read: 4992, output: 129 } });
      expect(Object.keys(metrics.tokens).sort()).toEqual(['cache_read', 'input', 'output']);
    },
  );

  test(
    'agentcmd-stream-output-4-bash-cat-read.jsonl: `bash ' + "-lc 'cat test.js'` is a read, relative without a cwd",
    async () => {
      const { events } = await runFixture('codex/agentcmd-stream-output-4-bash-cat-read.jsonl', { harness });
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: '**Preparing to read file with bash shell**' },
        { type: 'read', path: 'test.js', is_success: true },
        { type: 'reasoning', message: '**Preparing response description**' },
        {
          type: 'agent',
          message:
            "`test.js` simply contains `console.log('Hello World');`, so running it will print the string “Hello " +
            'World” to the standard output.',
        },
        { type: 'usage', tokens: { input: 967, cache_read: 5120, output: 204 } },
      ]);
    },
  );

  test('agentcmd-stream-output-3-file-change-add.jsonl: a file_change with only item.completed', async () => {
    const { events } = await runFixture('codex/agentcmd-stream-output-3-file-change-add.jsonl', { harness });
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: '**Creating new file with patch**' },
      { type: 'write', path: '/private/tmp/codex-research-test/hello.txt', is_success: true },
      { type: 'agent', message: 'Created `hello.txt` containing `Hello from Codex`.' },
      { type: 'usage', tokens: { input: 1912, cache_read: 4096, output: 51 } },
    ]);
  });

  test(
    'agentcmd-stream-output-multi-1-truncated.jsonl: a ' + 'stream that stops after turn.started has not ended',
    async () => {
      const { events, metrics } = await runFixture('codex/agentcmd-stream-output-multi-1-truncated.jsonl', { harness });
      expect(events).toEqual([]);
      expect(metrics).toMatchObject({ session_id: '019a2d7b-c0ed-75a0-8908-de832785d47f', ended: false, tokens: {} });
    },
  );
});
