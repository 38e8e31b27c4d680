/** The CLI's session commands, in process: `sessions --json`, `normalize --session`, `follow` on a whole file. */
import { readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, expect, test } from 'vitest';
import { inProcess as cli } from '../../cli.js';
import { normalize, type HarnessName } from '../../../lib/index.js';
import { sessionFormats } from '../../../lib/runtime/registry.js';
import type { SessionEntry } from '../../../lib/runtime/sessions/sessions.js';
import { fixturePath } from '../../helpers.js';
import { copyHome, transcripts } from './pairs.js';

const session = '.claude/projects/-home-user-project/c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl';
const homes: string[] = [];
afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

function home(): string {
  const dir = copyHome('claude-code', 'bash');
  homes.push(dir);
  const past = new Date('2026-12-01T20:00:00Z');
  utimesSync(join(dir, session), past, past);
  return dir;
}

test('sessions --json: one object per session, with the fields the issue names', async () => {
  const dir = home();
  const { code, lines } = await cli(['sessions', '--home', dir, '--json']);
  expect(code).toBe(0);
  expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
    expect.objectContaining({
      harness: 'claude-code',
      id: 'c87769bd-e555-469c-9e50-6bbdc54002bf',
      path: join(dir, session),
      cwd: '/home/user/project',
      started: expect.any(String),
      updated: expect.any(String),
      live: false,
    }),
  ]);
  expect((await cli(['sessions', '--home', dir, '--harness', 'codex'])).lines).toEqual([]);
});

test('normalize --session and follow give the same events; a bad --session is a usage error', async () => {
  const dir = home();
  const normalized = await cli(['normalize', '--harness', 'claude-code', '--session', join(dir, session)]);
  expect(normalized.code).toBe(0);
  const types = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { type: string }).type);
  expect(types(normalized.lines)).toEqual([
    ...['read', 'read', 'search', 'list', 'read', 'read'],
    ...['command', 'command', 'list', 'command', 'agent'],
  ]);
  // The file is complete: follow reads it, sees cost-state, and ends by itself.
  const followed = await cli(['follow', '--harness', 'claude-code', '--session', join(dir, session)]);
  expect(followed.code).toBe(0);
  expect(types(followed.lines)).toEqual(types(normalized.lines));
  const latest = await cli(['follow', '--latest', '--home', dir]);
  expect(types(latest.lines)).toEqual(types(normalized.lines));
  expect((await cli(['normalize', '--harness', 'claude-code', '--session', join(dir, 'nothing.jsonl')])).code).toBe(2);
  expect((await cli(['normalize', '--harness', 'gg', '--session', join(dir, session)])).code).toBe(2);
});

/** Every paired capture in test/fixtures of a harness whose sessions are read: `[harness, fixtures, scenario]`. */
const captures = [...sessionFormats.keys()].flatMap((harness) => {
  const fixtures = harness;
  const dir = fixturePath(`${fixtures}/transcripts`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => [harness, fixtures, entry.name] as const);
});

/** The session ids the capture's stdout names (every run of it: a resumed session has a stdout per run). */
async function stdoutSessions(harness: string, dir: string): Promise<string[]> {
  const ids = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => /^stdout(\.\d+)?\.jsonl$/.test(name))) {
    const events = normalize(Readable.from([readFileSync(join(dir, file))]), { harness: harness as HarnessName });
    for await (const event of events) if (event.session_id !== undefined) ids.add(event.session_id);
    // Copilot names its session only on the final `result` line, which gives no event of its own.
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n'))
      if (harness === 'copilot' && line.startsWith('{"type":"result"')) ids.add(JSON.parse(line).sessionId);
  }
  return [...ids].sort();
}

test.each(captures)(
  'sessions --home on the %s capture %s/%s lists exactly its run',
  async (harness, fixtures, scenario) => {
    const { code, lines } = await cli(['sessions', '--home', join(transcripts(fixtures, scenario), 'home'), '--json']);
    expect(code).toBe(0);
    const entries = lines.map((line) => JSON.parse(line) as SessionEntry);
    expect(entries.map((entry) => entry.harness)).toEqual(entries.map(() => harness));
    for (const entry of entries) {
      expect(entry).toEqual(
        expect.objectContaining({ id: expect.any(String), path: expect.any(String), updated: expect.any(String) }),
      );
      expect(typeof entry.live).toBe('boolean');
    }
    // The ids stdout names are the sessions listed, or their subagents (listed under their parent).
    const listed = entries.flatMap((entry) => [entry.id, ...entry.subagents.map((agent) => agent.id)]);
    const named = await stdoutSessions(harness, transcripts(fixtures, scenario));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((id) => !listed.includes(id))).toEqual([]);
    expect(entries.map((entry) => entry.id).filter((id) => !named.includes(id))).toEqual([]);
  },
);

test('Gemini: a session of two files is one line with its part below it; --session takes either file', async () => {
  const dir = copyHome('gemini', 'text-thoughts-resume-later');
  homes.push(dir);
  const chats = join(dir, '.gemini/tmp/project/chats');
  const [first, later] = ['20-06', '20-07'].map((minute) => join(chats, `session-2026-12-01T${minute}-a79f08ff.jsonl`));
  const past = new Date('2026-12-01T21:00:00Z');
  for (const file of [first!, later!]) utimesSync(file, past, past);
  const listed = await cli(['sessions', '--home', dir, '--harness', 'gemini']);
  expect(listed.lines).toEqual([
    'gemini  a79f08ff-12b1-4f45-aae2-e32bf22dd7f6  2026-12-01T20:06:05.929Z  2026-12-01T20:07:11.161Z  6 KiB  ended  ' +
      '/home/user/project',
    `    ${first}`,
    `    part ${later}`,
  ]);
  const types = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { type: string }).type);
  const expected = ['reasoning', 'reasoning', 'agent', 'usage', 'agent', 'usage'];
  for (const file of [first!, later!])
    expect(types((await cli(['normalize', '--harness', 'gemini', '--session', file])).lines)).toEqual(expected);
});
