/** kilo.md's tool table, and bounded state (docs/contract.md). */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, sessionID, cwd, toolUse, events } from './lines.js';

describe('tools (kilo.md "Tools")', () => {
  test('read: filePath; offset is 1-based, so offset 2 limit 2 reads lines 2-3; a missing file fails', async () => {
    expect(
      await events(
        toolUse('read', { filePath: '/home/user/project/notes.txt', offset: 2, limit: 2 }, {}, 'prt_1'),
        toolUse(
          'read',
          { filePath: 'missing.txt' },
          { status: 'error', error: 'File not found: /ws/missing.txt', metadata: undefined },
          'prt_2',
        ),
      ),
    ).toEqual([
      { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
      { type: 'read', path: '/ws/missing.txt', is_success: false },
    ]);
  });

  test('write, edit: write of filePath, relative against the cwd', async () => {
    expect(
      await events(
        toolUse('write', { filePath: 'docs/guide.md', content: '# Guide' }, {}, 'prt_1'),
        toolUse(
          'edit',
          { filePath: '/ws/notes.txt', oldString: 'x', newString: 'y' },
          { status: 'error', error: 'Could not find oldString in the file.' },
          'prt_2',
        ),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/docs/guide.md', is_success: true },
      { type: 'write', path: '/ws/notes.txt', is_success: false },
    ]);
  });

  test('grep, glob: search, query = pattern, path when given', async () => {
    expect(
      await events(
        toolUse('grep', { pattern: 'greet\\(', path: 'src', include: '*.ts' }, {}, 'prt_1'),
        toolUse('glob', { pattern: '**/*.ts' }, {}, 'prt_2'),
      ),
    ).toEqual([
      { type: 'search', query: 'greet\\(', path: '/ws/src', is_success: true },
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
  });

  test(
    'bash (difference 2): workdir is the working directory; relative paths resolve against it; exit from ' +
      'metadata.exit',
    async () => {
      expect(
        await events(
          toolUse(
            'bash',
            { command: 'cat a.ts', workdir: '/ws/src', description: 'a.ts' },
            { metadata: { output: '', exit: 0, truncated: false } },
            'prt_1',
          ),
          toolUse('bash', { command: 'npm test', workdir: 'pkg' }, { metadata: { exit: 3 } }, 'prt_2'),
          toolUse('bash', { command: 'grep -rn zzz src' }, { metadata: { exit: 1 } }, 'prt_3'),
          toolUse('bash', { command: 'make' }, { metadata: { exit: 0 } }, 'prt_4'),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/src/a.ts', is_success: true },
        { type: 'command', command: 'npm test', working_directory: '/ws/pkg', exit_code: 3, is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'command', command: 'make', working_directory: '/ws', exit_code: 0, is_success: true },
      ]);
    },
  );

  test('background_process: a command when the input carries a command line, otherwise consumed', async () => {
    expect(
      await events(
        toolUse('background_process', { command: 'npm run dev' }, {}, 'prt_1'),
        toolUse('background_process', { action: 'list' }, {}, 'prt_2'),
      ),
    ).toEqual([{ type: 'command', command: 'npm run dev', is_success: true }]);
  });

  test(
    'task (difference 6): subagent_completed named by the child session; subagent_failed when its status is ' +
      'error; unknown without the child',
    async () => {
      const input = { description: 'Explore a.ts', prompt: 'read src/a.ts', subagent_type: 'explore' };
      const noChild = toolUse('task', input, { status: 'error', error: 'denied', metadata: undefined }, 'prt_3');
      expect(
        await events(
          toolUse(
            'task',
            input,
            {
              metadata: {
                sessionId: 'ses_child',
                parentSessionId: sessionID,
                model: { modelID: 'fake-model', providerID: 'lab' },
              },
            },
            'prt_1',
          ),
          toolUse(
            'task',
            input,
            { status: 'error', error: 'boom', metadata: { sessionId: 'ses_child2', parentSessionId: sessionID } },
            'prt_2',
          ),
          noChild,
        ),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'ses_child',
          subagent_name: 'explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_failed',
          subagent_id: 'ses_child2',
          subagent_name: 'explore',
          is_success: false,
        },
        { type: 'unknown', raw: noChild.part },
      ]);
    },
  );

  test(
    'skill (difference 7): <metadata.dir>/SKILL.md; ' + 'without dir (a failed skill), skills/<name>/SKILL.md',
    async () => {
      expect(
        await events(
          toolUse(
            'skill',
            { name: 'release-notes' },
            { metadata: { name: 'release-notes', dir: '/ws/.kilo/skills/release-notes' } },
            'prt_1',
          ),
          toolUse(
            'skill',
            { name: 'nope' },
            { status: 'error', error: 'Skill "nope" not found', metadata: undefined },
            'prt_2',
          ),
        ),
      ).toEqual([
        {
          type: 'skill',
          path: '/ws/.kilo/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        { type: 'skill', path: '/ws/skills/nope/SKILL.md', skill_name: 'nope', is_success: false },
      ]);
    },
  );

  test('todowrite, todoread: consumed', async () => {
    expect(
      await events(toolUse('todowrite', { todos: [] }, {}, 'prt_1'), toolUse('TodoRead', {}, {}, 'prt_2')),
    ).toEqual([]);
  });

  test(
    'board_post, board_read, kilo_local_recall, schedule_wakeup, cancel_wakeup (difference 1), and any other ' +
      'tool: unknown carrying the part',
    async () => {
      const calls = [
        toolUse('board_post', { message: 'hi' }, {}, 'prt_1'),
        toolUse('board_read', {}, {}, 'prt_2'),
        toolUse('kilo_local_recall', { mode: 'search', query: 'greet' }, {}, 'prt_3'),
        toolUse('schedule_wakeup', { at: 'later' }, {}, 'prt_4'),
        toolUse('cancel_wakeup', { id: 'w1' }, {}, 'prt_5'),
        toolUse('webfetch', { url: 'https://example.com' }, {}, 'prt_6'),
        // OpenCode's tools that Kilo does not offer are "any other tool" here.
        toolUse('apply_patch', { patchText: '*** Begin Patch\n*** Add File: a.ts\n*** End Patch' }, {}, 'prt_7'),
        toolUse('lsp', { query: 'greet' }, {}, 'prt_8'),
      ];
      expect(await events(...calls)).toEqual(calls.map((call) => ({ type: 'unknown', raw: call.part })));
    },
  );

  test('tool names match case-insensitively, as for OpenCode', async () => {
    expect(
      await events(
        toolUse('Read', { filePath: 'a.ts' }, {}, 'prt_1'),
        toolUse('BASH', { command: 'ls src' }, { metadata: { exit: 0 } }, 'prt_2'),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });
});

describe('state is bounded (docs/contract.md)', () => {
  test('the seen part ids are bounded by maxPendingTools: the oldest is forgotten', async () => {
    const a = toolUse('read', { filePath: 'a.ts' }, {}, 'prt_a');
    const b = toolUse('read', { filePath: 'b.ts' }, {}, 'prt_b');
    const { events } = await run(jsonl(a, b, b, a), { harness, cwd, maxPendingTools: 1 });
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'read', path: '/ws/b.ts', is_success: true },
      { type: 'read', path: '/ws/a.ts', is_success: true },
    ]);
  });
});
