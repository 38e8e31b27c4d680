/** The report's figures, computed from real captures and checked by hand against them. */
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { buildReport, parseMetrics } from '../../../lib/interfaces/report/index.js';
import { runFixture } from '../../helpers.js';
import { retimed } from '../view/fixtures.js';

const cwd = '/home/user/project';

describe('buildReport', () => {
  test('summary, files, commands and problems of a Claude Code run with its metrics (bash.jsonl)', async () => {
    const { events, metrics } = await runFixture('claude-code/lab/bash.jsonl', { harness: 'claude-code', cwd });
    const report = buildReport(retimed(events, 100), { metrics, cwd });
    expect(report.summary).toEqual({
      harness: 'claude-code',
      session_id: '340fec0a-7678-4804-ab9b-ba01b4a4a826',
      cwd,
      started: '2026-11-30T03:00:00.000Z',
      finished: '2026-11-30T03:00:01.000Z',
      duration_ms: 951,
      duration_from: 'harness',
      tokens: { input: 1320, output: 275, cache_read: 0, cache_write: 0, reasoning: 0 },
      total_tokens: undefined,
      cost: 0.01078,
      turns: 11,
      exit: undefined,
      outcome: 'succeeded',
      events: 11,
      types: { read: 4, search: 1, list: 2, command: 3, agent: 1 },
      // notes.txt twice: once in the project, once in src where the shell had moved (claude-code.md Shell directory).
      files_read: 4,
      files_written: 0,
      commands: 3,
      commands_failed: 1,
    });
    expect(report.files).toEqual([
      { path: '/home/user/project/README.md', reads: 1, writes: 0, failed: 0 },
      { path: '/home/user/project/notes.txt', reads: 1, writes: 0, failed: 0 },
      { path: '/home/user/project/src/a.ts', reads: 1, writes: 0, failed: 0 },
      { path: '/home/user/project/src/notes.txt', reads: 1, writes: 0, failed: 0 },
    ]);
    const src = '/home/user/project/src';
    expect(report.commands).toEqual([
      { index: 6, command: 'false', exit_code: undefined, working_directory: src, failed: true },
      { index: 7, command: 'echo hi > out.txt', exit_code: undefined, working_directory: src, failed: false },
      { index: 9, command: 'pwd', exit_code: undefined, working_directory: src, failed: false },
    ]);
    expect(report.problems).toEqual([6]);
  });

  test(
    'without metrics: the session from the events, tokens and cost from usage events, duration first to last ' +
      'event (OpenCode shell.jsonl)',
    async () => {
      const { events } = await runFixture('opencode/lab/shell.jsonl', { harness: 'opencode', cwd });
      const { summary, commands } = buildReport(retimed(events, 50));
      expect(summary).toMatchObject({
        harness: undefined,
        session_id: 'ses_dd5c6f53affeEyQjLv5WmhYG50',
        duration_ms: 850,
        duration_from: 'events',
        tokens: { input: 10_800, output: 360, cache_read: 0, cache_write: 0, reasoning: 0 },
        cost: 0,
        turns: undefined,
        outcome: 'no errors reported',
        commands: 3,
        commands_failed: 1,
      });
      expect(
        commands.map((command) => [command.command, command.exit_code, command.working_directory, command.failed]),
      ).toEqual([
        // No workdir: the run's directory (opencode.md, bash's workdir).
        ['false', 1, '/home/user/project', true],
        ['echo hi > out.txt', 0, '/home/user/project', false],
        ['pwd && ls', 0, '/home/user/project/src', false],
      ]);
    },
  );

  test(
    'how the run ended: the exit code and signal from ' + 'the metrics, else the ending error a spawned run emits',
    async () => {
      const { events, metrics } = await runFixture('claude-code/lab/errors-max-turns.jsonl', {
        harness: 'claude-code',
      });
      const exited: HarnessEvent = {
        type: 'error',
        timestamp: events.at(-1)!.timestamp,
        code: 'exit_code',
        message: 'claude exited with code 1',
      };
      expect(buildReport([...events, exited], { metrics: { ...metrics, exit_code: 1 } }).summary).toMatchObject({
        exit: 'exit 1',
        outcome: 'failed',
      });
      expect(buildReport([...events, exited], { metrics: { ...metrics, signal: 'SIGTERM' } }).summary.exit).toBe(
        'signal SIGTERM',
      );
      expect(buildReport([...events, exited]).summary).toMatchObject({
        exit: 'claude exited with code 1',
        outcome: 'failed',
      });
      // The run contract's other endings explain it the same way (docs/run-contract.md).
      const timedOut: HarnessEvent = { ...exited, code: 'timeout', message: 'claude ran for longer than timeoutMs' };
      expect(buildReport([...events, timedOut]).summary).toMatchObject({
        exit: 'claude ran for longer than timeoutMs',
        outcome: 'failed',
      });
      expect(buildReport(events, { metrics: { ...metrics, is_error: false, ended: false } }).summary.outcome).toBe(
        'failed',
      );
      const { events: clean, metrics: cleanMetrics } = await runFixture('claude-code/lab/read.jsonl', {
        harness: 'claude-code',
      });
      expect(
        buildReport(clean, { metrics: { ...cleanMetrics, ended: false, is_error: undefined } }).summary.outcome,
      ).toBe('incomplete');
    },
  );

  test(
    'a failed read and a failed write count as ' + 'problems, and their files as failed, not as read or written',
    async () => {
      const { events } = await runFixture('claude-code/lab/write-edit.jsonl', { harness: 'claude-code', cwd });
      const report = buildReport(events, { cwd });
      expect(report.files.find((file) => file.path.endsWith('src/add.ts'))).toEqual({
        path: '/home/user/project/src/add.ts',
        reads: 0,
        writes: 2,
        failed: 1,
      });
      expect(report.problems.map((index) => report.events[index]!.type)).toEqual(['write']);
      expect(report.summary).toMatchObject({ files_read: 1, files_written: 3 });
    },
  );
});

