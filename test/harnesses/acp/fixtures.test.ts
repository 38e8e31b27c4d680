/**
 * ACP on real streams (test/fixtures/acp/<agent>/, see LAB.md there): the stdout of six agents driven offline
 * in /home/user/project (LAB.md "Per capture"; the live suite's captures: live-captures.test.ts). Every expected
 * list below was checked by hand against acp.md and the raw lines (LAB.md's table gives the same events).
 */
import { describe, expect, test } from 'vitest';
import { records, updates } from '../../../lib/harnesses/acp/records.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { bodies, expectLossless, fixtureFiles, parsedLines, runFixture } from '../../helpers.js';

const harness = 'acp' as const;
const acpRules = ruleNames(sharedRecords, records, updates);
const project = '/home/user/project';
const options = { harness, cwd: project };

describe('every ACP capture', () => {
  const files = fixtureFiles('acp');

  test('the 44 captures of the nine agents are all here', () => {
    const four = ['edit', 'fail', 'text', 'tools'];
    // The live suite's defaults round, where the library rejected the permission requests (LAB.md).
    const refused = ['edit', 'fail', 'permission-default', 'text', 'tools'];
    expect(files.map((file) => file.replace(/^acp\//, ''))).toEqual([
      ...refused.map((name) => `claude-agent-acp/${name}.jsonl`),
      ...['cancel', ...four].map((name) => `claude-code-acp/${name}.jsonl`),
      ...refused.map((name) => `codex-acp/${name}.jsonl`),
      ...['cancel', ...refused].map((name) => `copilot/${name}.jsonl`),
      ...four.map((name) => `droid/${name}.jsonl`),
      ...four.map((name) => `gemini/${name}.jsonl`),
      ...['cancel', ...four].map((name) => `kilo/${name}.jsonl`),
      ...refused.map((name) => `opencode/${name}.jsonl`),
      ...refused.map((name) => `qwen/${name}.jsonl`),
    ]);
  });

  for (const file of files) {
    test(`${file}: strict, lossless, every event carries the session/new response's id, the turn ended`, async () => {
      const result = await runFixture(file, { harness });
      expectLossless(result, file, acpRules);
      const sessionNew = parsedLines(file).find(
        (line) => (line as { result?: { sessionId?: string } } | undefined)?.result?.sessionId !== undefined,
      ) as { result: { sessionId: string } };
      expect(result.metrics.session_id).toBe(sessionNew.result.sessionId);
      expect(result.events.length).toBeGreaterThan(0);
      expect(result.events.every((event) => event.session_id === sessionNew.result.sessionId)).toBe(true);
      // A turn the client cancelled, or codex-acp's own when its `abort` option was chosen.
      const cancelled = file.endsWith('cancel.jsonl') || file === 'acp/codex-acp/permission-default.jsonl';
      expect(result.metrics).toMatchObject({ harness, ended: true, turns: 1, is_error: cancelled });
      // No capture has a line nothing describes.
      expect(result.events.filter((event) => event.type === 'unknown')).toEqual([]);
    });
  }
});

describe('Copilot 1.0.102', () => {
  test(
    'tools.jsonl: grep typed `read` with a pattern is a search; the shell exit code from its shell_exit entry; ' +
      'inclusive usage',
    async () => {
      const { events, metrics } = await runFixture('acp/copilot/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes file first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.md`, is_success: true },
        // call_0005 (`kind: read`, rawInput.pattern) completes before call_0004.
        { type: 'search', query: 'magic', is_success: true },
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
        { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
        // 3400 in (800 of them cached), 65 out (8 of them thought): inclusive.
        { type: 'usage', tokens: { input: 2600, output: 57, reasoning: 8, cache_read: 800, cache_write: 0 } },
      ]);
      expect(metrics).toMatchObject({
        tokens: { input: 2600, output: 57, reasoning: 8, cache_read: 800, cache_write: 0 },
        is_error: false,
        final_output: 'notes.md says the magic word is pineapple; the project holds notes.md only.',
      });
    },
  );

  test('fail.jsonl: a failed view; a command that ends `completed` with exit code 3 failed', async () => {
    const { events } = await runFixture('acp/copilot/fail.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      {
        type: 'command',
        command: "node -e 'process.exit(3)'",
        working_directory: project,
        exit_code: 3,
        is_success: false,
      },
      { type: 'agent', message: 'missing.txt does not exist, and the check exits with status 3.' },
      { type: 'usage', tokens: { input: 3150, output: 44, reasoning: 0, cache_read: 0, cache_write: 0 } },
    ]);
  });

  test(
    'cancel.jsonl: the running command never finished (success unset), the cancelled turn is a warning, its ' +
      'usage follows',
    async () => {
      const { events, metrics } = await runFixture('acp/copilot/cancel.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Starting the slow build.' },
        { type: 'command', command: 'sleep 30 && echo built' },
        { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
        { type: 'usage', tokens: { input: 1000, output: 20, reasoning: 0, cache_read: 0, cache_write: 0 } },
      ]);
      expect(metrics).toMatchObject({ ended: true, is_error: true });
    },
  );
});

