/** cline.md's tool table, one test per row. */
import { describe, expect, test } from 'vitest';
import { start, end, events, call } from './lines.js';

describe('tools', () => {
  test(
    'read_files: every input shape; ranges; entry success; a request ' + 'without a path makes the call unknown',
    async () => {
      const output = [{ success: true }, { success: false }, { success: true }];
      expect(
        await call(
          'read_files',
          { files: ['a.ts', { file_path: 'b.ts', start_line: 3 }, { filePath: 'c.ts', end_line: 5 }] },
          output,
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts', start_line: 3, is_success: false },
        { type: 'read', path: '/ws/c.ts', start_line: 1, end_line: 5, is_success: true },
      ]);
      expect(await call('read_files', { paths: '/abs/x', file_paths: undefined }, [])).toEqual([
        { type: 'read', path: '/abs/x' },
      ]);
      expect(await call('read_files', 'x.ts', [{ success: true }])).toEqual([
        { type: 'read', path: '/ws/x.ts', is_success: true },
      ]);
      expect(
        await call('read_files', [{ path: 'y.ts', start_line: null, end_line: null }], [{ success: true }]),
      ).toEqual([{ type: 'read', path: '/ws/y.ts', is_success: true }]);
      expect((await call('read_files', { files: [{ path: 'a' }, { nope: 1 }] }, [])).map((e) => e.type)).toEqual([
        'unknown',
      ]);
    },
  );

  test('a call that failed as a whole (error, or output.error) fails every event', async () => {
    expect(await call('read_files', { files: ['a', 'b'] }, [], { error: 'boom' })).toEqual([
      { type: 'read', path: '/ws/a', is_success: false },
      { type: 'read', path: '/ws/b', is_success: false },
    ]);
    expect(await call('editor', { path: 'a', new_text: 'x' }, { error: 'Invalid input' })).toEqual([
      { type: 'write', path: '/ws/a', is_success: false },
    ]);
  });

  test('search_codebase: one search per query, no path', async () => {
    expect(await call('search_codebase', { queries: ['a', 'b'] }, [{ success: true }, { success: true }])).toEqual([
      { type: 'search', query: 'a', is_success: true },
      { type: 'search', query: 'b', is_success: true },
    ]);
    expect(await call('search_codebase', { queries: 'c' }, [{ success: true }])).toEqual([
      { type: 'search', query: 'c', is_success: true },
    ]);
  });

  test('run_commands: one entry per command; exit codes from the entries; {command, args} rendered', async () => {
    const output = [
      { query: 'make', result: '[Command exited with code 2]', error: 'Command exited with code 2', success: false },
      { query: 'sleep 60', error: 'Command timed out after 30000ms', success: false },
      { success: true },
    ];
    expect(
      await call(
        'run_commands',
        { commands: ['make', 'sleep 60', { command: 'echo', args: ['a b', 'say "hi"', 'a"b', 'c'] }] },
        output,
      ),
    ).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', exit_code: 2, is_success: false },
      { type: 'command', command: 'sleep 60', working_directory: '/ws', is_success: false },
      // Quoted for whitespace, and for a `"` alone (`a"b`).
      { type: 'command', command: 'echo "a b" "say \\"hi\\"" "a\\"b" c', working_directory: '/ws', is_success: true },
    ]);
    expect(await call('run_commands', { command: 'make' }, [{ success: true }])).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
    ]);
    expect(await call('run_commands', { cmd: 'make' }, [{ success: true }])).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
    ]);
    expect(await call('run_commands', ['make', 'make test'], [{ success: true }])).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
      { type: 'command', command: 'make test', working_directory: '/ws' },
    ]);
    expect(await call('run_commands', { command: 'node', args: ['-v'] }, [{ success: true }])).toEqual([
      { type: 'command', command: 'node -v', working_directory: '/ws', is_success: true },
    ]);
    expect((await call('run_commands', { commands: [42] }, [])).map((e) => e.type)).toEqual(['unknown']);
  });

  test('editor: write; insert_line >= 1 gives start_line', async () => {
    expect(await call('editor', { path: 'a', old_text: 'x', new_text: 'y' }, { success: true })).toEqual([
      { type: 'write', path: '/ws/a', is_success: true },
    ]);
    expect(await call('editor', { path: 'a', new_text: 'y', insert_line: 4 }, { success: false })).toEqual([
      { type: 'write', path: '/ws/a', start_line: 4, is_success: false },
    ]);
    expect(await call('editor', { path: 'a', new_text: 'y', insert_line: 0 }, {})).toEqual([
      { type: 'write', path: '/ws/a', is_success: true },
    ]);
  });

  test('apply_patch: one write per named file (a bare string too); a patch naming none is unknown', async () => {
    const patch = '*** Begin Patch\n*** Delete File: old.ts\n*** Update File: a.ts\n*** Move to: b.ts\n*** End Patch';
    expect(await call('apply_patch', patch, { success: true })).toEqual([
      { type: 'write', path: '/ws/old.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/b.ts', is_success: true },
    ]);
    expect((await call('apply_patch', { input: '*** Begin Patch\n*** End Patch' }, {})).map((e) => e.type)).toEqual([
      'unknown',
    ]);
  });

  test('skills: skill with the named SKILL.md under the cwd; not offered: false', async () => {
    expect(await call('skills', { skill: 'release-notes' }, '<command-name>release-notes</command-name>')).toEqual([
      { type: 'skill', path: '/ws/skills/release-notes/SKILL.md', skill_name: 'release-notes', is_success: true },
    ]);
    expect(await call('skills', { skill: 'x' }, { error: 'no such tool' })).toEqual([
      { type: 'skill', path: '/ws/skills/x/SKILL.md', skill_name: 'x', is_success: false },
    ]);
  });

  test('spawn_agent: subagent_completed, or subagent_failed for a finishReason other than completed', async () => {
    expect(await call('spawn_agent', { task: 't' }, { text: 'ok', finishReason: 'completed' })).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_1' },
      { type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_1', is_success: true },
    ]);
    expect((await call('spawn_agent', { task: 't' }, { text: 'Boom.', finishReason: 'error' }))[1]).toEqual({
      type: 'orchestration',
      action: 'subagent_failed',
      subagent_id: 'call_1',
      is_success: false,
    });
  });

  test('team_spawn_teammate, team_shutdown_teammate, submit_and_exit: consumed', async () => {
    for (const name of ['team_spawn_teammate', 'team_shutdown_teammate', 'submit_and_exit'])
      expect(await call(name, { agentId: 'r' }, { status: 'spawned' })).toEqual([]);
  });

  test('team_run_task, fetch_web_content, ask_question, MCP tools: unknown carrying both lines', async () => {
    for (const name of ['team_run_task', 'fetch_web_content', 'ask_question', 'lab__lookup_tile']) {
      const lines = [start('c', name, {}), end('c', name, { content: [] })];
      expect(await events(...lines)).toEqual([
        { type: 'unknown', raw: { content_start: lines[0], content_end: lines[1] } },
      ]);
    }
  });
});