describe('the timeline', () => {
  test(
    'a subagent is one span from its start to its end; other events are points; lanes in the contract order ' +
      '(Codex subagent.jsonl)',
    async () => {
      const { events } = await runFixture('codex/lab/subagent.jsonl', { harness: 'codex' });
      const { timeline } = buildReport(retimed(events, 250));
      expect(timeline).toEqual({
        axis: 'time',
        span_ms: 1000,
        lanes: ['agent', 'orchestration', 'usage'],
        items: [
          { type: 'agent', index: 0, from: 0, to: 0, failed: false },
          { type: 'orchestration', index: 1, end_index: 2, from: 0.25, to: 0.5, failed: false },
          { type: 'agent', index: 3, from: 0.75, to: 0.75, failed: false },
          { type: 'usage', index: 4, from: 1, to: 1, failed: false },
        ],
      });
    },
  );

  test(
    'system stages pair on their stage; a subagent that fails ends its span as failed; one never ended stays a ' +
      'point',
    () => {
      const at = (second: number) => `2026-11-30T03:00:0${second}.000Z`;
      const events: HarnessEvent[] = [
        { type: 'system', timestamp: at(0), stage: 'probe_harness', status: 'started', message: 'probing' },
        { type: 'system', timestamp: at(1), stage: 'probe_harness', status: 'completed', message: 'claude 2.1.0' },
        { type: 'orchestration', timestamp: at(2), action: 'subagent_started', subagent_id: 'a' },
        { type: 'orchestration', timestamp: at(3), action: 'subagent_started', subagent_id: 'b' },
        { type: 'orchestration', timestamp: at(4), action: 'subagent_failed', subagent_id: 'a' },
      ];
      expect(buildReport(events).timeline.items).toEqual([
        { type: 'system', index: 0, end_index: 1, from: 0, to: 0.25, failed: false },
        { type: 'orchestration', index: 2, end_index: 4, from: 0.5, to: 1, failed: true },
        { type: 'orchestration', index: 3, from: 0.75, to: 0.75, failed: false },
      ]);
    },
  );

  test('events all observed in one millisecond (a file normalized at once) are placed in order', () => {
    const events: HarnessEvent[] = ['a', 'b', 'c'].map((message) => ({
      type: 'agent',
      timestamp: '2026-11-30T03:00:00.000Z',
      message,
    }));
    const { timeline } = buildReport(events);
    expect(timeline.axis).toBe('order');
    expect(timeline.items.map((item) => item.from)).toEqual([0, 0.5, 1]);
  });
});

describe('parseMetrics', () => {
  test('a metrics file as normalize wrote it; anything else says what is wrong', async () => {
    const { metrics } = await runFixture('claude-code/lab/read.jsonl', { harness: 'claude-code' });
    expect(parseMetrics(JSON.stringify(metrics))).toEqual(metrics);
    expect(parseMetrics('{')).toMatch(/JSON/);
    expect(parseMetrics('{"harness":"x"}')).toBe("metrics must have required property 'tokens'");
    expect(parseMetrics(JSON.stringify({ ...metrics, cost: 'free' }))).toBe('metrics/cost must be number');
  });
});
