/**
 * Gemini CLI's chat files against the stdout of the same run (test/fixtures/gemini/transcripts/,
 * TRANSCRIPTS.md there). Each expected list was checked by hand against the chat records and
 * docs/harnesses/gemini.md "Session files"; the differences from stdout are that page's table:
 * only the file has thoughts (reasoning) and per-response usage; only stdout has the run's status
 * and API error, and totals that count a subagent's calls and tokens. And findSessions on each capture's home.
 * Records the captures do not show: gemini-records.test.ts.
 */
import { rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { findSessions, type SessionEntry } from '../../../lib/runtime/sessions/sessions.js';
import { copyHome, readPair, signature } from './pairs.js';

const chats = '.gemini/tmp/project/chats';
const files = {
  'file-tools': `${chats}/session-2026-12-01T19-59-fefd50be.jsonl`,
  'tool-errors': `${chats}/session-2026-12-01T19-59-55ae490e.jsonl`,
  subagent: `${chats}/session-2026-12-01T19-59-eb6ebba4.jsonl`,
  child: `${chats}/eb6ebba4-dc60-4b9f-9b19-cffdd1bd31a6/2c1841db-b354-4bd4-a5b4-e55e7eb8bf3a.jsonl`,
  'error-http-400': `${chats}/session-2026-12-01T19-59-78fb7c80.jsonl`,
  'text-thoughts-resume': `${chats}/session-2026-12-01T19-59-39f301d0.jsonl`,
  'text-thoughts-resume-later': `${chats}/session-2026-12-01T20-06-a79f08ff.jsonl`,
  later: `${chats}/session-2026-12-01T20-07-a79f08ff.jsonl`,
};

/** Documented: only the file has per-response usage (a usage event after each response's text). */
const withoutUsage = (lines: string[]) => lines.filter((line) => line !== 'usage');

describe('Gemini chat file = its stdout, but for the documented differences', () => {
  test('file-tools: the same calls and text, with a usage event per response; the same token totals', async () => {
    const { stdout, session } = await readPair('gemini', 'gemini', 'file-tools', files['file-tools']);
    // Each response: its text, its usage, then (from its rewrite) its call.
    const expected = [
      'agent | I will read the notes first.',
      'usage',
      'read | /home/user/project/notes.txt | true',
      'usage',
      'read | /home/user/project/notes.txt | true',
      'usage',
      'list | /home/user/project/src | true',
      'usage',
      'search | **/*.ts | true',
      'usage',
      'search | /home/user/project/src | true',
      'usage',
      'write | /home/user/project/docs/USAGE.md | true',
      'usage',
      'write | /home/user/project/src/a.ts | true',
      'agent | Done: read the notes, listed src, found greet, wrote docs/USAGE.md and capitalized the greeting.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(withoutUsage(expected));
    expect(session.events[1]).toMatchObject({ type: 'usage', tokens: { input: 6000, cache_read: 0, output: 20 } });
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
    expect(session.metrics.tokens).toEqual({ input: 50800, cache_read: 0, output: 171 });
    expect(session.metrics.final_output).toBe(stdout.metrics.final_output);
    // 8 responses, 7 of them written again with their call; the tool results are the 7 user records after them.
    expect(session.metrics.input.rules).toMatchObject({ 'gemini:response': 8, 'gemini:rewrite': 7 });
    expect(session.events[0]!.session_id).toBe('fefd50be-7889-48e6-b717-0a4f4e0404a8');
  });

  test('tool-errors: the same failed calls (and the same unknown ones), with usage per response', async () => {
    const { stdout, session } = await readPair('gemini', 'gemini', 'tool-errors', files['tool-errors']);
    const expected = [
      'usage',
      'read | /home/user/project/missing.txt | false',
      'usage',
      'write | /home/user/project/notes.txt | false',
      'usage',
      // read_file without file_path, and the unregistered delete_everything.
      'unknown undefined/',
      'usage',
      'unknown undefined/',
      'usage',
      'list | false',
      'agent | Each of those attempts failed as expected.',
      'usage',
    ];
    expect(session.events.map(signature)).toEqual(expected);
    expect(stdout.events.map(signature)).toEqual(withoutUsage(expected));
    const unknowns = session.events.filter((event) => event.type === 'unknown');
    expect(
      unknowns.map((event) => (event as { raw: { tool_use: { tool_name: string } } }).raw.tool_use.tool_name),
    ).toEqual(['read_file', 'delete_everything']);
    // Documented: the error type of stdout's tool_result is not in the file; its display text is.
    expect(unknowns[1]).toMatchObject({
      raw: { tool_result: { status: 'error', output: expect.stringMatching(/^Tool "delete_everything" not found/) } },
    });
    expect(session.metrics.tokens).toEqual(stdout.metrics.tokens);
  });

  test('subagent: the parent alone, one orchestration event; stdout totals count the subagent too', async () => {
    const { stdout, session } = await readPair('gemini', 'gemini', 'subagent', files.subagent);
    const common = ['orchestration | true', 'agent | The generalist reports that notes.txt has 5 lines.'];
    expect(stdout.events.map(signature)).toEqual(common);
    expect(session.events.map(signature)).toEqual(['usage', common[0], common[1], 'usage']);
    expect(session.events[1]).toEqual({
      ...stdout.events[0],
      timestamp: expect.any(String),
    });
    // Documented: stdout's result.stats count the subagent's two responses (4012 + 4115 tokens) and its two calls.
    expect(session.metrics.tokens).toEqual({ input: 12100, cache_read: 0, output: 45 });
    expect(stdout.metrics.tokens).toEqual({ input: 20200, cache_read: 0, output: 72 });
    expect(stdout.metrics.tool_calls).toBe(3);
    expect(session.metrics.tool_calls).toBeUndefined();
  });

  test('subagent: its own file read on its own gives its calls', async () => {
    const { session } = await readPair('gemini', 'gemini', 'subagent', files.child);
    // complete_task is not in the tool table: unknown, as stdout would give it.
    expect(session.events.map(signature)).toEqual([
      'usage',
      'command | wc -l notes.txt',
      'usage',
      'unknown undefined/',
    ]);
    expect(session.events[0]!.session_id).toBe('2c1841db-b354-4bd4-a5b4-e55e7eb8bf3a');
    expect(session.metrics.tokens).toEqual({ input: 8100, cache_read: 0, output: 27 });
  });

  test('error-http-400: the file has the prompt and no error; only stdout has the API error', async () => {
    const { stdout, session } = await readPair('gemini', 'gemini', 'error-http-400', files['error-http-400']);
    expect(stdout.events.map(signature)).toEqual(['error | unknown']);
    expect(session.events).toEqual([]);
    // The last $set replaces the message list with the context alone (the failed prompt dropped): nothing to emit.
    expect(session.metrics.input.rules).toMatchObject({ '$set:messages': 2, 'user:consumed': 1 });
    expect(stdout.metrics.is_error).toBe(true);
    expect(session.metrics.is_error).toBeUndefined();
  });

  const resumed = [
    'reasoning | **Planning the greeting** The user wants a short hello.',
    'reasoning | I will answer in one sentence.',
    'agent | Hello from the lab!',
    'usage',
    'agent | Goodbye from the lab!',
    'usage',
  ];

  test('text-thoughts-resume: both runs in one file; the restored history gives nothing twice', async () => {
    const { stdout, session } = await readPair(
      'gemini',
      'gemini',
      'text-thoughts-resume',
      files['text-thoughts-resume'],
      ['stdout.jsonl', 'stdout.2.jsonl'],
    );
    expect(stdout.events.map(signature)).toEqual(['agent | Hello from the lab!', 'agent | Goodbye from the lab!']);
    // Documented: the thoughts are only in the file.
    expect(session.events.map(signature)).toEqual(resumed);
    expect(session.metrics.input.rules).toMatchObject({ 'metadata:header': 2, '$set:messages': 3 });
    // Documented: the file's usage covers both runs; stdout's totals are the last run's result.stats.
    expect(session.metrics.tokens).toEqual({ input: 1204, cache_read: 9296, output: 20, reasoning: 37 });
    expect(stdout.metrics.tokens).toEqual({ input: 100, cache_read: 5200, output: 8 });
    expect(session.metrics.final_output).toBe('Goodbye from the lab!');
  });

  test('text-thoughts-resume-later: the main file and the later one are read together, the same events', async () => {
    const { stdout, session } = await readPair(
      'gemini',
      'gemini',
      'text-thoughts-resume-later',
      files['text-thoughts-resume-later'],
      ['stdout.jsonl', 'stdout.2.jsonl'],
    );
    expect(stdout.events.map(signature)).toEqual(['agent | Hello from the lab!', 'agent | Goodbye from the lab!']);
    expect(session.events.map(signature)).toEqual(resumed);
    // 12 lines of the first file and the later file's two (its metadata and context).
    expect(session.metrics.input.lines).toBe(14);
    expect(session.metrics.input.rules).toMatchObject({ 'metadata:header': 2 });
    expect(session.metrics.tokens).toEqual({ input: 1204, cache_read: 9296, output: 20, reasoning: 37 });
  });
});

describe('findSessions on a Gemini capture home', () => {
  const homes: string[] = [];
  afterEach(() => homes.splice(0).forEach((home) => rmSync(home, { recursive: true, force: true })));

  const past = new Date('2026-12-01T21:00:00Z');

  /** The capture's sessions, its files made old; `moved`: found through GEMINI_CLI_HOME, the home given elsewhere. */
  async function listed(scenario: string, paths: string[], moved = false): Promise<SessionEntry[]> {
    const home = copyHome('gemini', scenario);
    homes.push(home);
    for (const path of paths) utimesSync(join(home, path), past, past);
    const found: SessionEntry[] = [];
    const options = moved ? { home: join(home, 'nowhere'), env: { GEMINI_CLI_HOME: home } } : { home };
    for await (const entry of findSessions({ ...options, harness: 'gemini' })) found.push(entry);
    return found;
  }

  const entry = (home: string, path: string, fields: Partial<SessionEntry>): SessionEntry => ({
    harness: 'gemini',
    id: '',
    path: join(home, path),
    cwd: '/home/user/project',
    updated: '',
    bytes: 0,
    live: false,
    subagents: [],
    ...fields,
  });

  const cases: [string, string[], (home: string) => Partial<SessionEntry>][] = [
    [
      'file-tools',
      [files['file-tools']],
      () => ({
        id: 'fefd50be-7889-48e6-b717-0a4f4e0404a8',
        started: '2026-12-01T19:59:26.648Z',
        updated: '2026-12-01T19:59:27.094Z',
        bytes: 14901,
      }),
    ],
    [
      'tool-errors',
      [files['tool-errors']],
      () => ({
        id: '55ae490e-2836-45a0-b3a3-fcf8f36b219b',
        started: '2026-12-01T19:59:30.884Z',
        updated: '2026-12-01T19:59:31.227Z',
        bytes: 13579,
      }),
    ],
    [
      'error-http-400',
      [files['error-http-400']],
      () => ({
        id: '78fb7c80-e3bf-4dc7-97a2-335ea6bdce3e',
        started: '2026-12-01T19:59:38.865Z',
        updated: '2026-12-01T19:59:38.950Z',
        bytes: 2243,
      }),
    ],
    [
      'text-thoughts-resume',
      [files['text-thoughts-resume']],
      () => ({
        id: '39f301d0-1558-485c-a9fd-a1d415c9a4e7',
        started: '2026-12-01T19:59:43.024Z',
        updated: '2026-12-01T19:59:47.519Z',
        bytes: 4944,
      }),
    ],
  ];

  test.each(cases)('%s: the one session, with the project root as its cwd', async (scenario, paths, fields) => {
    const found = await listed(scenario, paths);
    const home = homes[0]!;
    expect(found).toEqual([entry(home, paths[0]!, fields(home))]);
  });

  test('subagent: one session, its subagent listed with it, not as a run of its own', async () => {
    const found = await listed('subagent', [files.subagent, files.child]);
    const home = homes[0]!;
    expect(found).toEqual([
      entry(home, files.subagent, {
        id: 'eb6ebba4-dc60-4b9f-9b19-cffdd1bd31a6',
        started: '2026-12-01T19:59:34.313Z',
        updated: '2026-12-01T19:59:34.731Z',
        bytes: 3993 + 3099,
        subagents: [{ id: '2c1841db-b354-4bd4-a5b4-e55e7eb8bf3a', path: join(home, files.child), bytes: 3099 }],
      }),
    ]);
  });

  test('text-thoughts-resume-later: two files of one session id are one session, the later file a part', async () => {
    const found = await listed('text-thoughts-resume-later', [files['text-thoughts-resume-later'], files.later]);
    const home = homes[0]!;
    expect(found).toEqual([
      entry(home, files['text-thoughts-resume-later'], {
        id: 'a79f08ff-12b1-4f45-aae2-e32bf22dd7f6',
        started: '2026-12-01T20:06:05.929Z',
        // The continuation is appended to the first file: its last time is the session's.
        updated: '2026-12-01T20:07:11.161Z',
        bytes: 4149 + 1143,
        parts: [join(home, files.later)],
      }),
    ]);
  });

  test('GEMINI_CLI_HOME replaces the home the chats are under', async () => {
    const found = await listed('file-tools', [files['file-tools']], true);
    expect(found.map((session) => session.path)).toEqual([join(homes[0]!, files['file-tools'])]);
  });

  test('a file being written is live', async () => {
    const found = await listed('file-tools', []);
    expect(found.map((session) => session.live)).toEqual([true]);
  });
});
