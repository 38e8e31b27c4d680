/**
 * followSession on files a real child process appends to (test/runtime/sessions/appender.mjs replays a
 * real transcript in chunks that end mid-line). Each step is a handshake: the child says what
 * it wrote, and the test waits until the follower has read that many lines before asking for
 * more; nothing waits on a clock.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { followSession } from '../../../lib/runtime/sessions/follow.js';
import { readSession } from '../../../lib/runtime/sessions/sessions.js';
import { fixturePath } from '../../helpers.js';
import { collect, lineCounter, startWriter, type Writer } from './following.js';
import { signature } from './pairs.js';

const project = (scenario: string) =>
  fixturePath(`claude-code/transcripts/${scenario}/home/.claude/projects/-home-user-project`);
const bash = join(project('bash'), 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl');

const dirs: string[] = [];
const writers: Writer[] = [];
afterEach(() => {
  for (const writer of writers.splice(0)) writer.child.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function session(): string {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-follow-'));
  dirs.push(dir);
  const path = join(dir, 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl');
  writeFileSync(path, '');
  return path;
}

async function readWhole(path: string): Promise<string[]> {
  const events: string[] = [];
  for await (const event of readSession({ harness: 'claude-code', path })) events.push(signature(event));
  return events;
}

describe('followSession', () => {
  test('a transcript written in mid-line chunks: its events as they come, ending by itself at cost-state', async () => {
    const path = session();
    const writer = startWriter(bash, path);
    writers.push(writer);
    const lines = lineCounter();
    const follow = followSession({ harness: 'claude-code', path, onLine: lines.onLine, endGraceMs: 50 });
    const got = collect(follow);
    const whole = await readWhole(bash);
    for (;;) {
      const [, count, more] = (await writer.ask('next')).split(' ');
      await lines.until(Number(count));
      // Before the last line is written, every event but the final text has already come out.
      if (Number(count) === 65) await got.atLeast(whole.length - 1);
      if (more === 'all') break;
    }
    await got.done;
    expect(got.events.map(signature)).toEqual(whole);
    expect(follow.metrics.cost).toBe(0.01078);
    expect(follow.metrics.input.lines).toBe(66);
  });

  test('from the end: only what is appended after it starts', async () => {
    const path = session();
    const writer = startWriter(bash, path);
    writers.push(writer);
    // The first 40 lines are there before the follower starts.
    for (;;) if (Number((await writer.ask('next')).split(' ')[1]) >= 40) break;
    const lines = lineCounter();
    let started!: () => void;
    const start = new Promise<void>((resolve) => (started = resolve));
    const follow = followSession({
      harness: 'claude-code',
      path,
      from: 'end',
      onLine: lines.onLine,
      endGraceMs: 50,
      onStart: started,
    });
    const got = collect(follow);
    // The handshake: nothing more is written until the follower has taken the file's end as its start.
    await start;
    for (;;) {
      const [, , more] = (await writer.ask('next')).split(' ');
      if (more === 'all') break;
    }
    await got.done;
    // It starts in line 41 (the rest of it is not JSON); lines 42-66 hold the last five calls and the final text. Their
    // paths resolve against the first cwd read, here the one after `cd src` (from the start: the session's first).
    expect(got.events.map(signature)).toEqual([
      'warning | not_json',
      'read | /home/user/project/src/notes.txt | true',
      'command | false | false',
      'command | echo hi > out.txt | true',
      'list | true',
      'command | pwd | true',
      'agent | Done: the shell stayed in src after the cd, so notes.txt was not found there and out.txt landed in src.',
    ]);
  });

  test('a truncated file is a warning and is read again from its start; a deleted one ends the following', async () => {
    const path = session();
    const writer = startWriter(bash, path);
    writers.push(writer);
    const lines = lineCounter();
    const follow = followSession({ harness: 'claude-code', path, onLine: lines.onLine });
    const got = collect(follow);
    for (;;) if (Number((await writer.ask('next')).split(' ')[1]) >= 10) break;
    await lines.until(10);
    expect(await writer.ask('truncate')).toBe('truncated');
    await got.atLeast(1);
    expect(await writer.ask('delete')).toBe('deleted');
    await got.done;
    const codes = got.events.filter((e) => e.type === 'warning').map((e) => (e as { code?: string }).code);
    // Lines 1-10 are bookkeeping (no event); the half of line 11 written before the truncation is not JSON.
    expect(codes).toEqual(['not_json', 'session_truncated', 'session_deleted']);
    expect(got.events).toHaveLength(3);
    expect(got.events[1]).toMatchObject({ session_id: 'c87769bd-e555-469c-9e50-6bbdc54002bf' });
  });

  test(
    "a subagent's transcript appearing while the session is " + 'written: its events merged in as they come',
    async () => {
      const id = '42a3ead3-e740-40f9-af59-f65838abac3a';
      const agent = `${id}/subagents/agent-aa42baeaa5d08c432.jsonl`;
      const dir = mkdtempSync(join(tmpdir(), 'harness-events-follow-'));
      dirs.push(dir);
      const path = join(dir, `${id}.jsonl`);
      writeFileSync(path, '');
      // The main file and the subagent's, written in their records' time order; the subagent's file and folder are
      // created by its first line, after the follower started.
      const writer = startWriter(
        join(project('subagent'), `${id}.jsonl`),
        path,
        join(project('subagent'), agent),
        join(dir, agent),
      );
      writers.push(writer);
      const lines = lineCounter();
      const follow = followSession({ harness: 'claude-code', path, onLine: lines.onLine, endGraceMs: 50, pollMs: 50 });
      const got = collect(follow);
      for (;;) {
        const [, count, more] = (await writer.ask('next')).split(' ');
        await lines.until(Number(count));
        if (more === 'all') break;
      }
      await got.done;
      const whole = readSession({ harness: 'claude-code', path: join(project('subagent'), `${id}.jsonl`) });
      const expected: string[] = [];
      for await (const event of whole) expected.push(signature(event));
      // The read and the two messages around it are the subagent's (its file only).
      expect(expected).toEqual([
        'agent | Delegating to a subagent.',
        'agent | Reading the README.',
        'read | /home/user/project/README.md | true',
        'agent | The first line is "# Demo project".',
        'unknown tool Agent',
        'agent | The subagent reports that the first line of the README is "# Demo project".',
      ]);
      expect(got.events.map(signature)).toEqual(expected);
      expect(follow.metrics.tokens).toEqual(whole.metrics.tokens);
      expect(follow.metrics.input.lines).toBe(whole.metrics.input.lines);
    },
  );

  test('abort ends it, with what was read', async () => {
    const path = session();
    const writer = startWriter(bash, path);
    writers.push(writer);
    const lines = lineCounter();
    const controller = new AbortController();
    const follow = followSession({ harness: 'claude-code', path, onLine: lines.onLine, signal: controller.signal });
    const got = collect(follow);
    for (;;) if (Number((await writer.ask('next')).split(' ')[1]) >= 31) break;
    await lines.until(31);
    controller.abort();
    await got.done;
    // The two reads whose results are in lines 25 and 31; the half of line 32 written so far is not JSON.
    expect(got.events.map(signature)).toEqual([
      'read | /home/user/project/README.md | true',
      'read | /home/user/project/notes.txt | true',
      'warning | not_json',
    ]);
  });
});

describe('followSession on a Gemini chat file', () => {
  const chats = 'gemini/transcripts/%s/home/.gemini/tmp/project/chats/';
  const source = (scenario: string, file: string) => fixturePath(chats.replace('%s', scenario) + file);

  function geminiSession(name: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-follow-'));
    dirs.push(dir);
    const path = join(dir, name);
    writeFileSync(path, '');
    return path;
  }

  /**
   * Replays `from` into a new file line by line (each write ending mid-line) and checks, after every complete line,
   * that the events so far are exactly the whole file's first ones, as many as `added` gives up to that line (by line
   * number: how many events the line adds).
   * Gemini CLI writes no end marker: the follower would end on its quiet period, which no clock of the test's decides;
   * once every line is handled and every event has come, the test ends it (the quiet end has a test of its own).
   */
  async function replay(from: string, name: string, added: Record<number, number>) {
    const path = geminiSession(name);
    const writer = startWriter(from, path);
    writers.push(writer);
    const lines = lineCounter();
    const controller = new AbortController();
    // The copy is not in its project's folder (no .project_root beside it): the capture's working directory is given.
    const follow = followSession({
      harness: 'gemini',
      path,
      cwd: '/home/user/project',
      onLine: lines.onLine,
      signal: controller.signal,
    });
    const got = collect(follow);
    const whole: string[] = [];
    for await (const event of readSession({ harness: 'gemini', path: from })) whole.push(signature(event));
    let expected = 0;
    for (;;) {
      const [, count, more] = (await writer.ask('next')).split(' ');
      await lines.until(Number(count));
      expected += added[Number(count)] ?? 0;
      await got.atLeast(expected);
      expect(got.events.map(signature)).toEqual(whole.slice(0, expected));
      if (more === 'all') break;
    }
    await got.atLeast(whole.length);
    controller.abort();
    await got.done;
    expect(got.events.map(signature)).toEqual(whole);
    return { events: got.events, metrics: follow.metrics };
  }

  test('file-tools: a response as soon as it is written, its call when its rewrite comes, nothing twice', async () => {
    // Line 5 + 5k is response k (its text, if any, and usage), line 7 + 5k the same id again with its call.
    const added: Record<number, number> = { 5: 2, 7: 1, 40: 2 };
    for (let k = 1; k < 7; k++) {
      added[5 + 5 * k] = 1;
      added[7 + 5 * k] = 1;
    }
    const { events, metrics } = await replay(
      source('file-tools', 'session-2026-12-01T19-59-fefd50be.jsonl'),
      'session-2026-12-01T19-59-fefd50be.jsonl',
      added,
    );
    expect(events.map(signature).slice(0, 3)).toEqual([
      'agent | I will read the notes first.',
      'usage',
      'read | /home/user/project/notes.txt | true',
    ]);
    expect(events).toHaveLength(17);
    expect(metrics.input.rules).toMatchObject({ 'gemini:response': 8, 'gemini:rewrite': 7 });
    expect(metrics.tokens).toEqual({ input: 50800, cache_read: 0, output: 171 });
  });

  test('a session nobody writes any more ends on the quiet period after its last line', async () => {
    const from = source('text-thoughts-resume', 'session-2026-12-01T19-59-39f301d0.jsonl');
    const follow = followSession({ harness: 'gemini', path: from, quietMs: 100, pollMs: 50 });
    const got = collect(follow);
    await got.done;
    const whole: string[] = [];
    for await (const event of readSession({ harness: 'gemini', path: from })) whole.push(signature(event));
    expect(got.events.map(signature)).toEqual(whole);
  });

  test(
    'a resume in a later minute: its second file is followed as it ' + 'appears, its restated context adding nothing',
    async () => {
      const scenario = 'text-thoughts-resume-later';
      const [first, later] = ['20-06', '20-07'].map((minute) => `session-2026-12-01T${minute}-a79f08ff.jsonl`) as [
        string,
        string,
      ];
      const path = geminiSession(first);
      const writer = startWriter(source(scenario, first), path, source(scenario, later), join(path, '..', later));
      writers.push(writer);
      const lines = lineCounter();
      const controller = new AbortController();
      const follow = followSession({
        harness: 'gemini',
        path,
        onLine: lines.onLine,
        signal: controller.signal,
        pollMs: 50,
      });
      const got = collect(follow);
      const whole: string[] = [];
      for await (const event of readSession({ harness: 'gemini', path: source(scenario, first) }))
        whole.push(signature(event));
      for (;;) {
        const [, count, more] = (await writer.ask('next')).split(' ');
        await lines.until(Number(count));
        if (more === 'all') break;
      }
      await got.atLeast(whole.length);
      controller.abort();
      await got.done;
      // Both runs' answers (the continuation is appended to the first file); the later file's metadata and restated
      // context are read once it appears, and give nothing.
      expect(whole).toEqual(
        ['reasoning', 'reasoning', 'agent', 'usage', 'agent', 'usage'].map((type) => expect.stringMatching(`^${type}`)),
      );
      expect(got.events.map(signature)).toEqual(whole);
    },
  );

  test(
    'text-thoughts-resume: the history a resume restates ' + '($set.messages) after it was given adds nothing',
    async () => {
      // Line 5: run 1's response (two thoughts, its text, its usage); line 10: the restored history; 13: run 2's
      // answer.
      const { events, metrics } = await replay(
        source('text-thoughts-resume', 'session-2026-12-01T19-59-39f301d0.jsonl'),
        'session-2026-12-01T19-59-39f301d0.jsonl',
        { 5: 4, 13: 2 },
      );
      expect(events.map((event) => event.type)).toEqual(['reasoning', 'reasoning', 'agent', 'usage', 'agent', 'usage']);
      expect(metrics.input.rules).toMatchObject({ 'metadata:header': 2, '$set:messages': 3 });
    },
  );
});
