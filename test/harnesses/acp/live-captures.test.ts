/**
 * ACP on real streams the live suite captured (test/fixtures/acp/<agent>/, LAB.md "Live-suite captures"):
 * claude-agent-acp, codex-acp and opencode driven offline in /home/user/project. Every expected list below was
 * checked by hand against acp.md and the raw lines (LAB.md's table gives the same events).
 */
import { describe, expect, test } from 'vitest';
import { bodies, runFixture } from '../../helpers.js';

const harness = 'acp' as const;
const project = '/home/user/project';
const options = { harness, cwd: project };

describe('claude-agent-acp 0.23.1', () => {
  test(
    'tools.jsonl: each call announced once then filled by updates; the empty chunk before each block emits ' +
      'nothing; a whole-file Read has locations line 1 (a start line); usage summed over the turn, counted once',
    async () => {
      const { events, metrics } = await runFixture('acp/claude-agent-acp/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.txt`, start_line: 1, is_success: true },
        // No exit code and no working directory in a Bash call's records.
        { type: 'command', command: 'ls -la && echo done', is_success: true },
        { type: 'search', query: 'hello', path: project, is_success: true },
        { type: 'agent', message: 'The notes mention hello on line 4.' },
        // Four model calls of 1200 in and 40 out: the prompt response's sum.
        { type: 'usage', tokens: { input: 4800, output: 160, cache_read: 0, cache_write: 0 } },
      ]);
      // The metrics' tokens are the usage event's; the cost the last USD usage_update.
      expect(metrics).toMatchObject({
        tokens: { input: 4800, output: 160, cache_read: 0, cache_write: 0 },
        cost: 0.0168,
      });
    },
  );

  test('fail.jsonl: a failed Read; a failed Bash without an exit code', async () => {
    const { events } = await runFixture('acp/claude-agent-acp/fail.jsonl', options);
    expect(bodies(events).slice(0, 2)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, start_line: 1, is_success: false },
      { type: 'command', command: "node -e 'process.exit(3)'", is_success: false },
    ]);
  });
});

describe('codex-acp 0.16.0', () => {
  test(
    'tools.jsonl: calls classified from rawInput.parsed_cmd, not their kind or title (`Search hello`); the ' +
      'argv [/bin/bash, -lc, SCRIPT] is SCRIPT; a search whose cmd names no path has none; thought text kept as ' +
      'sent; no usage',
    async () => {
      const { events, metrics } = await runFixture('acp/codex-acp/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: '\n\nI should read the notes first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.txt`, is_success: true },
        // An `unknown` entry: one command, exit code from rawOutput.exit_code.
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
        { type: 'search', query: 'hello', is_success: true },
        { type: 'agent', message: 'The notes mention hello on line 4.' },
      ]);
      expect(metrics.tokens).toEqual({});
    },
  );

  test('fail.jsonl: a cat that exited 1 is a failed read; exit code 3 on the command', async () => {
    const { events } = await runFixture('acp/codex-acp/fail.jsonl', options);
    expect(bodies(events).slice(0, 2)).toEqual([
      { type: 'read', path: `${project}/missing.txt`, is_success: false },
      {
        type: 'command',
        command: "node -e 'process.exit(3)'",
        working_directory: project,
        exit_code: 3,
        is_success: false,
      },
    ]);
  });

  test('edit.jsonl: apply_patch is an edit record with a diff: one write', async () => {
    const { events } = await runFixture('acp/codex-acp/edit.jsonl', options);
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Editing src/c.ts.' },
      { type: 'write', path: `${project}/src/c.ts`, is_success: true },
      { type: 'agent', message: 'The answer is now 43.' },
    ]);
  });
});

describe('OpenCode 1.18.33 (opencode acp)', () => {
  test(
    'tools.jsonl: calls filled by in_progress updates; exit code ' + 'in metadata.exit; usage of the last call',
    async () => {
      const { events } = await runFixture('acp/opencode/tools.jsonl', options);
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: `${project}/notes.txt`, is_success: true },
        { type: 'command', command: 'ls -la && echo done', working_directory: project, exit_code: 0, is_success: true },
        { type: 'search', query: 'hello', path: project, is_success: true },
        { type: 'agent', message: 'The notes mention hello on line 4.' },
        // Only inputTokens, outputTokens and totalTokens: the inclusive rule, input and output only.
        { type: 'usage', tokens: { input: 1200, output: 40 } },
      ]);
    },
  );

  test(
    'text.jsonl and fail.jsonl: thought and cache classes when ' + 'sent; a completed command exiting 3 failed',
    async () => {
      expect(bodies((await runFixture('acp/opencode/text.jsonl', options)).events)).toEqual([
        { type: 'reasoning', message: 'The user wants the answer; I remember it.' },
        { type: 'agent', message: 'The answer is 42.' },
        { type: 'usage', tokens: { input: 800, output: 18, cache_read: 100, reasoning: 12 } },
      ]);
      expect(bodies((await runFixture('acp/opencode/fail.jsonl', options)).events).slice(0, 2)).toEqual([
        { type: 'read', path: `${project}/missing.txt`, is_success: false },
        {
          type: 'command',
          command: "node -e 'process.exit(3)'",
          working_directory: project,
          exit_code: 3,
          is_success: false,
        },
      ]);
    },
  );
});
