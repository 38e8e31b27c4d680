/**
 * opencode.md's tool_use parts, and its tool mapping for the file tools (read, write, edit, apply_patch, grep,
 * glob).
 */
import { describe, expect, test } from 'vitest';
import { patchedFiles } from '../../../lib/harnesses/opencode/patch-markers.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/opencode/correlate.js';
import { harness, cwd, record, toolPart, toolUse, events } from './lines.js';

describe('tool_use', () => {
  test(
    'status: completed, success, done, ok succeed; error, failed, failure, cancelled, canceled fail; anything ' +
      'else is unset',
    async () => {
      const statuses = [
        'completed',
        'success',
        'done',
        'ok',
        'error',
        'failed',
        'failure',
        'cancelled',
        'canceled',
        'running',
        'Completed',
        undefined,
        1,
      ];
      const records = statuses.map((status, i) => toolUse('read', { filePath: 'a.ts' }, { status }, `prt_${i}`));
      const read = (is_success?: boolean) => ({ type: 'read', path: '/ws/a.ts', is_success });
      expect(await events(...records)).toEqual([
        read(true),
        read(true),
        read(true),
        read(true),
        read(false),
        read(false),
        read(false),
        read(false),
        read(false),
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/a.ts' },
      ]);
    },
  );

  test('tool names match case-insensitively', async () => {
    expect(await events(toolUse('Read', { filePath: 'a.ts' }), toolUse('GLOB', { pattern: '*.ts' }))).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'search', query: '*.ts', is_success: true },
    ]);
  });

  test(
    'the same tool part printed again after compaction ' + 'is consumed; a part without an id is never deduplicated',
    async () => {
      const first = toolUse('read', { filePath: 'a.ts' });
      const compacted = toolUse('read', { filePath: 'a.ts' }, { time: { start: 1, end: 2, compacted: 3 } });
      const anonymous = { ...toolPart('read', { filePath: 'b.ts' }), id: undefined };
      const { events, rules } = await run(
        jsonl(first, compacted, record('tool_use', { part: anonymous }), record('tool_use', { part: anonymous })),
        { harness, cwd },
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts', is_success: true },
      ]);
      expect(rules).toEqual([
        records.tool_use.rules.tool,
        records.tool_use.rules.repeated,
        records.tool_use.rules.tool,
        records.tool_use.rules.tool,
      ]);
    },
  );

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

  test('a tool_use without a tool name or a state object is unknown, verbatim', async () => {
    const noName = record('tool_use', { part: { ...toolPart('read', {}), tool: '' } });
    const noState = record('tool_use', { part: { ...toolPart('read', {}), state: 'completed' } });
    const noPart = record('tool_use');
    expect(await events(noName, noState, noPart)).toEqual([
      { type: 'unknown', raw: noName },
      { type: 'unknown', raw: noState },
      { type: 'unknown', raw: noPart },
    ]);
  });
});

describe('tool mapping', () => {
  test('read: filePath resolved against the cwd; offset is the first line and limit the count', async () => {
    expect(
      await events(
        toolUse('read', { filePath: '/abs/README.md' }, {}, 'prt_1'),
        toolUse('read', { filePath: './notes.txt', offset: 2, limit: 2 }, {}, 'prt_2'),
        toolUse('read', { filePath: 'notes.txt', offset: 5 }, {}, 'prt_3'),
        toolUse('read', { filePath: 'notes.txt', limit: 10 }, {}, 'prt_4'),
        toolUse(
          'read',
          { filePath: 'missing.txt' },
          { status: 'error', error: 'File not found', metadata: undefined },
          'prt_5',
        ),
      ),
    ).toEqual([
      { type: 'read', path: '/abs/README.md', is_success: true },
      { type: 'read', path: '/ws/notes.txt', start_line: 2, end_line: 3, is_success: true },
      { type: 'read', path: '/ws/notes.txt', start_line: 5, is_success: true },
      { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 10, is_success: true },
      { type: 'read', path: '/ws/missing.txt', is_success: false },
    ]);
  });

  test('write and edit are writes of filePath', async () => {
    expect(
      await events(
        toolUse('write', { filePath: 'src/c.ts', content: 'x' }),
        toolUse(
          'edit',
          { filePath: '/ws/README.md', oldString: 'a', newString: 'b' },
          { status: 'error', error: 'oldString not found' },
        ),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/src/c.ts', is_success: true },
      { type: 'write', path: '/ws/README.md', is_success: false },
    ]);
  });

  test(
    'apply_patch: one write per Add, Update, Delete and ' + "Move to marker, in order, each with the call's success",
    async () => {
      const patchText = [
        '*** Begin Patch',
        '*** Add File: src/new.ts',
        '+export {};',
        '*** Update File: src/old.ts',
        '*** Move to: src/moved.ts',
        '@@',
        '-a',
        '+b',
        '*** Delete File: /abs/gone.ts',
        '*** End Patch',
      ].join('\n');
      expect(
        await events(
          toolUse('apply_patch', { patchText }),
          toolUse('apply_patch', { patchText }, { status: 'failed' }, 'prt_2'),
        ),
      ).toEqual([
        { type: 'write', path: '/ws/src/new.ts', is_success: true },
        { type: 'write', path: '/ws/src/old.ts', is_success: true },
        { type: 'write', path: '/ws/src/moved.ts', is_success: true },
        { type: 'write', path: '/abs/gone.ts', is_success: true },
        { type: 'write', path: '/ws/src/new.ts', is_success: false },
        { type: 'write', path: '/ws/src/old.ts', is_success: false },
        { type: 'write', path: '/ws/src/moved.ts', is_success: false },
        { type: 'write', path: '/abs/gone.ts', is_success: false },
      ]);
    },
  );

  test('apply_patch naming no file, or without patchText, is unknown carrying the part', async () => {
    const empty = toolUse('apply_patch', { patchText: '*** Begin Patch\n*** End Patch' });
    const missing = toolUse('apply_patch', { patch: '*** Add File: a' }, {}, 'prt_2');
    expect(await events(empty, missing)).toEqual([
      { type: 'unknown', raw: empty.part },
      { type: 'unknown', raw: missing.part },
    ]);
  });

  test('patch markers: only at the start of a line, CRLF line ends, empty paths skipped', () => {
    const patch =
      '*** Begin Patch\r\n*** Update File: a b.ts\r\n@@\r\n **** Add File: not-a-marker\r\n+*** Add File: ' +
      'also-not\r\n*** Add File:   \r\n*** Delete File:c.ts\r\n*** End Patch';
    expect(patchedFiles(patch)).toEqual(['a b.ts', 'c.ts']);
  });

  test('grep and glob are searches: pattern is the query, path the scope', async () => {
    expect(
      await events(
        toolUse('grep', { pattern: 'greet', include: '*.ts' }),
        toolUse('glob', { pattern: '*.md', path: 'docs' }),
        toolUse('grep', { include: '*.ts' }, {}, 'prt_3'),
      ),
    ).toEqual([
      { type: 'search', query: 'greet', is_success: true },
      { type: 'search', query: '*.md', path: '/ws/docs', is_success: true },
      { type: 'unknown', raw: toolPart('grep', { include: '*.ts' }, {}, 'prt_3') },
    ]);
  });
});
