/** The pretty printer's pure part: events from real captures in, the exact lines out. */
import picocolors from 'picocolors';
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { RunSummary } from '../../../lib/interfaces/summary.js';
import { duration, formatEvent, formatStatus, formatSummary } from '../../../lib/interfaces/view/format.js';
import { readable } from '../../../lib/interfaces/view/invisible.js';
import { Nesting } from '../../../lib/interfaces/view/nesting.js';
import type { HarnessName } from '../../../lib/index.js';
import { runFixture } from '../../helpers.js';
import { readJsonlLines } from './fixtures.js';

const plain = picocolors.createColors(false);
const color = picocolors.createColors(true);
const cwd = '/home/user/project';

async function lines(
  fixture: string,
  harness: HarnessName,
  options: { width?: number; cwd?: string } = { cwd },
): Promise<string[]> {
  const { events } = await runFixture(fixture, { harness });
  return events.flatMap((event) => formatEvent(event, { colors: plain, ...options }));
}

const at = (timestamp: string): Pick<HarnessEvent, 'timestamp'> => ({ timestamp });

describe('formatEvent on real captures', () => {
  test(
    'agent text, reads with their line ranges relative ' + 'to the cwd, a failed read (Claude Code read.jsonl)',
    async () => {
      expect(await lines('claude-code/lab/read.jsonl', 'claude-code')).toEqual(readJsonlLines);
    },
  );

  test('without a cwd (or outside it) paths stay absolute', async () => {
    const [, read] = await lines('claude-code/lab/read.jsonl', 'claude-code', {});
    expect(read).toBe('◂ read /home/user/project/README.md');
    expect((await lines('claude-code/lab/read.jsonl', 'claude-code', { cwd: '/home/user/project/src' }))[1]).toBe(
      '◂ read /home/user/project/README.md',
    );
  });

  test('commands with exit codes and directories, searches, lists (OpenCode shell.jsonl)', async () => {
    const shown = (await lines('opencode/lab/shell.jsonl', 'opencode')).filter((line) => !line.startsWith('Σ'));
    expect(shown).toEqual([
      '◂ read README.md',
      '◂ read notes.txt:2-4',
      '⌕ search "hello" in .',
      '≡ list src',
      '◂ read src/a.ts',
      '$ false · exit 1',
      '$ echo hi > out.txt · exit 0',
      '$ pwd && ls · in src · exit 0',
      '● Done looking around; `false` exited with status 1.',
    ]);
  });

  test('usage events: the classes reported, zeros left out, the cost', async () => {
    expect((await lines('opencode/lab/shell.jsonl', 'opencode')).filter((line) => line.startsWith('Σ'))[0]).toBe(
      'Σ usage 1,200 input · 40 output · $0.0000',
    );
  });

  test('reasoning, a skill, a list without a path, an error with its code, a warning with its code', async () => {
    expect(await lines('claude-code/lab/thinking.jsonl', 'claude-code')).toContain(
      '∴ The user wants me to think first. I should read README.md to see what the project is.',
    );
    expect(await lines('claude-code/lab/skill.jsonl', 'claude-code')).toEqual([
      '● Using the greet skill.',
      '✦ skill greet · skills/greet/SKILL.md',
      '≡ list',
      '● Hello, Ada! The project holds README.md, notes.txt and src.',
    ]);
    expect((await lines('claude-code/lab/errors-max-turns.jsonl', 'claude-code'))[2]).toBe(
      '✖ error_max_turns: Reached maximum number of turns (1)',
    );
    expect((await lines('claude-code/lab/rate-limit-warning.jsonl', 'claude-code'))[0]).toBe(
      '! rate_limit_allowed_warning: Claude Code rate limit allowed_warning (five_hour, 91% used, resets ' +
        '2026-11-30T03:06:44.000Z)',
    );
  });

  test('a subagent: its start and end as brackets (Codex subagent.jsonl)', async () => {
    const shown = await lines('codex/lab/subagent.jsonl', 'codex');
    expect(shown).toEqual([
      '● Delegating the search to a sub-agent.',
      '┌ subagent 01a22a3b-0407-7c40-93d0-3b79de50cf58 started',
      '└ subagent 01a22a3b-0407-7c40-93d0-3b79de50cf58 completed',
      '● The sub-agent found greet defined in src/a.ts and called in src/b.ts.',
      'Σ usage 4,800 input · 160 output',
    ]);
    expect(await lines('opencode/lab/task-subagent.jsonl', 'opencode')).toContain('└ subagent explore completed');
  });

  test('an unknown event is its verbatim JSON on one line, cut at 200 characters without a width', async () => {
    const unknown = (await lines('claude-code/lab/write-edit.jsonl', 'claude-code')).find((line) =>
      line.startsWith('?'),
    )!;
    expect(
      unknown.startsWith('? unknown {"tool_use":{"type":"tool_use","id":"toolu_01ToolSearch005","name":"ToolSearch"'),
    ).toBe(true);
    expect([...unknown].length).toBe(2 + 200);
    expect(unknown.endsWith('…')).toBe(true);
  });
});

