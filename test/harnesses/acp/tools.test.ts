/** acp.md's tool calls, the kind table, and the paths, line ranges and searches taken from them. */
import { describe, expect, test } from 'vitest';
import { records, updates } from '../../../lib/harnesses/acp/records.js';
import { bodies } from '../../helpers.js';
import { answer, update, toolCall, toolUpdate, permission, outcome, events, tool } from './messages.js';

describe('tool calls', () => {
  test(
    "each field carried with a non-null value replaces the record's (collections replaced, not appended); null " +
      'leaves it',
    async () => {
      expect(
        await events(
          toolCall({ title: 'edit', kind: 'edit', status: 'pending', locations: [], rawInput: {} }),
          toolUpdate({
            status: 'in_progress',
            locations: [{ path: 'a.ts' }, { path: 'b.ts' }],
            rawInput: { filePath: 'a.ts' },
          }),
          toolUpdate({ locations: [{ path: 'c.ts' }], rawInput: null, kind: null }),
          toolUpdate({ status: 'completed', title: 'c.ts' }),
        ),
      ).toEqual([{ type: 'write', path: '/ws/c.ts', is_success: true }]);
    },
  );

  test(
    'a tool_call for an id already recorded merges (claude-code-acp announces every call twice); an update for ' +
      'an id never seen creates the record',
    async () => {
      expect(
        await events(
          toolCall({ kind: 'read', status: 'pending', rawInput: {}, locations: [] }),
          toolCall({
            kind: 'read',
            status: 'pending',
            rawInput: { file_path: '/ws/a.ts' },
            locations: [{ path: '/ws/a.ts', line: 0 }],
          }),
          toolUpdate({ status: 'completed' }),
          update('tool_call_update', {
            toolCallId: 't9',
            kind: 'search',
            status: 'failed',
            rawInput: { pattern: 'x' },
          }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'search', query: 'x', is_success: false },
      ]);
    },
  );

  test(
    'completed is success, failed is failure; the record is then closed and later messages for its id are ' +
      'consumed',
    async () => {
      const out = await outcome(
        toolCall({ kind: 'read', status: 'failed', rawInput: { path: 'gone.txt' } }),
        toolUpdate({ status: 'completed' }),
        toolCall({ kind: 'execute', status: 'completed', rawInput: { command: 'rm -rf /' } }),
        permission({ toolCallId: 't1', status: 'completed' }),
      );
      expect(bodies(out.events)).toEqual([{ type: 'read', path: '/ws/gone.txt', is_success: false }]);
      expect(out.rules.slice(1)).toEqual([
        updates.tool_call_update.rules.closed,
        updates.tool_call.rules.closed,
        records['session/request_permission'].rules.closed,
      ]);
    },
  );

  test(
    'nothing for pending or in_progress; open records at the prompt response and the end of input, unfinished, ' +
      'in the order first seen',
    async () => {
      const second = update('tool_call', {
        toolCallId: 't2',
        kind: 'read',
        status: 'in_progress',
        rawInput: { path: 'b' },
      });
      expect(
        await events(
          toolCall({ kind: 'read', status: 'pending', rawInput: { path: 'a' } }),
          second,
          update('tool_call_update', { toolCallId: 't2', status: 'in_progress' }),
          toolUpdate({ status: 'in_progress' }),
          answer(),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a' },
        { type: 'read', path: '/ws/b' },
      ]);
      expect(await events(toolCall({ kind: 'search', status: 'pending', rawInput: { pattern: 'q' } }))).toEqual([
        { type: 'search', query: 'q' },
      ]);
    },
  );
});

