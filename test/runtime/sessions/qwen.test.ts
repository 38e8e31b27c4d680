/**
 * Qwen Code's session transcripts against the stdout of the same run (test/fixtures/qwen/transcripts/,
 * TRANSCRIPTS.md there). Each expected list was checked by hand against the transcript's lines and
 * docs/harnesses/qwen.md "Session transcripts"; the differences from stdout are the ones that page's table lists,
 * and nothing else. And findSessions on each capture's home. Records the captures do not have: qwen-records.test.ts;
 * following a transcript being written: qwen-follow.test.ts.
 */
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { findSessions, type SessionEntry } from '../../../lib/runtime/sessions/sessions.js';
import { copyHome, readPair, signature } from './pairs.js';
import { backgroundEvents, chat, ids, subagentFile, type Scenario } from './qwen-capture.js';

/** Difference: one usage event per model request (its `ui_telemetry` record); stdout has none. */
const notUsage = (line: string) => line !== 'usage';
const usages = (events: HarnessEvent[]) => events.flatMap((e) => (e.type === 'usage' ? [e.tokens] : []));

describe('Qwen Code transcript = its stdout, but for the documented differences', () => {
  test('files: the same fourteen tool events and two texts; a usage event per request, the same totals', async () => {
    const { stdout, session } = await readPair('qwen', 'qwen', 'files', chat('files'));
    const expected = [
      'agent | I will start by reading the notes.',
      'unknown tool todo_write',
      'read | /home/user/project/notes.txt | true',
      'read | /home/user/project/notes.txt | true',
      'read | /home/user/project/src/a.ts | true',
      'write | /home/user/project/src/c.ts | true',
      'write | /home/user/project/src/a.ts | true',
      'search | **/*.ts | true',
      'search | /home/user/project/src | true',
      'list | /home/user/project/src | true',
      'skill | /home/user/project/skills/greeting/SKILL.md | true',
      'read | /home/user/project/missing.txt | false',
      'write | /home/user/project/src/b.ts | false',
      'unknown tool does_not_exist',
      'agent | Done: updated greet in src/a.ts and added src/c.ts.',
    ];
    expect(stdout.events.map(signature)).toEqual(expected);
    // Each request's usage goes out before the response it paid for.
    expect(session.events.map(signature)).toEqual([
      'usage',
      ...expected.slice(0, 5),
      'usage',
      ...expected.slice(5, 7),
      'usage',
      ...expected.slice(7, 11),
      'usage',
      ...expected.slice(11, 14),
      'usage',
      expected[14],
    ]);
    expect(session.events.every((e) => e.session_id === ids.files)).toBe(true);
    expect(usages(session.events)).toEqual([
      { input: 6000, output: 80, cache_read: 0, reasoning: 0 },
      { input: 400, output: 120, cache_read: 6000, reasoning: 0 },
      { input: 500, output: 90, cache_read: 6400, reasoning: 0 },
      { input: 700, output: 70, cache_read: 6900, reasoning: 0 },
      { input: 600, output: 20, cache_read: 7600, reasoning: 0 },
    ]);
    // The requests add up to stdout's result.usage; the file says its thoughts (none) apart.
    expect(stdout.metrics.tokens).toEqual({ input: 8200, output: 380, cache_read: 26900 });
    expect(session.metrics.tokens).toEqual({ ...stdout.metrics.tokens, reasoning: 0 });
    // No result record: no end, turns, duration or final text.
    expect(stdout.metrics).toMatchObject({ ended: true, turns: 5 });
    expect(session.metrics.ended).toBeUndefined();
    expect(session.metrics.turns).toBeUndefined();
    expect(session.metrics.final_output).toBeUndefined();
  });

  test("subagent: the subagent's file merged in by time, its text too (stdout omits it)", async () => {
    const { stdout, session } = await readPair('qwen', 'qwen', 'subagent', chat('subagent'));
    const expected = [
      'usage',
      'usage',
      'agent | Reading the README.',
      'read | /home/user/project/README.md | true',
      'usage',
      'agent | README.md: a tiny demo project used for agent stream captures.',
      'orchestration | true',
      'usage',
      'agent | The helper says: a tiny demo project used for agent stream captures.',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    const subagentText = [
      'agent | Reading the README.',
      'agent | README.md: a tiny demo project used for agent stream captures.',
    ];
    expect(stdout.events.map(signature)).toEqual(
      expected.filter(notUsage).filter((line) => !subagentText.includes(line)),
    );
    // The foreground agent's end is its call's result, as on stdout.
    const orchestration = (events: HarnessEvent[]) => events.filter((e) => e.type === 'orchestration');
    const fields = ({ timestamp: _, ...rest }: HarnessEvent) => rest;
    expect(orchestration(session.events).map(fields)).toEqual(orchestration(stdout.events).map(fields));
    expect(orchestration(session.events)[0]).toMatchObject({
      action: 'subagent_completed',
      subagent_id: 'call_0002',
      subagent_name: 'general-purpose',
    });
    // The subagent's requests are in the parent's telemetry; the sum is stdout's session total.
    expect(session.metrics.tokens).toEqual({ ...stdout.metrics.tokens, reasoning: 0 });
    expect(stdout.metrics.tokens).toEqual({ input: 12100, output: 106, cache_read: 5500 });
  });

  test("subagent-background: started and notified as stdout's task records say; its own work in the file", async () => {
    const { stdout, session } = await readPair('qwen', 'qwen', 'subagent-background', chat('subagent-background'));
    const expected = backgroundEvents;
    expect(session.events.map(signature)).toEqual(expected);
    // stdout prints nothing of a background subagent's own turns.
    const subagentWork = expected.slice(5, 9).filter(notUsage);
    expect(stdout.events.map(signature)).toEqual(
      expected.filter(notUsage).filter((line) => !subagentWork.includes(line)),
    );
    const orchestration = (events: HarnessEvent[]) =>
      events.flatMap((e) => (e.type === 'orchestration' ? [[e.action, e.subagent_id, e.subagent_name]] : []));
    expect(orchestration(session.events)).toEqual([
      ['subagent_started', 'call_0002', 'general-purpose'],
      ['subagent_completed', 'call_0002', 'general-purpose'],
    ]);
    expect(orchestration(session.events)).toEqual(orchestration(stdout.events));
    expect(session.metrics.input.rules).toMatchObject({ 'tool_result:launched': 1, 'user:notification': 1 });
    expect(session.metrics.tokens).toEqual({ ...stdout.metrics.tokens, reasoning: 0 });
  });

  test('turn-limit: the one read; the file has its usage, stdout (no result record) none', async () => {
    const { stdout, session } = await readPair('qwen', 'qwen', 'turn-limit', chat('turn-limit'));
    expect(stdout.events.map(signature)).toEqual(['read | /home/user/project/notes.txt | true']);
    expect(session.events.map(signature)).toEqual(['usage', 'read | /home/user/project/notes.txt | true']);
    expect(stdout.metrics.tokens).toEqual({});
    expect(stdout.metrics.ended).toBe(false);
    expect(session.metrics.tokens).toEqual({ input: 5000, output: 20, cache_read: 0, reasoning: 0 });
  });

  test('text-reasoning-continue: both runs in one file; thoughts apart, the memory extraction counted', async () => {
    const { stdout, session } = await readPair(
      'qwen',
      'qwen',
      'text-reasoning-continue',
      chat('text-reasoning-continue'),
      ['stdout.jsonl', 'stdout.2.jsonl'],
    );
    const expected = [
      'usage',
      'reasoning | The user wants a one-line summary. The README says it is a demo project.',
      'agent | This is a tiny demo project used for agent stream captures.',
      'usage',
      'usage',
      'agent | Goodbye from the lab!',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(expected.filter(notUsage));
    // Run 1's answer, the memory extraction after it, run 2's answer, its memory extraction.
    expect(usages(session.events)).toEqual([
      { input: 1004, output: 24, cache_read: 4096, reasoning: 18 },
      { input: 900, output: 5, cache_read: 0, reasoning: 0 },
      { input: 200, output: 6, cache_read: 5100, reasoning: 0 },
      { input: 900, output: 5, cache_read: 0, reasoning: 0 },
    ]);
    // stdout's last result is the session's total, thoughts inside output_tokens; the file says them apart.
    expect(stdout.metrics.tokens).toEqual({ input: 3004, output: 58, cache_read: 9196 });
    expect(session.metrics.tokens).toEqual({ input: 3004, output: 40, cache_read: 9196, reasoning: 18 });
  });
});

describe('findSessions on a capture home', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const past = new Date('2026-12-01T20:05:00Z');
  function home(scenario: Scenario): string {
    const dir = copyHome('qwen', scenario);
    dirs.push(dir);
    utimesSync(join(dir, chat(scenario)), past, past);
    if (scenario.startsWith('subagent')) utimesSync(join(dir, subagentFile(scenario)), past, past);
    return dir;
  }

  async function found(options: Parameters<typeof findSessions>[0]): Promise<SessionEntry[]> {
    const entries: SessionEntry[] = [];
    for await (const entry of findSessions(options)) entries.push(entry);
    return entries;
  }

  const expected = (dir: string, scenario: Scenario, started: string, updated: string, bytes: number) => ({
    harness: 'qwen',
    id: ids[scenario],
    path: join(dir, chat(scenario)),
    cwd: '/home/user/project',
    started,
    updated,
    bytes,
    live: false,
    subagents: [] as { id: string; path: string; bytes: number }[],
  });

  test('each capture: exactly its one session (usage_record.jsonl, todos and memory are not sessions)', async () => {
    const runs: [Scenario, string, string, number][] = [
      ['files', '2026-12-01T20:01:27.882Z', '2026-12-01T20:01:30.415Z', 32246],
      ['turn-limit', '2026-12-01T20:01:59.118Z', '2026-12-01T20:02:00.308Z', 3527],
      // Both runs: the second appended to the first's file.
      ['text-reasoning-continue', '2026-12-01T20:02:07.169Z', '2026-12-01T20:02:20.683Z', 6411],
    ];
    for (const [scenario, started, updated, bytes] of runs) {
      const dir = home(scenario);
      expect(await found({ home: dir })).toEqual([expected(dir, scenario, started, updated, bytes)]);
    }
  });

  test('subagent, subagent-background: one session each, the subagent listed with it, not as a run', async () => {
    const runs: [Scenario, string, string, number][] = [
      ['subagent', '2026-12-01T20:01:41.094Z', '2026-12-01T20:01:44.376Z', 8648],
      ['subagent-background', '2026-12-01T20:01:50.672Z', '2026-12-01T20:01:54.907Z', 11655],
    ];
    for (const [scenario, started, updated, bytes] of runs) {
      const dir = home(scenario);
      const subagent = { id: 'general-purpose-call_0002', path: join(dir, subagentFile(scenario)), bytes: 2856 };
      expect(await found({ home: dir, harness: 'qwen' })).toEqual([
        { ...expected(dir, scenario, started, updated, bytes + 2856), subagents: [subagent] },
      ]);
    }
    // A subagent file written now makes its session live.
    const dir = home('subagent');
    const now = new Date();
    utimesSync(join(dir, subagentFile('subagent')), now, now);
    expect((await found({ home: dir, harness: 'qwen' })).map((entry) => entry.live)).toEqual([true]);
  });

  test('QWEN_RUNTIME_DIR, else QWEN_HOME, moves the files away from the home', async () => {
    const capture = home('turn-limit');
    const empty = mkdtempSync(join(tmpdir(), 'harness-events-qwen-empty-'));
    dirs.push(empty);
    const runtime = join(capture, '.qwen');
    const path = join(runtime, 'projects/-home-user-project/chats', `${ids['turn-limit']}.jsonl`);
    const paths = async (env: Record<string, string>) =>
      (await found({ home: empty, env, harness: 'qwen' })).map((entry) => entry.path);
    expect(await paths({})).toEqual([]);
    expect(await paths({ QWEN_HOME: runtime })).toEqual([path]);
    expect(await paths({ QWEN_RUNTIME_DIR: runtime })).toEqual([path]);
    // The runtime directory wins over QWEN_HOME (Storage.getRuntimeBaseDir); an empty value is unset.
    expect(await paths({ QWEN_RUNTIME_DIR: runtime, QWEN_HOME: empty })).toEqual([path]);
    expect(await paths({ QWEN_RUNTIME_DIR: empty, QWEN_HOME: runtime })).toEqual([]);
    expect(await paths({ QWEN_RUNTIME_DIR: '', QWEN_HOME: runtime })).toEqual([path]);
  });
});