describe('Factory Droid 0.225.2', () => {
  test('tools.jsonl: Read with `line: 0` has no range; commands carry no exit code; no usage', async () => {
    const { events, metrics } = await runFixture('acp/droid/tools.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'reasoning', message: 'I should read the notes file first.' },
      { type: 'agent', message: 'Let me read the notes.' },
      { type: 'read', path: `${project}/notes.md`, is_success: true },
      // The terminal content the agent sent although no terminal was offered is ignored.
      { type: 'command', command: 'ls -la && echo done', is_success: true },
      { type: 'search', query: 'magic', is_success: true },
      { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
    ]);
    expect(metrics.tokens).toEqual({});
  });

  test('fail.jsonl: the command asked permission (its toolCall merged, nothing new) and ended `failed`', async () => {
    const { events } = await runFixture('acp/droid/fail.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      { type: 'command', command: "node -e 'process.exit(3)'", is_success: false },
      { type: 'agent', message: 'missing.txt does not exist, and the check exits with status 3.' },
    ]);
  });
});

describe('Kilo 7.7.7', () => {
  test(
    'tools.jsonl: records start empty and fill in with in_progress updates; disjoint usage of the last model ' + 'call',
    async () => {
      const { events, metrics } = await runFixture('acp/kilo/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes file first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.md`, is_success: true },
        { type: 'search', query: 'magic', is_success: true },
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
        { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
        // 500 + 15 + 800 cached = 1315 = totalTokens: disjoint, reported as sent.
        { type: 'usage', tokens: { input: 500, output: 15, cache_read: 800 } },
      ]);
      // usage_update's cost, in USD.
      expect(metrics).toMatchObject({ cost: 0, tokens: { input: 500, output: 15, cache_read: 800 } });
    },
  );

  test('fail.jsonl: the exit code from metadata.exit makes a `completed` command a failure', async () => {
    const { events } = await runFixture('acp/kilo/fail.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      {
        type: 'command',
        command: "node -e 'process.exit(3)'",
        working_directory: project,
        exit_code: 3,
        is_success: false,
      },
      { type: 'agent', message: 'missing.txt does not exist, and the check exits with status 3.' },
      // 1100 + 14 = 1114 = totalTokens: inclusive reads the same.
      { type: 'usage', tokens: { input: 1100, output: 14 } },
    ]);
  });

  test(
    'cancel.jsonl: the aborted command (`exit: null`) failed without an exit code; the all-zero usage gives no ' +
      'event',
    async () => {
      const { events, metrics } = await runFixture('acp/kilo/cancel.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Starting the slow build.' },
        { type: 'command', command: 'sleep 30 && echo built', working_directory: project, is_success: false },
        { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
      ]);
      expect(metrics).toMatchObject({ tokens: {}, ended: true, is_error: true });
    },
  );
});

