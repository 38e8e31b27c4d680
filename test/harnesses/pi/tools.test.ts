/** pi.md's tool table, and bounded state (docs/contract.md). */
import { homedir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, session, start, finish, call, events } from './lines.js';

describe('tools', () => {
  async function tool(toolName: string, args: unknown, text = 'ok', isError = false) {
    return events(session, ...call(toolName, args, text, isError));
  }

  test(
    'read: path; offset (1-based) is start_line, end_line = offset + limit - 1; offset alone, limit alone, ' +
      'neither',
    async () => {
      expect(await tool('read', { path: 'a.ts', offset: 5, limit: 10 })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 5, end_line: 14, is_success: true },
      ]);
      expect(await tool('read', { path: 'a.ts', offset: 5 })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 5, is_success: true },
      ]);
      expect(await tool('read', { path: 'a.ts', limit: 3 })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 3, is_success: true },
      ]);
      expect(await tool('read', { path: '/abs/b.ts' })).toEqual([
        { type: 'read', path: '/abs/b.ts', is_success: true },
      ]);
    },
  );

  test('read without a path is unknown, carrying both records', async () => {
    const [s, e] = call('read', { offset: 1 });
    expect(await events(s, e)).toEqual([{ type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } }]);
  });

  test(
    'paths as pi reads them: a leading @ stripped, ~ the home directory, Unicode spaces plain, relative to the ' +
      'session cwd',
    async () => {
      // No home option: the process's own (docs/contract.md "Paths").
      const home = homedir();
      expect(await tool('read', { path: '@src/a.ts' })).toEqual([
        { type: 'read', path: '/ws/src/a.ts', is_success: true },
      ]);
      expect(await tool('write', { path: '@/etc/motd', content: 'x' })).toEqual([
        { type: 'write', path: '/etc/motd', is_success: true },
      ]);
      expect(await tool('edit', { path: '~/notes.md', edits: [] })).toEqual([
        { type: 'write', path: `${home}/notes.md`, is_success: true },
      ]);
      expect(await tool('ls', { path: '~' })).toEqual([{ type: 'list', path: home, is_success: true }]);
      expect(await tool('grep', { pattern: 'x', path: '@~/src' })).toEqual([
        { type: 'search', query: 'x', path: `${home}/src`, is_success: true },
      ]);
      expect(await tool('read', { path: 'my\u00a0file.txt' })).toEqual([
        { type: 'read', path: '/ws/my file.txt', is_success: true },
      ]);
      // Not pi's home shorthand: ~user and a ~ inside a name are plain path text.
      expect(await tool('read', { path: '~bob/a' })).toEqual([{ type: 'read', path: '/ws/~bob/a', is_success: true }]);
    },
  );

  test("~ expands against the run's home option, never the process's (pi.md Tools, contract.md Paths)", async () => {
    const lines = jsonl(
      session,
      ...call('read', { path: '~/notes.md' }),
      ...call('grep', { pattern: 'x', path: '@~' }),
    );
    expect(bodies((await run(lines, { harness, home: '/home/agent//' })).events)).toEqual([
      { type: 'read', path: '/home/agent/notes.md', is_success: true },
      { type: 'search', query: 'x', path: '/home/agent', is_success: true },
    ]);
  });

  test('write and edit: write, path, no range', async () => {
    expect(await tool('write', { path: 'src/c.ts', content: 'export const c = 3;\n' })).toEqual([
      { type: 'write', path: '/ws/src/c.ts', is_success: true },
    ]);
    expect(await tool('edit', { path: 'src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] })).toEqual([
      { type: 'write', path: '/ws/src/a.ts', is_success: true },
    ]);
    // The legacy top-level oldText/newText form.
    expect(await tool('edit', { path: 'src/a.ts', oldText: 'a', newText: 'b' }, 'Could not find', true)).toEqual([
      { type: 'write', path: '/ws/src/a.ts', is_success: false },
    ]);
  });

  test('grep: search, query = pattern, path when given', async () => {
    expect(await tool('grep', { pattern: 'greet', path: 'src', ignoreCase: true })).toEqual([
      { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
    ]);
    expect(await tool('grep', { pattern: 'greet' }, 'No matches found')).toEqual([
      { type: 'search', query: 'greet', is_success: true },
    ]);
  });

  test('find: search, query = pattern, path when given', async () => {
    expect(await tool('find', { pattern: '*.ts', path: 'src' })).toEqual([
      { type: 'search', query: '*.ts', path: '/ws/src', is_success: true },
    ]);
    expect(await tool('find', { pattern: '**/*.md' })).toEqual([
      { type: 'search', query: '**/*.md', is_success: true },
    ]);
  });

  test('grep or find without a pattern is unknown', async () => {
    const [s, e] = call('find', { path: 'src' });
    expect(await events(s, e)).toEqual([{ type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } }]);
  });

  test('ls: list, path when given; without one no path (pi.md Tools, revision 2026-12-01b)', async () => {
    expect(await tool('ls', { path: 'src' })).toEqual([{ type: 'list', path: '/ws/src', is_success: true }]);
    // Never filled with the working directory (docs/contract.md "Paths").
    expect(await tool('ls', {})).toEqual([{ type: 'list', is_success: true }]);
    expect(await events(...call('ls', {}))).toEqual([{ type: 'list', is_success: true }]);
  });

  test(
    'bash: a command in the session cwd; a failed result ' + 'ending "Command exited with code N" gives exit_code N',
    async () => {
      expect(await tool('bash', { command: 'npm test', timeout: 60 }, 'passed\n')).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws', is_success: true },
      ]);
      expect(await tool('bash', { command: 'npm test' }, '1 failing\n\n\nCommand exited with code 3', true)).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 3, is_success: false },
      ]);
      // A failure with no exit code: a timeout, an abort.
      expect(
        await tool('bash', { command: 'sleep 99', timeout: 1 }, 'Command timed out after 1 seconds', true),
      ).toEqual([{ type: 'command', command: 'sleep 99', working_directory: '/ws', is_success: false }]);
      // The text must end with it, and the result must be a failure.
      expect(await tool('bash', { command: 'make' }, 'Command exited with code 1\nmore', true)).toEqual([
        { type: 'command', command: 'make', working_directory: '/ws', is_success: false },
      ]);
      expect(await tool('bash', { command: 'echo Command exited with code 4' }, 'Command exited with code 4')).toEqual([
        { type: 'command', command: 'echo Command exited with code 4', working_directory: '/ws', is_success: true },
      ]);
    },
  );

  test('bash: recognized file operations (contract.md shell rules), keeping the success and no exit code', async () => {
    expect(await tool('bash', { command: "cd src && sed -n '2,4p' a.ts" }, 'x')).toEqual([
      { type: 'read', path: '/ws/src/a.ts', start_line: 2, end_line: 4, is_success: true },
    ]);
    expect(
      await tool(
        'bash',
        { command: 'cat missing.txt' },
        'cat: missing.txt: No such file or directory\n\n\nCommand exited with code 1',
        true,
      ),
    ).toEqual([{ type: 'read', path: '/ws/missing.txt', is_success: false }]);
  });

  test('bash: a search that exited 1 completed without a match; exit 2 is a failed search', async () => {
    expect(
      await tool('bash', { command: 'grep -rn zzz src' }, '(no output)\n\nCommand exited with code 1', true),
    ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: true }]);
    expect(
      await tool(
        'bash',
        { command: 'rg zzz nowhere' },
        'rg: nowhere: No such file or directory\n\nCommand exited with code 2',
        true,
      ),
    ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/nowhere', is_success: false }]);
  });

  test('bash without a command string is unknown', async () => {
    const [s, e] = call('bash', { command: ['ls'] });
    expect(await events(s, e)).toEqual([{ type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } }]);
  });

  test(
    'any other tool (extension tools, made-up names, ' + 'prototype names) is unknown, carrying both records',
    async () => {
      for (const name of ['web_search', 'does_not_exist', 'constructor', 'toString', 'Read']) {
        const [s, e] = call(name, { q: 1 }, `Tool ${name} not found`, true);
        expect(await events(s, e), name).toEqual([
          { type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } },
        ]);
      }
    },
  );
});

describe('state is bounded (docs/contract.md)', () => {
  test(
    'past maxPendingTools started calls, the oldest is emitted with its outcome unset; its end later is ' +
      'classified on its own',
    async () => {
      const out = await run(
        jsonl(
          session,
          start('call_1', 'read', { path: 'one' }),
          start('call_2', 'read', { path: 'two' }),
          start('call_3', 'read', { path: 'three' }),
          finish('call_3', 'read', 'x'),
          finish('call_1', 'read', 'x'),
        ),
        { harness, maxPendingTools: 2 },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'read', path: '/ws/one' },
        { type: 'read', path: '/ws/three', is_success: true },
        // call_1 was given up on: its end names no path.
        { type: 'unknown', raw: { tool_execution_end: finish('call_1', 'read', 'x') } },
        { type: 'read', path: '/ws/two' },
      ]);
    },
  );

  test('an id started again while it waits: the first call is emitted unresolved, the second waits', async () => {
    expect(
      await events(
        session,
        start('call_1', 'read', { path: 'one' }),
        start('call_1', 'read', { path: 'two' }),
        finish('call_1', 'read', 'x'),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/one' },
      { type: 'read', path: '/ws/two', is_success: true },
    ]);
  });
});
