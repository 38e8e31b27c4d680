/** codex.md's command_execution items. */
import { describe, expect, test } from 'vitest';
import { completed, command, events } from './lines.js';

describe('items', () => {
  test("command_execution: Codex's shell wrapper is removed, whatever its quoting and shell", async () => {
    expect(
      await events(
        completed(command('item_0', "/bin/bash -lc 'npm test -- --watch=false'", 'completed', 0)),
        completed(command('item_1', 'bash -lc make', 'completed', 0)),
        completed(command('item_2', 'zsh -lc make', 'completed', 0)),
        completed(command('item_3', `/bin/bash -lc "echo 'a b' | tr a b"`, 'completed', 0)),
        completed(command('item_4', 'sh -c true', 'completed', 0)),
      ),
    ).toEqual([
      { type: 'command', command: 'npm test -- --watch=false', exit_code: 0, is_success: true },
      { type: 'command', command: 'make', exit_code: 0, is_success: true },
      { type: 'command', command: 'make', exit_code: 0, is_success: true },
      { type: 'command', command: "echo 'a b' | tr a b", exit_code: 0, is_success: true },
      { type: 'command', command: 'true', exit_code: 0, is_success: true },
    ]);
  });

  test(
    'command_execution: not exactly a wrapper with one ' + "of Codex's shell names, the command stays as written",
    async () => {
      expect(
        await events(
          completed(command('item_0', "/tmp/bash -lc 'make'", 'completed', 0)),
          completed(command('item_1', "bash -l -c 'make'", 'completed', 0)),
          completed(command('item_2', 'make all', 'completed', 0)),
        ),
      ).toEqual([
        { type: 'command', command: "/tmp/bash -lc 'make'", exit_code: 0, is_success: true },
        { type: 'command', command: "bash -l -c 'make'", exit_code: 0, is_success: true },
        { type: 'command', command: 'make all', exit_code: 0, is_success: true },
      ]);
    },
  );

  test(
    'command_execution success: completed with exit 0 true; failed, declined or a non-zero exit false; ' +
      'otherwise unset',
    async () => {
      expect(
        await events(
          completed(command('item_0', 'bash -lc make', 'completed', 0)),
          completed(command('item_1', 'bash -lc make', 'failed', 2)),
          completed(command('item_2', 'bash -lc make', 'completed', 3)),
          completed(command('item_3', 'bash -lc make', 'declined', null)),
          completed(command('item_4', 'bash -lc make', 'failed', null)),
          // No exit code to show for a completed command, or no final status: the outcome is not known.
          completed(command('item_5', 'bash -lc make', 'completed', null)),
          completed(command('item_6', 'bash -lc make', 'in_progress', null)),
          // Not an integer: not an exit code.
          completed(command('item_7', 'bash -lc make', 'completed', 0.5)),
        ),
      ).toEqual([
        { type: 'command', command: 'make', exit_code: 0, is_success: true },
        { type: 'command', command: 'make', exit_code: 2, is_success: false },
        { type: 'command', command: 'make', exit_code: 3, is_success: false },
        { type: 'command', command: 'make', is_success: false },
        { type: 'command', command: 'make', is_success: false },
        { type: 'command', command: 'make' },
        { type: 'command', command: 'make' },
        { type: 'command', command: 'make' },
      ]);
    },
  );

  test(
    'command_execution: a file operation is reclassified (paths against the cwd), keeping its success and no ' +
      'exit code',
    async () => {
      expect(
        await events(
          completed(command('item_0', "/bin/bash -lc 'cd src && cat a.ts'", 'completed', 0)),
          completed(command('item_1', `/bin/bash -lc "sed -n '5,9p' notes.txt"`, 'completed', 0)),
          completed(command('item_2', "/bin/bash -lc 'rg -n greet src'", 'failed', 2)),
          // Declined: never ran, still the read the agent attempted.
          completed(command('item_3', "/bin/bash -lc 'cat .env'", 'declined', null)),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/src/a.ts', is_success: true },
        { type: 'read', path: '/ws/notes.txt', start_line: 5, end_line: 9, is_success: true },
        { type: 'search', query: 'greet', path: '/ws/src', is_success: false },
        { type: 'read', path: '/ws/.env', is_success: false },
      ]);
    },
  );

  test(
    'command_execution: a search that exited 1 completed without a match (docs/contract.md); exit 2, a pipe into ' +
      'head, or a read stays failed',
    async () => {
      expect(
        await events(
          completed(command('item_0', "/bin/bash -lc 'rg -n zzz src'", 'failed', 1)),
          completed(command('item_1', "/bin/bash -lc 'ack zzz'", 'failed', 1)),
          completed(command('item_2', "/bin/bash -lc 'rg -n zzz nowhere'", 'failed', 2)),
          completed(command('item_3', "/bin/bash -lc 'rg -n zzz src | head -n 3'", 'failed', 1)),
          completed(command('item_4', "/bin/bash -lc 'cat missing.txt'", 'failed', 1)),
          completed(command('item_5', "/bin/bash -lc 'sed -n 1,3p a.ts; grep -n zzz a.ts'", 'failed', 1)),
        ),
      ).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'search', query: 'zzz', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws/nowhere', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'read', path: '/ws/missing.txt', is_success: false },
        { type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 3, is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/a.ts', is_success: true },
      ]);
    },
  );

  test('command_execution without a command string is unknown', async () => {
    const bad = completed({
      id: 'item_0',
      type: 'command_execution',
      command: ['bash', '-lc', 'ls'],
      status: 'completed',
      exit_code: 0,
    });
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });
});