describe('claude-code-acp 0.16.2', () => {
  test(
    'tools.jsonl: each call announced twice merges ' + 'into one; empty chunks before each message are dropped',
    async () => {
      const { events } = await runFixture('acp/claude-code-acp/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes file first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.md`, is_success: true },
        { type: 'search', query: 'magic', is_success: true },
        { type: 'command', command: 'ls -la && echo done', is_success: true },
        { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
      ]);
    },
  );

  test('fail.jsonl: `Exit code 3` as the failed Bash result is no exit code', async () => {
    const { events } = await runFixture('acp/claude-code-acp/fail.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      { type: 'command', command: "node -e 'process.exit(3)'", is_success: false },
      { type: 'agent', message: 'missing.txt does not exist, and the check exits with status 3.' },
    ]);
  });

  test('cancel.jsonl: the Bash call got no further update: emitted unfinished at the prompt response', async () => {
    const { events } = await runFixture('acp/claude-code-acp/cancel.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Starting the slow build.' },
      { type: 'command', command: 'sleep 30 && echo built' },
      { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
    ]);
  });
});

describe('Qwen Code 0.24.4', () => {
  test(
    'tools.jsonl: usage per model call from ' + '`_meta.usage`, after the span it closes; extension messages consumed',
    async () => {
      const { events, metrics } = await runFixture('acp/qwen/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes file first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'usage', tokens: { input: 1000, output: 12, reasoning: 8, cache_read: 0 } },
        { type: 'read', path: `${project}/notes.md`, is_success: true },
        { type: 'usage', tokens: { input: 1100, output: 30, reasoning: 0, cache_read: 0 } },
        // rawOutput.directory and rawOutput.exitCode.
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
        { type: 'search', query: 'magic', is_success: true },
        { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
        { type: 'usage', tokens: { input: 500, output: 15, reasoning: 0, cache_read: 800 } },
      ]);
      expect(metrics.tokens).toEqual({ input: 2600, output: 57, reasoning: 8, cache_read: 800 });
      expect(metrics.input.rules[records['extension method'].rules.consumed]).toBe(2);
    },
  );

  test('fail.jsonl: a failed read; a failed command with its exit code', async () => {
    const { events } = await runFixture('acp/qwen/fail.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'usage', tokens: { input: 1000, output: 15, reasoning: 0, cache_read: 0 } },
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      { type: 'usage', tokens: { input: 1050, output: 15, reasoning: 0, cache_read: 0 } },
      {
        type: 'command',
        command: "node -e 'process.exit(3)'",
        working_directory: project,
        exit_code: 3,
        is_success: false,
      },
      { type: 'agent', message: 'missing.txt does not exist, and the check exits with status 3.' },
      { type: 'usage', tokens: { input: 1100, output: 14, reasoning: 0, cache_read: 0 } },
    ]);
  });
});

describe('Gemini CLI 0.61.0', () => {
  test(
    'tools.jsonl: no rawInput: a command from its ' + "title, with success unset; a search from `'Q' within P`",
    async () => {
      const { events } = await runFixture('acp/gemini/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: '****\nI should read the notes file first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.md`, is_success: true },
        // First seen in the permission request; completed, but Gemini says so of every command that ran.
        { type: 'command', command: 'ls -la && echo done' },
        { type: 'search', query: 'magic', path: project, is_success: true },
        { type: 'agent', message: 'notes.md says the magic word is pineapple; the project holds notes.md only.' },
      ]);
    },
  );

  test('fail.jsonl: the exit-3 command ended `completed`: success unset', async () => {
    const { events } = await runFixture('acp/gemini/fail.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      { type: 'command', command: "node -e 'process.exit(3)'" },
      { type: 'agent', message: 'missing.txt does not exist, and the check exits with status 3.' },
    ]);
  });

  test('tools.jsonl without a cwd: the search path stays as Gemini gave it', async () => {
    const { events } = await runFixture('acp/gemini/tools.jsonl', { harness });
    expect(bodies(events).find((event) => event.type === 'search')).toEqual({
      type: 'search',
      query: 'magic',
      path: './',
      is_success: true,
    });
  });
});
