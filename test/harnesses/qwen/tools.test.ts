/** One test per row of qwen.md's tool table. */
import { describe, expect, test } from 'vitest';
import { init, call, unknownCall, shellBlock, events } from './lines.js';

describe('tools', () => {
  test(
    'read_file: start_line = offset + 1, end_line = offset + limit; offset alone, limit alone, neither; bad ' +
      'values give no range',
    async () => {
      expect(
        await events(
          init,
          ...call('read_file', { file_path: '/f', offset: 0, limit: 10 }),
          ...call('read_file', { file_path: '/f', offset: 7 }),
          ...call('read_file', { file_path: '/f', limit: 5 }),
          ...call('read_file', { file_path: 'rel.txt' }),
          ...call('read_file', { file_path: '/f', offset: -1, limit: 0 }),
          ...call('read_file', { file_path: '/f', offset: '3', limit: 2.5 }),
        ),
      ).toEqual([
        { type: 'read', path: '/f', start_line: 1, end_line: 10, is_success: true },
        { type: 'read', path: '/f', start_line: 8, is_success: true },
        { type: 'read', path: '/f', start_line: 1, end_line: 5, is_success: true },
        { type: 'read', path: '/ws/rel.txt', is_success: true },
        { type: 'read', path: '/f', is_success: true },
        { type: 'read', path: '/f', is_success: true },
      ]);
      expect(await events(...call('read_file', { path: '/wrong/field' }))).toEqual([
        unknownCall('read_file', { path: '/wrong/field' }),
      ]);
    },
  );

  test('write_file, edit (legacy replace): write, path = file_path', async () => {
    expect(
      await events(
        ...call('write_file', { file_path: '/ws/c.ts', content: 'secret' }),
        ...call('edit', { file_path: '/ws/a.ts', old_string: 'a', new_string: 'b' }),
        ...call('replace', { file_path: '/ws/b.ts', old_string: 'a', new_string: 'b' }, 'Failed to edit', true),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/c.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/b.ts', is_success: false },
    ]);
  });

  test('notebook_edit: write, path = notebook_path', async () => {
    expect(
      await events(...call('notebook_edit', { notebook_path: '/ws/nb.ipynb', cell_id: 'c1', new_source: 'x' })),
    ).toEqual([{ type: 'write', path: '/ws/nb.ipynb', is_success: true }]);
  });

  test('glob: search, query = pattern, path when given', async () => {
    expect(
      await events(
        init,
        ...call('glob', { pattern: '**/*.ts', path: 'src' }),
        ...call('glob', { pattern: '*.md' }, 'No files found'),
      ),
    ).toEqual([
      { type: 'search', query: '**/*.ts', path: '/ws/src', is_success: true },
      { type: 'search', query: '*.md', is_success: true },
    ]);
  });

  test('grep_search (legacy search_file_content): search, query = pattern, path when given', async () => {
    expect(
      await events(
        ...call('grep_search', { pattern: 'greet', glob: '*.ts', path: '/ws/src', limit: 50 }),
        ...call('search_file_content', { pattern: 'TODO' }),
      ),
    ).toEqual([
      { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
      { type: 'search', query: 'TODO', is_success: true },
    ]);
  });

  test('list_directory: list, path = path', async () => {
    expect(await events(...call('list_directory', { path: '/ws/src', ignore: ['*.log'] }))).toEqual([
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });

  test("run_shell_command: a command in the run's cwd, or the file operations it is", async () => {
    expect(
      await events(
        init,
        ...call('run_shell_command', {
          command: 'npm run build',
          description: 'Build',
          is_background: false,
          timeout: 600000,
        }),
        ...call('run_shell_command', { command: "cd src && sed -n '10,20p' a.ts" }),
        ...call('run_shell_command', { command: 'rg -n TODO lib | head -n 5' }),
      ),
    ).toEqual([
      { type: 'command', command: 'npm run build', working_directory: '/ws', is_success: true },
      { type: 'read', path: '/ws/src/a.ts', start_line: 10, end_line: 20, is_success: true },
      { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
    ]);
    // Without a cwd there is none to report.
    expect(await events(...call('run_shell_command', { command: 'make' }))).toEqual([
      { type: 'command', command: 'make', is_success: true },
    ]);
  });

  test('skill: skill, skill_name = skill, path skills/<name>/SKILL.md under the working directory', async () => {
    expect(await events(init, ...call('skill', { skill: 'greeting', args: 'Ada' }, 'How to greet people.'))).toEqual([
      { type: 'skill', path: '/ws/skills/greeting/SKILL.md', skill_name: 'greeting', is_success: true },
    ]);
  });

  test('agent (legacy task): orchestration, subagent_id = the tool-use id', async () => {
    expect(
      await events(...call('task', { description: 'd', prompt: 'p', subagent_type: 'review-agent' }, 'Reviewed.')),
    ).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'call_task',
        subagent_name: 'review-agent',
        is_success: true,
      },
    ]);
  });

  test('tool_call: classified as the tool named by input.name, with input.arguments as its input', async () => {
    const deferred = (name: unknown, args: unknown) => ({ name, arguments: args });
    expect(
      await events(
        init,
        ...call('tool_call', deferred('read_file', { file_path: '/ws/a.ts', offset: 4, limit: 2 })),
        ...call('tool_call', deferred('run_shell_command', { command: 'npm test' }), shellBlock('npm test', '1'), true),
        ...call('tool_call', deferred('structured_output', { answer: 42 })),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts', start_line: 5, end_line: 6, is_success: true },
      { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 1, is_success: false },
    ]);
    // A tool with no row, a tool_call inside a tool_call, or no name: unknown, the call and its result.
    for (const input of [
      deferred('web_fetch', { url: 'https://x' }),
      deferred('tool_call', deferred('read_file', { file_path: '/a' })),
      deferred(7, {}),
      deferred('constructor', {}),
    ]) {
      expect(await events(...call('tool_call', input)), JSON.stringify(input)).toEqual([
        unknownCall('tool_call', input),
      ]);
    }
  });

  test('structured_output: consumed, call and result', async () => {
    expect(await events(...call('structured_output', { answer: 'hello' }))).toEqual([]);
  });

  test(
    'any other tool (todo_write, web_fetch, web_search, save_memory, goals, cron, MCP, ...) is unknown, ' +
      'carrying the call and its result',
    async () => {
      for (const name of [
        'todo_write',
        'web_fetch',
        'web_search',
        'save_memory',
        'update_goal',
        'cron_create',
        'mcp__github__create_issue',
        'Read',
        'Bash',
        'constructor',
        '__proto__',
      ]) {
        expect(await events(...call(name, { any: 'input' })), name).toEqual([unknownCall(name, { any: 'input' })]);
      }
    },
  );
});
