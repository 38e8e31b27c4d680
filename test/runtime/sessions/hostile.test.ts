/**
 * Session files under hostile conditions (issue 38), each on real files and, where a writer is needed, a real child
 * process (appender.mjs): a file rewritten in place, a file whose size is below its content (`/proc`), a subagent's
 * transcript ending in an unfinished line over 1 MiB, an unreadable file in the listing, symlinked projects and
 * transcripts (and a loop), thousands of Codex rollouts, and a Gemini header whose session id climbs out of the chats.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { session as codex } from '../../../lib/harnesses/codex/session.js';
import { session as gemini } from '../../../lib/harnesses/gemini/session.js';
import { followSession } from '../../../lib/runtime/sessions/follow.js';
import { readSession } from '../../../lib/runtime/sessions/sessions.js';
import { tailSession } from '../../../lib/runtime/sessions/tail-session.js';
import { fixturePath } from '../../helpers.js';
import { collect, lineCounter, startWriter, type Writer } from './following.js';
import { signature } from './pairs.js';
import { listed } from './stores.js';

const project = (scenario: string) =>
  fixturePath(`claude-code/transcripts/${scenario}/home/.claude/projects/-home-user-project`);
const bash = join(project('bash'), 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl');
const parent = '42a3ead3-e740-40f9-af59-f65838abac3a';
const agent = `${parent}/subagents/agent-aa42baeaa5d08c432.jsonl`;

const dirs: string[] = [];
const children: (Writer | { child: ChildProcess })[] = [];
afterEach(async () => {
  for (const { child } of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-hostile-'));
  dirs.push(dir);
  return dir;
}

async function readWhole(harness: string, path: string): Promise<string[]> {
  const events: string[] = [];
  for await (const event of readSession({ harness, path })) events.push(signature(event));
  return events;
}

const warnings = (events: { type: string }[]) =>
  events.filter((e) => e.type === 'warning').map((e) => (e as { code?: string }).code);

describe('following', () => {
  test(
    'a file rewritten in place (O_TRUNC, then one longer write) is a ' + 'warning and is read again from its start',
    async () => {
      const path = join(tempDir(), 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl');
      writeFileSync(path, '');
      const writer = startWriter(bash, path);
      children.push(writer);
      const lines = lineCounter();
      const got = collect(followSession({ harness: 'claude-code', path, onLine: lines.onLine, endGraceMs: 50 }));
      let written = 0;
      while (written < 12) written = Number((await writer.ask('next')).split(' ')[1]);
      await lines.until(written);
      // Another transcript, longer than what was read: the old offset falls inside one of its lines. (A copy: read
      // beside its subagents' files, it would merge them.)
      const other = join(tempDir(), `${parent}.jsonl`);
      copyFileSync(join(project('subagent'), `${parent}.jsonl`), other);
      expect(await writer.ask(`rewrite ${other}`)).toBe('rewritten');
      await got.done;
      // The half line written before the rewrite is cut (not JSON); then the whole new file, from its start.
      expect(warnings(got.events)).toEqual(['not_json', 'session_truncated']);
      const after = got.events.slice(got.events.findIndex((e) => warnings([e])[0] === 'session_truncated') + 1);
      expect(after.map(signature)).toEqual(await readWhole('claude-code', other));
    },
  );

  test(
    'a file whose size is below its content (/proc) is read once, ' + 'then followed, and the following ends',
    async () => {
      // A real process whose command line is a transcript record: /proc/<pid>/cmdline says it has 0 bytes.
      const record = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, sessionId: 's' });
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', `${record}\n`], {
        stdio: 'ignore',
      });
      children.push({ child });
      await once(child, 'spawn');
      const path = `/proc/${child.pid}/cmdline`;
      const expected = await readWhole('claude-code', path);
      expect(expected.length).toBeGreaterThan(0);
      const got = collect(followSession({ harness: 'claude-code', path, quietMs: 200, pollMs: 20 }));
      await got.done;
      expect(got.events.map(signature)).toEqual(expected);
    },
  );

  test(
    "a subagent's transcript ending in an unfinished line over 1 MiB: " + 'the main file is read on, to its end',
    async () => {
      const dir = tempDir();
      const path = join(dir, `${parent}.jsonl`);
      writeFileSync(path, '');
      mkdirSync(join(dir, parent, 'subagents'), { recursive: true });
      const long = `{"type":"assistant","message":{"content":"${'x'.repeat(1_500_000)}`;
      writeFileSync(join(dir, agent), readFileSync(join(project('subagent'), agent), 'utf8') + long);
      const lines = lineCounter();
      const got = collect(
        followSession({ harness: 'claude-code', path, onLine: lines.onLine, endGraceMs: 50, pollMs: 50 }),
      );
      // The subagent's 22 lines are read; its long line then holds the other files back until it stops coming.
      await lines.until(22);
      const writer = startWriter(join(project('subagent'), `${parent}.jsonl`), path);
      children.push(writer);
      while (!(await writer.ask('next')).endsWith('all'));
      await got.done;
      const whole = await readWhole('claude-code', path);
      expect(got.events.map(signature).sort()).toEqual(whole.sort());
      expect(got.events.at(-1)?.type).toBe(whole.length > 0 ? got.events.at(-1)?.type : undefined);
      expect(warnings(got.events)).toEqual(warnings(await collectEvents('claude-code', path)));
    },
  );
});

async function collectEvents(harness: string, path: string): Promise<{ type: string }[]> {
  const events: { type: string }[] = [];
  for await (const event of readSession({ harness, path })) events.push(event);
  return events;
}

describe('the listing', () => {
  test('an unreadable transcript is left out with a warning; the others are listed', async () => {
    const home = tempDir();
    const projects = join(home, '.claude', 'projects', '-home-user-project');
    mkdirSync(projects, { recursive: true });
    copyFileSync(bash, join(projects, 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl'));
    // A sysctl file of mode 0200: open() fails with EACCES, root or not.
    symlinkSync('/proc/sys/vm/compact_memory', join(projects, '00000000-0000-0000-0000-000000000000.jsonl'));
    const warned: string[] = [];
    const entries = await listed('claude-code', { home, onWarning: (message) => warned.push(message) });
    expect(entries.map((entry) => entry.id)).toEqual(['c87769bd-e555-469c-9e50-6bbdc54002bf']);
    expect(warned).toEqual([
      `claude-code session "${join(projects, '00000000-0000-0000-0000-000000000000.jsonl')}" left out: EACCES`,
    ]);
  });

  test(
    'a symlinked project directory and a symlinked transcript are ' + 'listed; a link back up is not walked',
    async () => {
      const home = tempDir();
      const elsewhere = tempDir();
      const projects = join(home, '.claude', 'projects');
      mkdirSync(join(projects, 'real'), { recursive: true });
      mkdirSync(join(elsewhere, 'linked-project'));
      copyFileSync(bash, join(elsewhere, 'linked-project', 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl'));
      symlinkSync(join(elsewhere, 'linked-project'), join(projects, 'linked'));
      copyFileSync(join(project('subagent'), `${parent}.jsonl`), join(elsewhere, 'main.jsonl'));
      symlinkSync(join(elsewhere, 'main.jsonl'), join(projects, 'real', `${parent}.jsonl`));
      symlinkSync(projects, join(projects, 'loop'));
      const entries = await listed('claude-code', { home });
      expect(entries.map((entry) => [entry.id, entry.path]).sort()).toEqual([
        [parent, join(projects, 'real', `${parent}.jsonl`)],
        [
          'c87769bd-e555-469c-9e50-6bbdc54002bf',
          join(projects, 'linked', 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl'),
        ],
      ]);
    },
  );
});

describe('locating', () => {
  const rollout = fixturePath(
    'codex/transcripts/read/home/.codex/sessions/2026/12/01/rollout-2026-12-01T20-01-26-01a23332-a378-7021-bbef-6' +
      '38214f98eab.jsonl',
  );

  test("Codex: 400 rollouts' headers are read a few at a time, not all at once", async () => {
    const day = join(tempDir(), 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    for (let i = 0; i < 400; i++) copyFileSync(rollout, join(day, `rollout-2026-12-01T20-01-26-${i}.jsonl`));
    const target = join(day, 'rollout-2026-12-01T20-01-26-0.jsonl');
    let most = 0;
    let located = false;
    const locating = codex.locate(target).finally(() => (located = true));
    // The file system requests in flight, sampled each turn of the event loop while the rollouts are read.
    while (!located) {
      most = Math.max(most, process.getActiveResourcesInfo().filter((kind) => kind.startsWith('FS')).length);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await locating).path).toBe(target);
    expect(most).toBeGreaterThan(0);
    // Eight rollouts at a time, each with one request in flight (its open or read) and the last one's close: 16, and
    // the count is the process's, so whatever else the worker has in flight on a loaded machine counts too (17 seen).
    // Read all at once, the 400 would be several hundred.
    expect(most).toBeLessThanOrEqual(32);
  });

  test('a format that merges nothing (Codex) is located once while followed, not at every poll', async () => {
    const path = join(tempDir(), 'sessions', '2026', '12', '01', 'rollout-2026-12-01T20-01-26-x.jsonl');
    mkdirSync(join(path, '..'), { recursive: true });
    copyFileSync(rollout, path);
    let locates = 0;
    const counted = { ...codex, locate: (file: string) => (locates++, codex.locate(file)) };
    let chunks = 0;
    for await (const chunk of tailSession(counted, path, {
      quietMs: 300,
      endGraceMs: 0,
      pollMs: 5,
      ended: () => false,
    }))
      if (chunk instanceof Buffer) chunks++;
    expect(chunks).toBeGreaterThan(0);
    expect(locates).toBe(1);
  });

  test("Gemini: a header's sessionId with ../ does not lead the search for subagents out of the chats", async () => {
    const home = tempDir();
    const chats = join(home, '.gemini', 'tmp', 'project', 'chats');
    mkdirSync(chats, { recursive: true });
    const path = join(chats, 'session-2026-12-01T20-01-abcdefgh.jsonl');
    writeFileSync(path, JSON.stringify({ sessionId: '../../../outside', projectHash: 'p' }) + '\n');
    mkdirSync(join(home, '.gemini', 'outside'));
    writeFileSync(join(home, '.gemini', 'outside', 'secret.jsonl'), '{}\n');
    expect((await gemini.locate(path)).subagents).toEqual([]);
  });
});
