/** The CLI's session commands on a SQLite store (OpenCode's opencode.db), in process. */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { inProcess as cli } from '../../cli.js';
import { transcripts } from './pairs.js';

const home = join(transcripts('opencode', 'read'), 'home');
const db = join(home, '.local/share/opencode/opencode.db');
const id = 'ses_dcccd26b7ffeibGuMgmvjIBUgk';

const types = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { type: string }).type);

test('sessions --json lists the store session with its <db>#<id> path; normalize and follow take it', async () => {
  const listed = await cli(['sessions', '--home', home, '--harness', 'opencode', '--json']);
  expect(listed.code).toBe(0);
  expect(listed.lines.map((line) => JSON.parse(line) as unknown)).toEqual([
    {
      harness: 'opencode',
      id,
      path: `${db}#${id}`,
      cwd: '/home/user/project',
      started: '2026-12-01T20:01:40.169Z',
      updated: '2026-12-01T20:01:48.635Z',
      bytes: 21987,
      live: false,
      subagents: [],
    },
  ]);
  const expected = ['agent', 'read', 'usage', 'read', 'usage', 'read', 'usage', 'agent', 'usage'];
  const normalized = await cli(['normalize', '--harness', 'opencode', '--session', `${db}#${id}`]);
  expect(normalized.code).toBe(0);
  expect(types(normalized.lines)).toEqual(expected);
  // The turn finished: follow reads the log, sees the end marker and ends by itself.
  const followed = await cli(['follow', '--harness', 'opencode', '--session', `${db}#${id}`]);
  expect(followed.code).toBe(0);
  expect(types(followed.lines)).toEqual(expected);
});

test('a store path naming no session, or no database, fails with its reason', async () => {
  const missing = await cli(['normalize', '--harness', 'opencode', '--session', `${db}#ses_nope`]);
  expect(missing.code).toBe(2);
  expect(missing.errors).toContain(`no session ses_nope in ${db}`);
  const bare = await cli(['normalize', '--harness', 'opencode', '--session', db]);
  expect(bare.code).toBe(2);
  expect(bare.errors).toContain('names no session');
});
