/**
 * Goose on whole authored streams (test/fixtures/goose/, see SOURCES.md there: Goose's wire
 * shapes field by field, not captures). Every expected list below was checked by hand against
 * goose.md and the raw lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { bodies, fixtureFiles, fixturePath, keepsUnknown, runFixture } from '../../helpers.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { records } from '../../../lib/harnesses/goose/correlate.js';

const harness = 'goose';
const cwd = '/home/dev/project';

const A = records.message.rules.assistant;
const U = records.message.rules.user;

/** The rules of lib/harnesses/goose/correlate.ts and the ones every harness shares. */
const gooseRules = ruleNames(sharedRecords, records);

/** The rule expected for each line of each fixture. */
const expectedRules: Record<string, string[]> = {
  'goose/era-a-tools.jsonl': [
    A,
    A,
    U,
    A,
    U,
    A,
    U,
    A,
    U,
    A,
    U,
    A,
    records.notification.rules.unknown,
    U,
    A,
    U,
    A,
    records.complete.rules.consumed,
  ],
  'goose/era-b-tools.jsonl': [...Array(6).fill([A, U]).flat(), records.complete.rules.consumed],
  'goose/full-run.jsonl': [
    ...Array(3).fill(sharedRecords['not JSON'].rules.warning),
    A,
    A,
    A,
    U,
    A,
    A,
    A,
    U,
    A,
    records.notification.rules.unknown,
    U,
    A,
    U,
    A,
    A,
    records.complete.rules.consumed,
  ],
  'goose/odd-records.jsonl': [
    sharedRecords['any other type'].rules.unknown,
    A,
    A,
    A,
    A,
    U,
    A,
    records.message.rules.other,
    records.message.rules.other,
    A,
    A,
    sharedRecords['not a typed object'].rules.unknown,
    records.notification.rules.unknown,
    records.error.rules.error,
    records.complete.rules.consumed,
  ],
  'goose/shell-mixed.jsonl': [...Array(4).fill([A, U]).flat(), records.complete.rules.consumed],
  'goose/shell-operations.jsonl': [...Array(6).fill([A, U]).flat(), records.complete.rules.consumed],
};

