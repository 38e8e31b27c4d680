/**
 * goose.md "Tool mapping", one test per row, plus the two tool-name eras (docs/harnesses/goose.md):
 * goose-mcp's prefixed `developer__…` names and the newer bare names.
 */
import { describe, expect, test } from 'vitest';
import { gooseToolKey } from '../../../lib/harnesses/goose/tools.js';
import { bodies } from '../../helpers.js';
import { call, goose, request, response, result, shellResult } from './wire.js';

/** The events one answered call becomes (cwd `/ws`). */
async function events(name: string, args: unknown, value: unknown = result('ok')) {
  return bodies((await goose(...call('call_1', name, args, value))).events);
}

/** What a call the table cannot place becomes: unknown carrying its request and response. */
function unknownCall(name: string, args: unknown) {
  return [
    {
      type: 'unknown',
      raw: { tool_request: request('call_1', name, args), tool_response: response('call_1', result('ok')) },
    },
  ];
}

describe('goose.md "Tool mapping"', () => {
  test("read, read_image: read (an image from its source; read's line/limit as offset/limit)", async () => {
    expect(await events('read', { path: 'src/a.ts' })).toEqual([
      { type: 'read', path: '/ws/src/a.ts', is_success: true },
    ]);
    expect(await events('read', { path: 'src/a.ts', line: 10, limit: 5 })).toEqual([
      { type: 'read', path: '/ws/src/a.ts', start_line: 10, end_line: 14, is_success: true },
    ]);
    expect(await events('read', { path: 'src/a.ts', line: 10 })).toEqual([
      { type: 'read', path: '/ws/src/a.ts', start_line: 10, is_success: true },
    ]);
    expect(await events('read', { path: 'src/a.ts', limit: 5 })).toEqual([
      { type: 'read', path: '/ws/src/a.ts', start_line: 1, end_line: 5, is_success: true },
    ]);
    expect(await events('read_image', { source: 'shots/home.png' })).toEqual([
      { type: 'read', path: '/ws/shots/home.png', is_success: true },
    ]);
    expect(
      await events('read_image', { source: 'https://example.com/a.png', crop: { x: 0, y: 0, width: 10, height: 10 } }),
    ).toEqual([{ type: 'read', path: 'https://example.com/a.png', is_success: true }]);
    expect(await events('read', { file: 'a.ts' })).toEqual(unknownCall('read', { file: 'a.ts' }));
    expect(await events('read_image', { path: 'a.png' })).toEqual(unknownCall('read_image', { path: 'a.png' }));
  });

  test('write, edit: write', async () => {
    expect(await events('write', { path: 'docs/USAGE.md', content: '# Usage\n' })).toEqual([
      { type: 'write', path: '/ws/docs/USAGE.md', is_success: true },
    ]);
    expect(await events('edit', { path: '/abs/src/a.ts', before: 'a', after: 'b' })).toEqual([
      { type: 'write', path: '/abs/src/a.ts', is_success: true },
    ]);
    expect(await events('edit', { before: 'a', after: 'b' })).toEqual(unknownCall('edit', { before: 'a', after: 'b' }));
  });

  describe('text_editor: read or write by its command', () => {
    test('view / read: read, with view_range a..b, and b = -1 giving only a start line', async () => {
      expect(await events('text_editor', { command: 'view', path: 'a.ts' })).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
      ]);
      expect(await events('text_editor', { command: 'view', path: 'a.ts', view_range: [3, 8] })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 3, end_line: 8, is_success: true },
      ]);
      expect(await events('text_editor', { command: 'view', path: 'a.ts', view_range: [3, -1] })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 3, is_success: true },
      ]);
      expect(await events('text_editor', { command: 'read', path: 'a.ts', view_range: [1, 1] })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 1, is_success: true },
      ]);
    });

    test('a view_range that names no lines gives a read without a range', async () => {
      for (const view_range of [[8, 3], [0, 5], [2], [1, 2, 3], '1-5', [1.5, 4], null]) {
        expect(
          await events('text_editor', { command: 'view', path: 'a.ts', view_range }),
          JSON.stringify(view_range),
        ).toEqual([{ type: 'read', path: '/ws/a.ts', is_success: true }]);
      }
    });

    test('write / create / overwrite / edit / str_replace / insert / move / rename / delete: write', async () => {
      for (const command of [
        'write',
        'create',
        'overwrite',
        'edit',
        'str_replace',
        'insert',
        'move',
        'rename',
        'delete',
      ]) {
        expect(await events('text_editor', { command, path: 'a.ts' }), command).toEqual([
          { type: 'write', path: '/ws/a.ts', is_success: true },
        ]);
      }
    });

    test('any other command (undo_edit), no command, or no path: unknown', async () => {
      for (const args of [
        { command: 'undo_edit', path: 'a.ts' },
        { command: 'constructor', path: 'a.ts' },
        { path: 'a.ts' },
        { command: 'view' },
      ]) {
        expect(await events('text_editor', args), JSON.stringify(args)).toEqual(unknownCall('text_editor', args));
      }
    });
  });

  test('shell: command, with its exit code; a non-zero exit code is a failure', async () => {
    expect(await events('shell', { command: 'npm test' }, shellResult('ok\n', 0))).toEqual([
      { type: 'command', command: 'npm test', exit_code: 0, is_success: true },
    ]);
    expect(await events('shell', { command: 'npm test', timeout_secs: 60 }, shellResult('1 failed\n', 1))).toEqual([
      { type: 'command', command: 'npm test', exit_code: 1, is_success: false },
    ]);
    expect(await events('shell', { command: 'npm test' }, result('ok'))).toEqual([
      { type: 'command', command: 'npm test', is_success: true },
    ]);
    expect(await events('shell', {})).toEqual(unknownCall('shell', {}));
  });

  test('shell: or a recognized file operation, keeping the success and dropping the exit code', async () => {
    expect(await events('shell', { command: 'cat README.md' }, shellResult('# hi\n', 0))).toEqual([
      { type: 'read', path: '/ws/README.md', is_success: true },
    ]);
    expect(await events('shell', { command: 'cat missing.txt' }, shellResult('', 1))).toEqual([
      { type: 'read', path: '/ws/missing.txt', is_success: false },
    ]);
  });

  test(
    'shell: a search that exited 1 ' + '(structuredContent.exit_code) matched nothing and completed; 2 is a failure',
    async () => {
      expect(await events('shell', { command: 'rg -n zzz src' }, shellResult('', 1))).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
      ]);
      expect(await events('shell', { command: 'ag zzz' }, shellResult('', 1))).toEqual([
        { type: 'search', query: 'zzz', is_success: true },
      ]);
      expect(
        await events('shell', { command: 'rg -n zzz src' }, shellResult('rg: src: No such file or directory\n', 2)),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: false }]);
      expect(await events('shell', { command: 'cd src && rg zzz' }, shellResult('', 1))).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
      ]);
    },
  );

  test('grep, glob: search (query from pattern, scope from path)', async () => {
    expect(await events('grep', { pattern: 'TODO', path: 'src', include: '*.ts' })).toEqual([
      { type: 'search', query: 'TODO', path: '/ws/src', is_success: true },
    ]);
    expect(await events('glob', { pattern: '**/*.ts' })).toEqual([
      { type: 'search', query: '**/*.ts', is_success: true },
    ]);
    expect(await events('grep', { path: 'src' })).toEqual(unknownCall('grep', { path: 'src' }));
  });

  test('list, tree: list', async () => {
    expect(await events('list', { path: 'src' })).toEqual([{ type: 'list', path: '/ws/src', is_success: true }]);
    expect(await events('tree', { path: '.', depth: 2 })).toEqual([{ type: 'list', path: '/ws', is_success: true }]);
    expect(await events('tree', {})).toEqual([{ type: 'list', is_success: true }]);
  });

  test(
    'load_skill, skill: skill (the path the input gives, else skills/<name>/SKILL.md under the working ' + 'directory)',
    async () => {
      expect(await events('load_skill', { name: 'pdf' })).toEqual([
        { type: 'skill', path: '/ws/skills/pdf/SKILL.md', skill_name: 'pdf', is_success: true },
      ]);
      expect(await events('skill', { name: 'pdf', path: '.goose/skills/pdf/SKILL.md' })).toEqual([
        { type: 'skill', path: '/ws/.goose/skills/pdf/SKILL.md', skill_name: 'pdf', is_success: true },
      ]);
      // `name/relative-path` loads one of the skill's supporting files.
      expect(await events('load_skill', { name: 'pdf/template.md' })).toEqual([
        { type: 'skill', path: '/ws/skills/pdf/template.md', skill_name: 'pdf', is_success: true },
      ]);
      expect(await events('load_skill', { name: 'missing' }, result("Skill 'missing' not found.", true))).toEqual([
        { type: 'skill', path: '/ws/skills/missing/SKILL.md', skill_name: 'missing', is_success: false },
      ]);
      expect(await events('load_skill', {})).toEqual(unknownCall('load_skill', {}));
      // The older era's name for the same tool (Goose <= 1.23).
      expect(await events('skills__loadSkill', { name: 'pdf' })).toEqual([
        { type: 'skill', path: '/ws/skills/pdf/SKILL.md', skill_name: 'pdf', is_success: true },
      ]);
    },
  );

  test('todo__*: consumed, no event', async () => {
    expect(await events('todo__todo_write', { content: '- [ ] fix' })).toEqual([]);
    expect(await events('todo__todo_read', {})).toEqual([]);
  });

  test('any other tool: unknown', async () => {
    for (const name of [
      'web_fetch',
      'developer__analyze',
      'delegate',
      'extensionmanager__manage_extensions',
      'constructor',
      '__proto__',
      'developer__',
      'todo',
    ]) {
      expect(await events(name, { x: 1 }), name).toEqual(unknownCall(name, { x: 1 }));
    }
  });
});

