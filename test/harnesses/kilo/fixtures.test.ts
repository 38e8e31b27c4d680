/**
 * Kilo on real streams (test/fixtures/kilo/lab/, see LAB.md there: Kilo 7.7.7 driven offline).
 * Every expected list below was checked by hand against docs/harnesses/kilo.md, docs/harnesses/opencode.md,
 * docs/contract.md and the raw lines. The lab ran in /home/user/project, which is the `cwd` given here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/kilo/correlate.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { ruleNames, sharedRecords } from '../../../lib/kernel/record-table.js';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import {
  bodies,
  expectLossless,
  fixtureFiles,
  fixturePath,
  parsedLines,
  runFixture,
  untimed,
  settled,
} from '../../helpers.js';

const harness = 'kilo';
const cwd = '/home/user/project';
const children = new URL('../../children/', import.meta.url).pathname;

/** The rules of lib/harnesses/kilo/correlate.ts and the ones every harness shares. */
const kiloRules = ruleNames(sharedRecords, records);

type Line = { type?: string; sessionID?: string; part?: { tool?: string } };

function step(input: number, output: number, cache_read: number, cost: number) {
  return { type: 'usage', tokens: { input, output, reasoning: 0, cache_read, cache_write: 0 }, cost };
}

describe('every Kilo fixture', () => {
  // Every capture also has its exact events below, which is where text, tools and usage are checked.
  for (const file of fixtureFiles('kilo')) {
    test(`${file}: strict, lossless, one session, a turn per step`, async () => {
      const result = await runFixture(file, { harness, cwd });
      expectLossless(result, file, kiloRules);
      const lines = parsedLines(file) as (Line | undefined)[];
      // The session is the first line's sessionID, and every event carries it.
      expect(result.events.every((e) => 'session_id' in e && e.session_id === lines[1]!.sessionID)).toBe(true);
      expect(result.metrics.turns).toBe(lines.filter((line) => line?.type === 'step_finish').length || undefined);
    });
  }
});