describe('wrapping to the terminal width', () => {
  test('agent text wraps at word boundaries, continuation lines under the text', async () => {
    const { events } = await runFixture('claude-code/lab/read.jsonl', { harness: 'claude-code' });
    expect(formatEvent(events[5]!, { colors: plain, cwd, width: 40 })).toEqual([
      '● The README says hello world, notes',
      '  lines 3-6 are gamma to zeta, and',
      '  missing.txt does not exist.',
    ]);
  });

  test('the lines of a message keep their indentation; a word longer than the width is broken', () => {
    const message = 'Steps:\n  1. run the tests now\n\n' + 'x'.repeat(30);
    expect(
      formatEvent({ type: 'agent', ...at('2026-01-01T00:00:00.000Z'), message }, { colors: plain, width: 20 }),
    ).toEqual(['● Steps:', '    1. run the tests', '    now', '', '  xxxxxxxxxxxxxxxxxx', '  xxxxxxxxxxxx']);
  });

  test('one-line types are cut to the width', () => {
    const event: HarnessEvent = {
      type: 'unknown',
      ...at('2026-01-01T00:00:00.000Z'),
      raw: { type: 'mystery', value: 'abcdefghijklmnopqrstuvwxyz' },
    };
    expect(formatEvent(event, { colors: plain, width: 30 })).toEqual(['? unknown {"type":"mystery","…']);
    const short: HarnessEvent = { type: 'unknown', ...at('2026-01-01T00:00:00.000Z'), raw: 1234 };
    expect(formatEvent(short, { colors: plain, width: 13 })).toEqual(['? unknown 1234']);
  });

  test('a long script shows its first nine lines, how many more, and its exit code', () => {
    const command = Array.from({ length: 14 }, (_, i) => `echo ${i + 1}`).join('\n');
    const shown = formatEvent(
      { type: 'command', ...at('2026-01-01T00:00:00.000Z'), command, exit_code: 0 },
      { colors: plain },
    );
    expect(shown).toEqual([
      '$ echo 1',
      ...Array.from({ length: 8 }, (_, i) => `  echo ${i + 2}`),
      '  … 5 more lines · exit 0',
    ]);
  });
});

describe('line ranges', () => {
  const read = (range: { start_line?: number; end_line?: number }) =>
    formatEvent(
      { type: 'read', ...at('2026-01-01T00:00:00.000Z'), path: '/p/a.ts', ...range },
      { colors: plain, cwd: '/p' },
    )[0];
  test('a range, one line, from a line on, up to a line', () => {
    expect([
      read({ start_line: 3, end_line: 6 }),
      read({ start_line: 4, end_line: 4 }),
      read({ start_line: 7 }),
      read({ end_line: 9 }),
    ]).toEqual(['◂ read a.ts:3-6', '◂ read a.ts:4', '◂ read a.ts:7-', '◂ read a.ts:1-9']);
  });
});

describe('colors', () => {
  test('each type has its symbol color; a failure is red throughout; reasoning is dim', async () => {
    const { events } = await runFixture('claude-code/lab/read.jsonl', { harness: 'claude-code' });
    expect(formatEvent(events[1]!, { colors: color, cwd })).toEqual(['\x1b[34m◂\x1b[39m read README.md']);
    expect(formatEvent(events[4]!, { colors: color, cwd })).toEqual([
      '\x1b[31m◂\x1b[39m \x1b[31mread missing.txt · failed\x1b[39m',
    ]);
    const reasoning: HarnessEvent = { type: 'reasoning', ...at('2026-01-01T00:00:00.000Z'), message: 'hmm' };
    expect(formatEvent(reasoning, { colors: color })).toEqual(['\x1b[2m∴\x1b[22m \x1b[2mhmm\x1b[22m']);
  });
});

describe('readable: text from an agent cannot drive the terminal', () => {
  test('escape sequences and other control characters become visible pictures; tabs become spaces', () => {
    expect(readable('a\x1b[2Jb\x07c\tD\r\nE\x7f\x9b')).toBe('a␛[2Jb␇c    D\nE␡\ufffd');
    const event: HarnessEvent = { type: 'agent', ...at('2026-01-01T00:00:00.000Z'), message: 'clear\x1b[2J\x1b[H' };
    expect(formatEvent(event, { colors: plain })).toEqual(['● clear␛[2J␛[H']);
  });
});

