/** claude-code.md's tool mapping, one test per row. */
import { describe, expect, test } from 'vitest';
import { init, assistant, user, toolUse, toolResult, call, unknownCall, events } from './lines.js';

describe('tool mapping', () => {
  test('calls are paired by tool_use_id, not by order', async () => {
    expect(
      await events(
        assistant(
          'm1',
          toolUse('a', 'Read', { file_path: '/a' }),
          toolUse('b', 'Write', { file_path: '/b', content: 'x' }),
        ),
        user([toolResult('b')]),
        user([toolResult('a', 'boom', { is_error: true })]),
      ),
    ).toEqual([
      { type: 'write', path: '/b', is_success: true },
      { type: 'read', path: '/a', is_success: false },
    ]);
  });

  test('success from is_error (absent means success) and from interruption', async () => {
    expect(
      await events(
        assistant(
          'm1',
          toolUse('a', 'Bash', { command: 'sleep 100' }),
          toolUse('b', 'Bash', { command: 'make' }),
          toolUse('c', 'Bash', { command: 'make test' }),
        ),
        user([toolResult('a', 'Interrupted', { is_error: false })], {
          tool_use_result: { stdout: '', stderr: '', interrupted: true },
        }),
        user([toolResult('b', 'Exit code 2\nfailed', { is_error: true })], { tool_use_result: 'Error: Exit code 2' }),
        user([toolResult('c')]),
      ),
    ).toEqual([
      { type: 'command', command: 'sleep 100', is_success: false },
      { type: 'command', command: 'make', is_success: false },
      { type: 'command', command: 'make test', is_success: true },
    ]);
  });

  test(
    'an ambiguous id match (two different calls under one id) is unknown; the same call restated is not ' + 'ambiguous',
    async () => {
      const first = toolUse('dup', 'Read', { file_path: '/a' });
      const second = toolUse('dup', 'Bash', { command: 'rm -rf /' });
      const result = toolResult('dup');
      expect(await events(assistant('m1', first), assistant('m1', second), user([result]))).toEqual([
        { type: 'unknown', raw: { tool_use: [first, second], tool_result: result } },
      ]);
      expect(await events(assistant('m1', first), assistant('m1', first), user([result]))).toEqual([
        { type: 'read', path: '/a', is_success: true },
      ]);
    },
  );

  test(
    'a Read result with no recorded call is recovered from its file metadata; any other unpaired result is ' +
      'unknown',
    async () => {
      const orphanRead = toolResult('never-seen', '1\thello');
      const orphan = toolResult('also-never-seen', 'ok');
      expect(
        await events(
          init,
          user([orphanRead], {
            tool_use_result: {
              type: 'text',
              file: { filePath: 'notes.txt', content: 'x', numLines: 4, startLine: 3, totalLines: 9 },
            },
          }),
          user([orphan], { tool_use_result: { stdout: 'ok' } }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/notes.txt', start_line: 3, end_line: 6, is_success: true },
        { type: 'unknown', raw: orphan },
      ]);
    },
  );

  test('Read: the line range from offset (first line) and limit (count)', async () => {
    expect(
      await events(
        ...call('Read', { file_path: '/f', offset: 125, limit: 10 }),
        ...call('Read', { file_path: '/f', offset: 7 }),
        ...call('Read', { file_path: '/f', limit: 5 }),
        ...call('Read', { file_path: '/f', offset: 0, limit: 'ten' }),
        ...call('Read', { file_path: '/doc.pdf', pages: '1-5' }),
      ),
    ).toEqual([
      { type: 'read', path: '/f', start_line: 125, end_line: 134, is_success: true },
      { type: 'read', path: '/f', start_line: 7, is_success: true },
      { type: 'read', path: '/f', start_line: 1, end_line: 5, is_success: true },
      { type: 'read', path: '/f', is_success: true },
      { type: 'read', path: '/doc.pdf', is_success: true },
    ]);
  });

  test('Write, Edit, MultiEdit and NotebookEdit are writes', async () => {
    expect(
      await events(
        init,
        ...call('Write', { file_path: 'new.ts', content: 'secret' }),
        ...call('Edit', { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b' }),
        ...call('MultiEdit', { file_path: '/ws/b.ts', edits: [{ old_string: 'a', new_string: 'b' }] }),
        ...call('NotebookEdit', { notebook_path: '/ws/nb.ipynb', new_source: 'x', cell_id: 'c1' }),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/new.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/b.ts', is_success: true },
      { type: 'write', path: '/ws/nb.ipynb', is_success: true },
    ]);
  });

  test('Grep and Glob are searches', async () => {
    expect(
      await events(
        init,
        ...call('Grep', { pattern: 'TODO', path: 'src', output_mode: 'content', '-n': 'true' }),
        ...call('Glob', { pattern: '**/*.ts' }),
      ),
    ).toEqual([
      { type: 'search', query: 'TODO', path: '/ws/src', is_success: true },
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
  });

  test('LS is a list', async () => {
    expect(await events(...call('LS', { path: '/ws/services' }))).toEqual([
      { type: 'list', path: '/ws/services', is_success: true },
    ]);
  });

  test(
    'Bash that is recognizably file operations becomes them, keeping its success; a mixed command stays a ' + 'command',
    async () => {
      expect(
        await events(
          init,
          ...call('Bash', { command: "cd src && sed -n '10,20p' a.ts && cat /etc/hosts" }, { is_error: true }),
          ...call('Bash', { command: 'rg -n TODO lib | head -n 5' }),
          ...call('Bash', { command: 'cat a.ts && npm test' }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/src/a.ts', start_line: 10, end_line: 20, is_success: false },
        { type: 'read', path: '/etc/hosts', is_success: false },
        { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
        // The failed `cd src` was not kept (claude-code.md "Shell directory").
        { type: 'command', command: 'cat a.ts && npm test', working_directory: '/ws', is_success: true },
      ]);
    },
  );

  test(
    'Bash: a search whose whole result is `Exit code 1` completed without a match (docs/contract.md); any other ' +
      'failure stays a failure',
    async () => {
      const bash = (id: string, command: string, content: unknown) => [
        assistant(`msg_${id}`, toolUse(id, 'Bash', { command })),
        user([toolResult(id, content, { is_error: true })]),
      ];
      expect(
        await events(
          init,
          ...bash('t1', 'rg -n zzz src', 'Exit code 1'),
          ...bash('t2', 'grep -rn zzz .', [{ type: 'text', text: 'Exit code 1' }]),
          ...bash('t3', 'rg -n zzz src', 'Exit code 2\nrg: src: No such file or directory'),
          ...bash('t4', 'rg -n zzz src', 'Exit code 1\nsomething printed'),
          // Exit status of the pipeline is head's, and `cat` may have been what failed: not the search's.
          ...bash('t5', 'rg -n zzz src | head -n 3', 'Exit code 1'),
          ...bash('t6', 'cat a.txt && rg zzz', 'Exit code 1'),
          // One search among reads, ending the script unconditionally: only the search changes.
          ...bash('t7', 'cat a.txt; rg zzz', 'Exit code 1'),
          // Not a search: a read that exited 1 failed.
          ...bash('t8', 'cat missing.txt', 'Exit code 1'),
          // A command event carries no exit code (Claude reports none), whatever its text.
          ...bash('t9', 'npm test', 'Exit code 1'),
        ),
      ).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'read', path: '/ws/a.txt', is_success: false },
        { type: 'search', query: 'zzz', is_success: false },
        { type: 'read', path: '/ws/a.txt', is_success: false },
        { type: 'search', query: 'zzz', is_success: true },
        { type: 'read', path: '/ws/missing.txt', is_success: false },
        { type: 'command', command: 'npm test', working_directory: '/ws', is_success: false },
      ]);
    },
  );

  test('Bash is a command; Claude reports no exit code', async () => {
    expect(await events(...call('Bash', { command: 'npm test', description: 'run tests', timeout: 600000 }))).toEqual([
      { type: 'command', command: 'npm test', is_success: true },
    ]);
  });

  test('Skill is a skill, its path synthesized as skills/<name>/SKILL.md under the workspace', async () => {
    expect(await events(init, ...call('Skill', { skill: 'greet', args: 'Ada' }))).toEqual([
      { type: 'skill', path: '/ws/skills/greet/SKILL.md', skill_name: 'greet', is_success: true },
    ]);
  });

  test('StructuredOutput: neither the call nor its result is an event', async () => {
    expect(await events(...call('StructuredOutput', { answer: 'hello world' }))).toEqual([]);
  });

  test(
    'any other tool (MCP, web, todo, Task and its new ' + 'name Agent) is unknown, carrying the call and its result',
    async () => {
      for (const name of [
        'mcp__github__create_issue',
        'WebFetch',
        'TodoWrite',
        'Task',
        'Agent',
        'constructor',
        '__proto__',
      ]) {
        expect(await events(...call(name, { any: 'input' })), name).toEqual([unknownCall(name, { any: 'input' })]);
      }
    },
  );

  test('a known tool whose input does not fit its row is unknown', async () => {
    expect(await events(...call('Read', { path: '/wrong/field' }))).toEqual([
      unknownCall('Read', { path: '/wrong/field' }),
    ]);
  });
});