describe('both tool-name eras share the rows', () => {
  test('the extension prefix is stripped at the last "__"', () => {
    expect(gooseToolKey('developer__shell')).toBe('shell');
    expect(gooseToolKey('developer__text_editor')).toBe('text_editor');
    expect(gooseToolKey('shell')).toBe('shell');
    expect(gooseToolKey('my__mcp__read')).toBe('read');
    expect(gooseToolKey('todo__todo_write')).toBe('todo__*');
  });

  test('prefixed and bare names give the same events', async () => {
    const pairs: [string, string, unknown, unknown[]][] = [
      [
        'developer__shell',
        'shell',
        { command: 'npm test' },
        [{ type: 'command', command: 'npm test', is_success: true }],
      ],
      [
        'developer__text_editor',
        'text_editor',
        { command: 'view', path: '/ws/a.ts', view_range: [1, 2] },
        [{ type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 2, is_success: true }],
      ],
      [
        'developer__write',
        'write',
        { path: 'a.ts', content: 'x' },
        [{ type: 'write', path: '/ws/a.ts', is_success: true }],
      ],
      [
        'developer__edit',
        'edit',
        { path: 'a.ts', before: 'x', after: 'y' },
        [{ type: 'write', path: '/ws/a.ts', is_success: true }],
      ],
      ['developer__tree', 'tree', { path: 'src' }, [{ type: 'list', path: '/ws/src', is_success: true }]],
    ];
    for (const [prefixed, bare, args, expected] of pairs) {
      expect(await events(bare, args), bare).toEqual(expected);
      expect(await events(prefixed, args), prefixed).toEqual(expected);
    }
  });
});