describe('every Goose fixture', () => {
  test('has its rule list here', () => {
    expect(fixtureFiles('goose')).toEqual(Object.keys(expectedRules));
  });

  for (const file of fixtureFiles('goose')) {
    test(`${file}: strict, every line by a named rule, unknown lines kept verbatim`, async () => {
      const { rules, events } = await runFixture(file, { harness, cwd });
      expect(rules).toEqual(expectedRules[file]);
      for (const rule of rules) expect(gooseRules).toContain(rule);
      const lines = readFileSync(fixturePath(file), 'utf8').split('\n');
      const raws = events.filter((e) => e.type === 'unknown').map((e) => JSON.stringify(e.raw));
      rules.forEach((rule, index) => {
        if (keepsUnknown(rule)) expect(raws, `line ${index + 1}`).toContain(JSON.stringify(JSON.parse(lines[index]!)));
      });
    });
  }

  test('the lossless check has lines to hold: the rules that keep a line verbatim, from the table', () => {
    const kept = Object.values(expectedRules).flat().filter(keepsUnknown);
    expect(new Set(kept)).toEqual(
      new Set([
        sharedRecords['any other type'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        records.message.rules.other,
        records.notification.rules.unknown,
      ]),
    );
  });
});

describe('exact events', () => {
  test('full-run.jsonl: banner, thinking and text deltas, both name eras, a notification, complete', async () => {
    const file = 'goose/full-run.jsonl';
    const { events, metrics } = await runFixture(file, { harness, cwd });
    expect(bodies(events)).toEqual([
      {
        type: 'warning',
        message: 'starting session | provider: openrouter model: deepseek/deepseek-chat-v3.1',
        code: 'not_json',
      },
      { type: 'warning', message: '    session id: 20251130_1', code: 'not_json' },
      { type: 'warning', message: '    working directory: /home/dev/project', code: 'not_json' },
      // Two deltas, then the same thinking restated in front of the tool request: one span.
      { type: 'reasoning', message: 'The greeting is printed by src/greet.ts; read it before editing.' },
      { type: 'read', path: '/home/dev/project/src/greet.ts', start_line: 1, end_line: 20, is_success: true },
      { type: 'agent', message: 'Line 2 says "Helo"; fixing it.' },
      { type: 'write', path: '/home/dev/project/src/greet.ts', is_success: true },
      {
        type: 'unknown',
        raw: { type: 'notification', extension_id: 'call_03', log: { message: 'PASS test/greet.test.ts' } },
      },
      { type: 'command', command: 'npm test', exit_code: 0, is_success: true },
      // todo__todo_write: no event.
      { type: 'agent', message: 'Fixed the typo in src/greet.ts; the tests pass.' },
    ]);
    expect(events.some((e) => 'session_id' in e)).toBe(false);
    expect(metrics).toEqual({
      harness,
      ended: true,
      tokens: { input: 4800, output: 320 },
      total_tokens: 5120,
      input: {
        bytes: readFileSync(fixturePath(file)).length,
        lines: 19,
        rules: {
          [sharedRecords['not JSON'].rules.warning]: 3,
          [A]: 10,
          [U]: 4,
          [records.notification.rules.unknown]: 1,
          [records.complete.rules.consumed]: 1,
        },
      },
      events: { warning: 3, reasoning: 1, read: 1, agent: 2, write: 1, unknown: 1, command: 1 },
    });
  });

  test('shell-operations.jsonl: shell commands that read, search and list become those events', async () => {
    const { events, metrics } = await runFixture('goose/shell-operations.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/home/dev/project/README.md', is_success: true },
      { type: 'read', path: '/home/dev/project/notes.txt', start_line: 2, end_line: 4, is_success: true },
      { type: 'search', query: 'greet', path: '/home/dev/project/src', is_success: true },
      { type: 'list', path: '/home/dev/project/src', is_success: true },
      { type: 'read', path: '/home/dev/project/src/greet.ts', is_success: true },
      // Exit code 1: the read failed.
      { type: 'read', path: '/home/dev/project/missing.txt', is_success: false },
    ]);
    expect(metrics).toMatchObject({ ended: true, tokens: { input: 1900, output: 148 }, total_tokens: 2048 });
  });

  test('shell-mixed.jsonl: commands that do more than read stay commands, with their exit codes', async () => {
    const { events } = await runFixture('goose/shell-mixed.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'command', command: 'cat README.md && npm test', exit_code: 0, is_success: true },
      { type: 'command', command: 'echo done > status.txt', exit_code: 0, is_success: true },
      { type: 'command', command: 'git status --short', exit_code: 0, is_success: true },
      { type: 'command', command: 'npm run lint', exit_code: 2, is_success: false },
    ]);
  });

  test('era-a-tools.jsonl: goose-mcp developer__text_editor and developer__shell', async () => {
    const file = 'goose/era-a-tools.jsonl';
    const { events, metrics } = await runFixture(file, { harness, cwd });
    const undo = readFileSync(fixturePath(file), 'utf8')
      .split('\n')
      .slice(9, 11)
      .map((line) => JSON.parse(line).message.content[0]);
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Let me look at the file.' },
      // view_range [10, -1]: from line 10 to the end.
      { type: 'read', path: '/home/dev/project/src/greet.ts', start_line: 10, is_success: true },
      { type: 'write', path: '/home/dev/project/NOTES.md', is_success: true },
      { type: 'write', path: '/home/dev/project/src/greet.ts', is_success: true },
      { type: 'write', path: '/home/dev/project/src/greet.ts', is_success: true },
      // undo_edit is not in the text_editor row.
      { type: 'unknown', raw: { tool_request: undo[0], tool_response: undo[1] } },
      {
        type: 'unknown',
        raw: { type: 'notification', extension_id: 'toolu_06', log: { message: 'PASS test/greet.test.ts' } },
      },
      // Era A shell results carry no exit code; isError decides.
      { type: 'command', command: 'npm test', is_success: true },
      { type: 'command', command: 'npm run nope', is_success: false },
      { type: 'agent', message: 'Done.' },
    ]);
    expect(metrics).toMatchObject({ ended: true, tokens: {}, total_tokens: 8000 });
  });

  test('era-b-tools.jsonl: bare tree, write, edit, shell; isError, exit codes and dispatch failures', async () => {
    const { events } = await runFixture('goose/era-b-tools.jsonl', { harness, cwd });
    expect(bodies(events)).toEqual([
      { type: 'list', path: '/home/dev/project', is_success: true },
      { type: 'write', path: '/home/dev/project/docs/USAGE.md', is_success: true },
      { type: 'write', path: '/home/dev/project/src/greet.ts', is_success: true },
      { type: 'write', path: '/home/dev/project/src/greet.ts', is_success: false },
      { type: 'command', command: 'npm test', exit_code: 1, is_success: false },
      { type: 'command', command: 'sleep 999', is_success: false },
    ]);
  });

  test(
    'odd-records.jsonl: everything unexpected is ' + 'unknown; error then complete; an unanswered call at the end',
    async () => {
      const file = 'goose/odd-records.jsonl';
      const { events, metrics } = await runFixture(file, { harness, cwd });
      const lines = readFileSync(fixturePath(file), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      const blocks = (line: number) => lines[line - 1].message.content;
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: lines[0] },
        { type: 'unknown', raw: blocks(2)[0] },
        { type: 'unknown', raw: blocks(3)[0] },
        { type: 'unknown', raw: blocks(3)[1] },
        { type: 'unknown', raw: blocks(4)[0] },
        { type: 'unknown', raw: blocks(5)[0] },
        { type: 'unknown', raw: blocks(6)[0] },
        // Line 7's read waits for a response that never comes.
        { type: 'unknown', raw: lines[7] },
        { type: 'unknown', raw: lines[8] },
        { type: 'unknown', raw: blocks(10)[0] },
        { type: 'unknown', raw: blocks(10)[1] },
        { type: 'unknown', raw: blocks(11)[0] },
        { type: 'unknown', raw: ['not', 'a', 'record'] },
        { type: 'unknown', raw: lines[12] },
        { type: 'error', message: 'Request failed: 429 Too Many Requests' },
        { type: 'read', path: '/home/dev/project/README.md' },
      ]);
      expect(blocks(5)[0].toolCall.status).toBe('error');
      expect(metrics).toMatchObject({ ended: true, is_error: true, tokens: {} });
      expect(metrics.total_tokens).toBeUndefined();
    },
  );
});