describe('exact events of the lab captures (Kilo 7.7.7)', () => {
  test(
    'shell.jsonl: four bash reclassified; cat a.ts in workdir src reads src/a.ts (difference 2); exit 3 fails a ' +
      'completed call',
    async () => {
      const file = 'kilo/lab/shell.jsonl';
      const { events, metrics } = await runFixture(file, { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Inspecting with the shell.' },
        { type: 'read', path: '/home/user/project/README.md', is_success: true },
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
        { type: 'list', path: '/home/user/project/src', is_success: true },
        { type: 'search', query: 'greet', path: '/home/user/project/src', is_success: true },
        step(1500, 50, 0, 0.00525),
        { type: 'read', path: '/home/user/project/src/a.ts', is_success: true },
        step(400, 20, 1400, 0.00192),
        {
          type: 'command',
          command: "node -e 'process.exit(3)'",
          // No workdir: the run's directory (difference 2).
          working_directory: '/home/user/project',
          exit_code: 3,
          is_success: false,
        },
        step(200, 20, 1700, 0.00141),
        { type: 'agent', message: 'The sources look fine, but the check script exits with status 3.' },
        step(200, 20, 1800, 0.00144),
      ]);
      expect(metrics).toMatchObject({
        harness,
        session_id: 'ses_dd0c2eeb1ffeZ5FfHcY5WHDlD0',
        tokens: { input: 2300, output: 110, reasoning: 0, cache_read: 4900, cache_write: 0 },
        turns: 4,
        final_output: 'The sources look fine, but the check script exits with status 3.',
        input: { bytes: readFileSync(fixturePath(file)).length, lines: 16 },
      });
      expect(metrics.cost).toBeCloseTo(0.01002, 10);
      expect(metrics.is_error).toBeUndefined();
      expect(metrics.ended).toBeUndefined();
    },
  );

  test(
    'files.jsonl: reasoning first, a ranged read (offset 2, limit 2), glob and grep with paths, a relative ' +
      'write; costs add up',
    async () => {
      const { events, metrics } = await runFixture('kilo/lab/files.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'Read part of the notes, then search.' },
        { type: 'agent', message: 'Reading lines 2-3 of notes.txt.' },
        { type: 'read', path: '/home/user/project/notes.txt', start_line: 2, end_line: 3, is_success: true },
        step(3000, 35, 0, 0.009525),
        { type: 'search', query: '**/*.ts', path: '/home/user/project/src', is_success: true },
        { type: 'search', query: 'greet\\(', path: '/home/user/project/src', is_success: true },
        step(400, 40, 2900, 0.00267),
        // Completion order: the edit finished before the write.
        { type: 'write', path: '/home/user/project/notes.txt', is_success: true },
        { type: 'write', path: '/home/user/project/docs/guide.md', is_success: true },
        step(400, 60, 3200, 0.00306),
        {
          type: 'agent',
          message: 'greet( is called in src/b.ts; docs/guide.md is written and the magic word is now mango.',
        },
        step(400, 30, 3500, 0.0027),
      ]);
      expect(metrics.tokens).toEqual({ input: 4200, output: 165, reasoning: 0, cache_read: 9600, cache_write: 0 });
      expect(metrics.cost).toBeCloseTo(0.017955, 10);
    },
  );

  test(
    'task-skill.jsonl: the skill file from metadata.dir, the task as a completed subagent, todowrite consumed, ' +
      'kilo_local_recall unknown',
    async () => {
      const file = 'kilo/lab/task-skill.jsonl';
      const { events } = await runFixture(file, { harness, cwd });
      const lines = parsedLines(file) as { part: unknown }[];
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Loading the release-notes skill.' },
        {
          type: 'skill',
          path: '/home/user/project/.kilo/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        step(1500, 40, 0, 0.0051),
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'ses_dd0c25d83ffeTgiebhct19kOko',
          subagent_name: 'explore',
          is_success: true,
        },
        step(1700, 30, 0, 0.00555),
        { type: 'unknown', raw: lines[10]!.part },
        step(1900, 20, 0, 0.006),
        { type: 'agent', message: 'Release notes: greet(name) is exported from src/a.ts.' },
        step(2100, 20, 0, 0.0066),
      ]);
      expect((lines[10] as Line).part?.tool).toBe('kilo_local_recall');
    },
  );

  test('api-401.jsonl: a single error line, the APIError message with its name as code; the run failed', async () => {
    const { events, metrics } = await runFixture('kilo/lab/api-401.jsonl', { harness, cwd });
    expect(untimed(events)).toEqual([
      {
        type: 'error',
        session_id: 'ses_dd0c207a1ffeNGTDOr1YUea6ad',
        message: 'Incorrect API key provided: fake-key.',
        code: 'APIError',
      },
    ]);
    expect(metrics).toMatchObject({ is_error: true, tokens: {} });
    expect(metrics.turns).toBeUndefined();
  });

  test(
    'notes-tools.jsonl and text.jsonl: five steps ' + 'without prices (cost 0), 800 cached tokens in the last',
    async () => {
      const { events, metrics } = await runFixture('kilo/lab/notes-tools.jsonl', { harness, cwd });
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'I should read the notes file first.' },
        { type: 'agent', message: 'Let me read the notes.' },
        { type: 'read', path: '/home/user/project/notes.md', is_success: true },
        step(1000, 20, 0, 0),
        { type: 'search', query: 'magic', is_success: true },
        {
          type: 'command',
          command: 'ls -la && echo done',
          working_directory: '/home/user/project',
          exit_code: 0,
          is_success: true,
        },
        step(1100, 30, 0, 0),
        { type: 'write', path: '/home/user/project/notes.md', is_success: true },
        step(1200, 40, 0, 0),
        { type: 'read', path: '/home/user/project/missing.txt', is_success: false },
        step(1200, 40, 0, 0),
        { type: 'agent', message: 'The magic word was pineapple; I changed it to mango.' },
        step(500, 15, 800, 0),
      ]);
      expect(metrics).toMatchObject({ cost: 0, turns: 5 });
      const text = await runFixture('kilo/lab/text.jsonl', { harness, cwd });
      expect(bodies(text.events)).toEqual([
        { type: 'agent', message: 'Hello from the lab. The answer is 42.' },
        step(900, 12, 0, 0),
      ]);
    },
  );
});

describe('spawned (spawnHarness with a child replaying a capture)', () => {
  test(
    "api-401: the error line on stdout, its stderr (ANSI stripped) as a warning, exit 1 as the library's own " +
      'error',
    async () => {
      const steps = [
        { out: readFileSync(fixturePath('kilo/lab/api-401.jsonl'), 'utf8') },
        { err: readFileSync(fixturePath('kilo/lab/api-401.stderr.txt'), 'utf8') },
        { exit: 1 },
      ];
      const run = spawnHarness({
        harness,
        command: process.execPath,
        args: [join(children, 'script.mjs'), JSON.stringify(steps)],
      });
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      expect(bodies(events)).toEqual([
        { type: 'error', message: 'Incorrect API key provided: fake-key.', code: 'APIError' },
        { type: 'warning', code: 'stderr', message: 'Error: Incorrect API key provided: fake-key.' },
        { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
      ]);
      // Kilo has no terminal record: a run is never "incomplete".
      expect((await settled(run)).metrics).toMatchObject({ harness, exit_code: 1, is_error: true });
      expect((await settled(run)).metrics.ended).toBeUndefined();
    },
  );
});