describe('Nesting: subagent brackets', () => {
  const orchestration = (
    action: 'subagent_started' | 'subagent_completed' | 'subagent_failed',
    id: string,
  ): HarnessEvent => ({
    type: 'orchestration',
    ...at('2026-01-01T00:00:00.000Z'),
    action,
    subagent_id: id,
  });
  const agent: HarnessEvent = { type: 'agent', ...at('2026-01-01T00:00:00.000Z'), message: 'm' };

  test(
    'events between a start and its end are one level deeper; subagents may end in any order; an end never ' +
      'started changes nothing',
    () => {
      const sequence = [
        orchestration('subagent_started', 'a'),
        agent,
        orchestration('subagent_started', 'b'),
        agent,
        orchestration('subagent_completed', 'a'),
        agent,
        orchestration('subagent_failed', 'b'),
        orchestration('subagent_completed', 'never-started'),
        agent,
      ];
      const nesting = new Nesting();
      const drawn: string[] = [];
      for (const event of sequence) drawn.push(...formatEvent(event, { colors: plain }, nesting.next(event)));
      expect(drawn).toEqual([
        '┌ subagent a started',
        '│ ● m',
        '│ ┌ subagent b started',
        '│ │ ● m',
        '└ subagent a completed',
        '│ ● m',
        '└ subagent b failed',
        '└ subagent never-started completed',
        '● m',
      ]);
    },
  );

  test('continuation lines carry the guides too', () => {
    expect(
      formatEvent(
        { type: 'agent', ...at('2026-01-01T00:00:00.000Z'), message: 'one two three four five six' },
        { colors: plain, width: 20 },
        1,
      ),
    ).toEqual(['│ ● one two three', '│   four five six']);
  });
});

describe('status and summary lines', () => {
  test('figures from a real capture: tokens and cost from the metrics, files read, commands failed', async () => {
    const { events, metrics } = await runFixture('claude-code/lab/bash.jsonl', { harness: 'claude-code' });
    const summary = new RunSummary();
    for (const event of events) summary.add(event);
    const totals = { tokens: 1595, cost: metrics.cost };
    expect(formatStatus(summary, totals, 12_345, plain)).toBe(
      '◷ 12.3s · 1,595 tokens · $0.0108 · 4 files read · 0 written · 1 command failed',
    );
    expect(formatSummary(summary, totals, 951, plain)).toBe(
      '■ 11 events in 951ms · 1,595 tokens · $0.0108 · 4 files read · 0 written · 1 command failed',
    );
    expect(formatStatus(summary, totals, 0, color)).toContain('\x1b[31m1 command failed\x1b[39m');
  });

  test('without tokens or cost they are left out', () => {
    expect(formatSummary(new RunSummary(), { tokens: undefined, cost: undefined }, 0, plain)).toBe(
      '■ 0 events in 0ms · 0 files read · 0 written · 0 commands failed',
    );
  });

  test('durations', () => {
    expect([0, 999, 1000, 59_949, 60_000, 3_599_000, 3_600_000, 7_380_000].map(duration)).toEqual([
      '0ms',
      '999ms',
      '1.0s',
      '59.9s',
      '1m 00s',
      '59m 59s',
      '1h 00m',
      '2h 03m',
    ]);
  });
});

describe('issue 30 item 13: Nesting draws what the array-copying nest drew, in O(log n) an event', () => {
  /** The former nest(), the reference: a copied array of open ids. */
  function reference(open: string[], event: HarnessEvent): number {
    if (event.type !== 'orchestration') return open.length;
    const id = event.subagent_id ?? '';
    if (event.action === 'subagent_started') return open.push(id) - 1;
    const at = open.lastIndexOf(id);
    if (at < 0) return open.length;
    open.splice(at, 1);
    return at;
  }

  test('5,000 random starts and ends over 40 ids (past the first 1,024 starts, where the tree grows)', () => {
    let seed = 30;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const nesting = new Nesting();
    const open: string[] = [];
    for (let n = 0; n < 5000; n++) {
      const action = random() < 0.7 ? 'subagent_started' : random() < 0.5 ? 'subagent_completed' : 'subagent_failed';
      const event = {
        type: 'orchestration',
        timestamp: '2026-12-01T00:00:00.000Z',
        action,
        subagent_id: `s${Math.floor(random() * 40)}`,
      } as HarnessEvent;
      expect(nesting.next(event)).toBe(reference(open, event));
      expect(nesting.size).toBe(open.length);
    }
    expect(open.length).toBeGreaterThan(1024);
  });
});