describe('the kind table', () => {
  test(
    "read: read; with a string rawInput.pattern or an array rawInput.patterns, a search (Copilot's grep and " + 'glob)',
    async () => {
      expect(await tool({ kind: 'read', rawInput: { path: '/ws/notes.md' } })).toEqual([
        { type: 'read', path: '/ws/notes.md', is_success: true },
      ]);
      expect(
        await tool({
          kind: 'read',
          title: "Searching for 'magic'",
          rawInput: { pattern: 'magic', output_mode: 'content' },
        }),
      ).toEqual([{ type: 'search', query: 'magic', is_success: true }]);
      expect(await tool({ kind: 'read', rawInput: { patterns: ['**/*.ts'], path: 'src' } })).toEqual([
        { type: 'search', query: '**/*.ts', path: '/ws/src', is_success: true },
      ]);
    },
  );

  test('search: search', async () => {
    expect(await tool({ kind: 'search', rawInput: { pattern: 'magic', path: '/ws/src' } })).toEqual([
      { type: 'search', query: 'magic', path: '/ws/src', is_success: true },
    ]);
  });

  test("other or absent, with rawInput.pattern or rawInput.patterns: a search (Droid's Glob)", async () => {
    expect(await tool({ kind: 'other', rawInput: { patterns: ['*.md'] } })).toEqual([
      { type: 'search', query: '*.md', is_success: true },
    ]);
    expect(await tool({ rawInput: { pattern: 'TODO' } })).toEqual([
      { type: 'search', query: 'TODO', is_success: true },
    ]);
  });

  test('execute: a command, or the file operations of the shell rules', async () => {
    expect(await tool({ kind: 'execute', rawInput: { command: 'npm test' } })).toEqual([
      { type: 'command', command: 'npm test', is_success: true },
    ]);
    expect(await tool({ kind: 'execute', rawInput: { command: 'cat a.txt && ls src' } })).toEqual([
      { type: 'read', path: '/ws/a.txt', is_success: true },
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });

  test('edit: one write per distinct path of the diff entries, in order', async () => {
    const diff = (path: string) => ({ type: 'diff', path, oldText: 'a', newText: 'b' });
    expect(
      await tool({
        kind: 'edit',
        content: [
          { type: 'content', content: { type: 'text', text: 'ok' } },
          diff('/ws/b.ts'),
          diff('/ws/a.ts'),
          diff('/ws/b.ts'),
        ],
        locations: [{ path: '/ws/z.ts' }],
      }),
    ).toEqual([
      { type: 'write', path: '/ws/b.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
    ]);
  });

  test('delete: with no diff, one write per locations entry; with neither, the rawInput path', async () => {
    expect(await tool({ kind: 'delete', locations: [{ path: 'old.ts' }] })).toEqual([
      { type: 'write', path: '/ws/old.ts', is_success: true },
    ]);
    expect(await tool({ kind: 'delete', locations: [], rawInput: { file_path: 'gone.ts' } })).toEqual([
      { type: 'write', path: '/ws/gone.ts', is_success: true },
    ]);
  });

  test('move: source and destination when both are listed', async () => {
    expect(
      await tool({
        kind: 'move',
        locations: [{ path: 'a.ts' }, { path: 'lib/a.ts' }],
        rawInput: { source: 'a.ts', destination: 'lib/a.ts' },
      }),
    ).toEqual([
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/lib/a.ts', is_success: true },
    ]);
  });

  test(
    'fetch, think, switch_mode, other or absent without a pattern, any other value: unknown, raw = the merged ' +
      'record without _meta',
    async () => {
      const cases: Record<string, unknown>[] = [
        { kind: 'fetch', title: 'Fetch https://example.com', rawInput: { url: 'https://example.com' } },
        { kind: 'think', title: 'Task', rawInput: { prompt: 'p' } },
        { kind: 'switch_mode', title: 'Ready to code?' },
        { kind: 'other', title: 'mcp__x__y', rawInput: { a: 1 } },
        { title: 'no kind' },
        { kind: 42, title: 'a number' },
        { kind: 'toString', title: 'a prototype member' },
      ];
      for (const fields of cases) {
        const out = await events(
          toolCall({ status: 'pending', _meta: { claudeCode: { toolName: 'X' } }, ...fields }),
          toolUpdate({ status: 'completed', rawOutput: 'r', _meta: { x: 1 } }),
        );
        expect(out, JSON.stringify(fields)).toEqual([
          { type: 'unknown', raw: { toolCallId: 't1', status: 'completed', rawOutput: 'r', ...fields } },
        ]);
      }
    },
  );
});

describe('paths, line ranges, searches (acp.md)', () => {
  test(
    'paths: locations[0].path first; then rawInput path, file_path, filePath, absolute_path, filename, ' +
      'directory_path, dir_path',
    async () => {
      expect(
        await tool({ kind: 'read', locations: [{ path: '/ws/loc.ts' }], rawInput: { path: '/ws/input.ts' } }),
      ).toEqual([{ type: 'read', path: '/ws/loc.ts', is_success: true }]);
      const fields = ['path', 'file_path', 'filePath', 'absolute_path', 'filename', 'directory_path', 'dir_path'];
      for (const [index, field] of fields.entries()) {
        const rawInput = Object.fromEntries(fields.slice(index).map((later) => [later, `${later}.txt`]));
        expect(await tool({ kind: 'read', rawInput }), field).toEqual([
          { type: 'read', path: `/ws/${field}.txt`, is_success: true },
        ]);
      }
    },
  );

  test('paths: relative ones resolve against the working directory; a read or write with none is unknown', async () => {
    expect(await tool({ kind: 'read', rawInput: { path: '../up/a.ts' } })).toEqual([
      { type: 'read', path: '/up/a.ts', is_success: true },
    ]);
    expect(await tool({ kind: 'read', title: 'Read', rawInput: {} })).toEqual([
      { type: 'unknown', raw: { toolCallId: 't1', kind: 'read', title: 'Read', rawInput: {}, status: 'completed' } },
    ]);
    expect(await tool({ kind: 'edit', title: 'Edit' })).toEqual([
      { type: 'unknown', raw: { toolCallId: 't1', kind: 'edit', title: 'Edit', status: 'completed' } },
    ]);
  });

  test(
    'line ranges: view_range [a, b] (Copilot) is a..b, ' + '[a, -1] a start only; a view_range out of form is skipped',
    async () => {
      const range = async (rawInput: Record<string, unknown>, locations?: unknown[]) =>
        (await tool({ kind: 'read', rawInput: { path: 'f', ...rawInput }, locations })).map(
          ({ start_line, end_line }) => ({ start_line, end_line }),
        )[0];
      expect(await range({ view_range: [2, 5] })).toEqual({ start_line: 2, end_line: 5 });
      expect(await range({ view_range: [7, -1] })).toEqual({ start_line: 7, end_line: undefined });
      expect(await range({ view_range: [5, 2], offset: 3 })).toEqual({ start_line: 3, end_line: undefined });
      // offset/limit: offset is the first line, limit the count (Droid: offset 2 limit 3 read lines 2-4); limit alone
      // 1..limit.
      expect(await range({ offset: 2, limit: 3 })).toEqual({ start_line: 2, end_line: 4 });
      expect(await range({ limit: 10 })).toEqual({ start_line: 1, end_line: 10 });
      // locations[0].line at least 1: a start line only (Gemini); 0 is no range (Droid, claude-code-acp).
      expect(await range({}, [{ path: 'f', line: 12 }])).toEqual({ start_line: 12, end_line: undefined });
      expect(await range({}, [{ path: 'f', line: 0 }])).toEqual({ start_line: undefined, end_line: undefined });
    },
  );

  test(
    "line ranges: Qwen's read_file offset is 0-based (agentInfo.name qwen-code); another agent's offset 0 is no " +
      'line',
    async () => {
      expect(
        await tool({ kind: 'read', rawInput: { file_path: 'f', offset: 4, limit: 2 } }, { agent: 'qwen-code' }),
      ).toEqual([{ type: 'read', path: '/ws/f', start_line: 5, end_line: 6, is_success: true }]);
      expect(await tool({ kind: 'read', rawInput: { file_path: 'f', offset: 0, limit: 2 } })).toEqual([
        { type: 'read', path: '/ws/f', start_line: 1, end_line: 2, is_success: true },
      ]);
    },
  );

  test(
    'searches: query from pattern, query, regex, glob, then patterns[0]; path from path, dir_path, ' +
      'directory_path, else locations[0].path',
    async () => {
      expect(await tool({ kind: 'search', rawInput: { glob: '*.md', regex: 'r', query: 'q' } })).toEqual([
        { type: 'search', query: 'q', is_success: true },
      ]);
      expect(
        await tool({ kind: 'search', rawInput: { regex: 'r', glob: 'g', dir_path: 'src', directory_path: 'lib' } }),
      ).toEqual([{ type: 'search', query: 'r', path: '/ws/src', is_success: true }]);
      expect(
        await tool({ kind: 'search', rawInput: { patterns: ['a', 'b'] }, locations: [{ path: '/ws/docs' }] }),
      ).toEqual([{ type: 'search', query: 'a', path: '/ws/docs', is_success: true }]);
    },
  );

  test(
    "searches: with no query field, the title: 'Q' within P and 'Q' (Gemini), any other title as it stands; " +
      'neither: unknown',
    async () => {
      expect(await tool({ kind: 'search', title: "'magic' within ./" })).toEqual([
        { type: 'search', query: 'magic', path: '/ws', is_success: true },
      ]);
      expect(await tool({ kind: 'search', title: "'**/*.ts'" })).toEqual([
        { type: 'search', query: '**/*.ts', is_success: true },
      ]);
      expect(await tool({ kind: 'search', title: 'List the src directory', locations: [{ path: 'src' }] })).toEqual([
        { type: 'search', query: 'List the src directory', path: '/ws/src', is_success: true },
      ]);
      expect(await tool({ kind: 'search', rawInput: {} })).toEqual([
        { type: 'unknown', raw: { toolCallId: 't1', kind: 'search', rawInput: {}, status: 'completed' } },
      ]);
    },
  );
});
