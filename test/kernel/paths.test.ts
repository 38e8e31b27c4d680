/**
 * docs/contract.md "Paths": every path normalized, absolute ones too; `~` expands against the
 * run's home (the `home` option, which spawnHarness fills from the child's HOME), never another directory.
 */
import { homedir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { resolvePath } from '../../lib/kernel/paths.js';
import { spawnHarness } from '../../lib/runtime/run/spawn.js';
import { bodies, jsonl, run } from '../helpers.js';

describe('resolvePath', () => {
  test('relative and absolute paths alike lose `.`, `..`, repeated and trailing slashes', () => {
    expect(resolvePath('./a', '/ws')).toBe('/ws/a');
    expect(resolvePath('.', '/ws')).toBe('/ws');
    expect(resolvePath('/ws/src/../b//c.ts', '/elsewhere')).toBe('/ws/b/c.ts');
    expect(resolvePath('//ws//a/./b/', undefined)).toBe('/ws/a/b');
  });

  test('`~` and `~/...` are the home given, else the process home; `~user` and `a/~` are names', () => {
    expect(resolvePath('~', '/ws', '/home/agent')).toBe('/home/agent');
    expect(resolvePath('~/notes/../x.md', '/ws', '/home/agent')).toBe('/home/agent/x.md');
    expect(resolvePath('~/x.md', '/ws')).toBe(`${homedir()}/x.md`);
    expect(resolvePath('~bob/a', '/ws', '/home/agent')).toBe('/ws/~bob/a');
    expect(resolvePath('a/~/b', '/ws', '/home/agent')).toBe('/ws/a/~/b');
  });
});

// A Claude Code Read of `~/notes.md`, as claude-code.md's stream writes it.
const session = 'c7a1e0f2-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const lines = [
  { type: 'system', subtype: 'init', session_id: session, cwd: '/ws', tools: ['Read'], model: 'claude' },
  {
    type: 'assistant',
    session_id: session,
    message: {
      id: 'msg_1',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '~/notes.md' } }],
    },
  },
  {
    type: 'user',
    session_id: session,
    message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'notes' }] },
  },
  // The run's end: without it a spawned run is incomplete (an error event).
  { type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: session },
];

describe('the home option', () => {
  test('the normalizer expands `~` against `home`', async () => {
    const out = await run(jsonl(...lines), { harness: 'claude-code', home: '/home/agent' });
    expect(bodies(out.events)).toEqual([{ type: 'read', path: '/home/agent/notes.md', is_success: true }]);
  });

  test("spawnHarness sets it from the child's HOME, not the process's", async () => {
    const script = `for (const line of ${JSON.stringify(lines)}) console.log(JSON.stringify(line))`;
    const child = spawnHarness({
      harness: 'claude-code',
      command: process.execPath,
      args: ['-e', script],
      env: { PATH: process.env.PATH, HOME: '/home/child' },
    });
    const events = [];
    for await (const event of child) events.push(event);
    await child.done;
    expect(bodies(events)).toEqual([{ type: 'read', path: '/home/child/notes.md', is_success: true }]);
  });
});
