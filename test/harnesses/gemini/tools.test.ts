/** gemini.md's "Tools" table, but for run_shell_command (shell.test.ts). */
import { describe, expect, test } from 'vitest';
import { init, use, ok, failed, events, call } from './lines.js';

describe('tools', () => {
  test(
    'read_file: read of file_path; both lines give start..end, start_line alone a start, end_line alone 1..end, ' +
      'neither no range',
    async () => {
      const calls = [
        { file_path: 'notes.txt' },
        { file_path: 'notes.txt', start_line: 2, end_line: 4 },
        { file_path: '/abs/notes.txt', start_line: 5 },
        { file_path: './docs/../notes.txt', end_line: 10 },
        // Not line numbers: no range.
        { file_path: 'notes.txt', start_line: 0, end_line: 'x' },
      ];
      const out = await events(
        ...calls.flatMap((parameters, n) => [use('read_file', `r${n}`, parameters), ok(`r${n}`)]),
      );
      expect(out).toEqual([
        { type: 'read', path: '/ws/notes.txt', is_success: true },
        { type: 'read', path: '/ws/notes.txt', start_line: 2, end_line: 4, is_success: true },
        { type: 'read', path: '/abs/notes.txt', start_line: 5, is_success: true },
        { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 10, is_success: true },
        { type: 'read', path: '/ws/notes.txt', is_success: true },
      ]);
    },
  );

  test(
    "a leading @ on a file tool's path parameter is dropped " + 'before resolving (gemini.md Tools, 2026-12-01b)',
    async () => {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['read_file', { file_path: '@src/b.ts' }],
        ['read_file', { file_path: '@/abs/c.ts', start_line: 3 }],
        ['write_file', { file_path: '@docs/USAGE.md', content: 'x' }],
        ['replace', { file_path: '@src/a.ts', old_string: 'a', new_string: 'b' }],
        ['list_directory', { dir_path: '@src' }],
        ['glob', { pattern: '*.ts', dir_path: '@src' }],
        ['grep_search', { pattern: 'TODO', dir_path: '@lib' }],
        ['search_file_content', { pattern: 'TODO', dir_path: '@lib' }],
        ['read_many_files', { include: ['@README.md', '@src/*.ts'] }],
        // Only a leading one: an @ inside a name is the name's.
        ['read_file', { file_path: 'pkg/@scope/x.json' }],
      ];
      const out = await events(
        ...calls.flatMap(([tool, parameters], n) => [use(tool, `t${n}`, parameters), ok(`t${n}`)]),
      );
      expect(out).toEqual([
        { type: 'read', path: '/ws/src/b.ts', is_success: true },
        { type: 'read', path: '/abs/c.ts', start_line: 3, is_success: true },
        { type: 'write', path: '/ws/docs/USAGE.md', is_success: true },
        { type: 'write', path: '/ws/src/a.ts', is_success: true },
        { type: 'list', path: '/ws/src', is_success: true },
        { type: 'search', query: '*.ts', path: '/ws/src', is_success: true },
        { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
        { type: 'search', query: 'TODO', path: '/ws/lib', is_success: true },
        { type: 'read', path: '/ws/README.md', is_success: true },
        { type: 'search', query: 'src/*.ts', is_success: true },
        { type: 'read', path: '/ws/pkg/@scope/x.json', is_success: true },
      ]);
    },
  );

  test('read_file without a file_path is unknown, carrying both records', async () => {
    const announced = use('read_file', 'r', {});
    const result = failed('r', 'invalid_tool_params', "params must have required property 'file_path'");
    expect(await events(announced, result)).toEqual([
      { type: 'unknown', raw: { tool_use: announced, tool_result: result } },
    ]);
  });

  test(
    'read_many_files: one event per include entry, a read for a path, a search for a glob, success on every ' + 'event',
    async () => {
      expect(
        await call(
          'read_many_files',
          { include: ['README.md', 'src/**/*.ts', 'docs/?.md', 'a[12].txt', '{x,y}.json'] },
          (id) => failed(id, 'read_many_files_search_error', 'x'),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/README.md', is_success: false },
        { type: 'search', query: 'src/**/*.ts', is_success: false },
        { type: 'search', query: 'docs/?.md', is_success: false },
        { type: 'search', query: 'a[12].txt', is_success: false },
        { type: 'search', query: '{x,y}.json', is_success: false },
      ]);
    },
  );

  test('read_many_files without include entries, or with one that is not a string, is unknown', async () => {
    expect((await call('read_many_files', { include: [] })).map((e) => e.type)).toEqual(['unknown']);
    expect((await call('read_many_files', { include: ['a', 7] })).map((e) => e.type)).toEqual(['unknown']);
  });

  test('write_file and replace: write of file_path, no line range', async () => {
    expect(await call('write_file', { file_path: 'docs/USAGE.md', content: '# Usage\n' })).toEqual([
      { type: 'write', path: '/ws/docs/USAGE.md', is_success: true },
    ]);
    expect(
      await call('replace', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b', instruction: 'x' }, (id) =>
        failed(id, 'edit_no_occurrence_found', 'Could not find'),
      ),
    ).toEqual([{ type: 'write', path: '/ws/src/a.ts', is_success: false }]);
  });

  test('list_directory: list of dir_path', async () => {
    expect(await call('list_directory', { dir_path: 'src', ignore: ['*.log'] })).toEqual([
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });

  test('glob: search, query pattern, path dir_path when given', async () => {
    expect(await call('glob', { pattern: '**/*.ts' }, (id) => ok(id, 'Found 2 matching file(s)'))).toEqual([
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
    expect(await call('glob', { pattern: '*.md', dir_path: 'docs' })).toEqual([
      { type: 'search', query: '*.md', path: '/ws/docs', is_success: true },
    ]);
  });

  test(
    'grep_search and its legacy alias ' + 'search_file_content: search, query pattern, path dir_path when given',
    async () => {
      expect(await call('grep_search', { pattern: 'greet', dir_path: 'src', include_pattern: '*.ts' })).toEqual([
        { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
      ]);
      expect(
        await call('search_file_content', { pattern: 'TODO' }, (id) => failed(id, 'grep_execution_error', 'rg failed')),
      ).toEqual([{ type: 'search', query: 'TODO', is_success: false }]);
    },
  );

  describe('invoke_agent', () => {
    const parameters = { agent_name: 'codebase_investigator', prompt: 'Find the greeting.' };
    const id = 'invoke_agent__invoke_agent_1796086709913_0';

    test('its result is one subagent_completed: subagent_id the tool_id, subagent_name the agent_name', async () => {
      expect(await call('invoke_agent', parameters)).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: id,
          subagent_name: 'codebase_investigator',
          is_success: true,
        },
      ]);
    });

    test('a result with status error is subagent_failed', async () => {
      expect(
        await call('invoke_agent', parameters, (callId) => failed(callId, 'execution_failed', 'Subagent failed')),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_failed',
          subagent_id: id,
          subagent_name: 'codebase_investigator',
          is_success: false,
        },
      ]);
    });

    test('a call whose result never arrives is subagent_started at the end of input', async () => {
      expect(await events(init, use('invoke_agent', id, { prompt: 'no name given' }))).toEqual([
        { type: 'orchestration', action: 'subagent_started', subagent_id: id },
      ]);
    });
  });

  test(
    'google_web_search, web_fetch, ask_user, background processes, internal docs, MCP resources, complete_task, ' +
      'MCP tools and any other tool: unknown with both records',
    async () => {
      const names = [
        'google_web_search',
        'web_fetch',
        'ask_user',
        'list_background_processes',
        'read_background_output',
        'get_internal_docs',
        'read_mcp_resource',
        'list_mcp_resources',
        'complete_task',
        'mcp_github_create_issue',
        'delete_everything',
        'constructor',
        'Read_File',
      ];
      for (const name of names) {
        const announced = use(name, `${name}__1`, { query: 'x' });
        const result = ok(`${name}__1`, 'whatever');
        expect(await events(announced, result), name).toEqual([
          { type: 'unknown', raw: { tool_use: announced, tool_result: result } },
        ]);
      }
    },
  );

  test('an unknown call whose result never arrived carries the tool_use alone', async () => {
    const announced = use('web_fetch', 'w', { prompt: 'http://example.com' });
    expect(await events(announced)).toEqual([{ type: 'unknown', raw: { tool_use: announced } }]);
  });

  test("the tool's output and error message are never copied into a file event", async () => {
    const out = await call('grep_search', { pattern: 'secret' }, (id) => ({
      ...ok(id, 'src/a.ts:1:secret=hunter2'),
      error: { type: 'x', message: 'hunter2' },
    }));
    expect(JSON.stringify(out)).not.toContain('hunter2');
  });
});
