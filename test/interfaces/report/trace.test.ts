/** The report given a trace: the subagent tree in its timeline, each call's duration; plain events as before. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { buildReport, reportHtml, reportMarkdown } from '../../../lib/interfaces/report/index.js';
import { traceReport } from '../../../lib/interfaces/report/tree.js';
import { fixturePath } from '../../helpers.js';
import { harnessEvents } from '../../cli.js';
import { eventsOfTrace, savedTrace } from '../saved-trace.js';

const cwd = '/home/user/project';
const tmp = mkdtempSync(join(tmpdir(), 'harness-events-report-trace-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Checked by hand against the saved trace: the Agent call 02:06:52.267 to .496, the subagent's Read .346 to .388.
const treeMarkdown = `#### Agents: 2 · tool calls: 2, 0 not completed

- claude-code: 1 call
  - general-purpose \`toolu_01Agent0000001\`: completed (duration unknown: start and end on different clocks), 1 call

| Tool | Agent | Status | Duration |
|---|--:|--:|--:|
| \`Agent\` | claude-code | completed | 229ms |
| \`Read\` | general-purpose \`toolu_01Agent0000001\` | completed | 42ms |

`;

describe('traceReport', () => {
  test(
    "Claude Code's subagent: lanes in the tree's order, on the harness's clock from the Agent call's start " +
      '(02:06:52.267) to the last model call (.523); a record without a harness time placed at the one before it',
    () => {
      const { harness, agents, calls, timeline } = traceReport(savedTrace('claude-code-subagent'));
      expect(harness).toBe('claude-code');
      expect(agents.map((agent) => agent.agent_id)).toEqual([undefined, 'toolu_01Agent0000001']);
      expect(calls.map((call) => [call.tool, call.duration])).toEqual([
        ['Agent', { ms: 229, source: 'harness' }],
        ['Read', { ms: 42, source: 'harness' }],
      ]);
      expect(timeline.axis).toBe('harness');
      expect(timeline.span_ms).toBe(256);
      expect(timeline.items).toEqual([
        // The root: run_started has only the library's time, so it sits at the first harness time.
        { kind: 'agent', lane: 0, id: undefined, from: 0, to: 1, timed: true, failed: false },
        { kind: 'call', lane: 0, id: 'toolu_01Agent0000001', from: 0, to: 229 / 256, timed: true, failed: false },
        // Started on the library's clock (placed at the Agent call's start), ended at .491: no duration.
        { kind: 'agent', lane: 1, id: 'toolu_01Agent0000001', from: 0, to: 224 / 256, timed: false, failed: false },
        {
          kind: 'call',
          lane: 1,
          id: 'toolu_01SubRead00001',
          from: 79 / 256,
          to: 121 / 256,
          timed: true,
          failed: false,
        },
      ]);
    },
  );

  test('a call without a known duration is a mark at its end; a call that never ended counts as failed', () => {
    const at = (ms: number, at_source: 'harness' | 'observed' = 'observed') => ({
      at: new Date(Date.parse('2026-11-30T03:00:00.000Z') + ms).toISOString(),
      at_source,
    });
    const { timeline } = traceReport([
      { kind: 'run_started', v: 1, harness: 'codex', ...at(0) },
      { kind: 'call_started', call_id: 'a', tool: 'Read', ...at(100), late: true },
      { kind: 'call_ended', call_id: 'a', status: 'completed', ...at(100) },
      { kind: 'call_started', call_id: 'b', tool: 'Bash', ...at(200) },
      { kind: 'call_ended', call_id: 'b', status: 'unresolved', ...at(400) },
    ] as TraceRecord[]);
    expect(timeline).toMatchObject({ axis: 'observed', span_ms: 400 });
    expect(timeline.items).toEqual([
      { kind: 'agent', lane: 0, id: undefined, from: 0, to: 1, timed: false, failed: true },
      { kind: 'call', lane: 0, id: 'a', from: 0.25, to: 0.25, timed: false, failed: false },
      { kind: 'call', lane: 0, id: 'b', from: 0.5, to: 1, timed: true, failed: true },
    ]);
  });
});

describe('the report of a trace', () => {
  test('Markdown: the plain report, the harness from the trace, then the tree and the calls', () => {
    const trace = savedTrace('claude-code-subagent');
    const markdown = reportMarkdown(buildReport(trace, { cwd }));
    const plain = reportMarkdown(buildReport(eventsOfTrace(trace), { cwd }));
    expect(plain).not.toContain('#### Agents');
    expect(markdown).toBe(
      plain
        .replace('### Run report\n', '### Run report: claude-code\n')
        .replace('| Session |', '| Harness | claude-code |\n| Session |')
        .replace('#### Failures', `${treeMarkdown}#### Failures`),
    );
  });

  test('HTML: a lane per agent, the calls with their durations, the first event of each call with its own', () => {
    const html = reportHtml(buildReport(savedTrace('claude-code-subagent'), { cwd }));
    expect(html).toContain('<h3>Agents and tool calls</h3>');
    expect(html).toContain('aria-label="2 agents and 2 tool calls"');
    expect(html).toContain('<g class="lane"><title>claude-code</title>');
    expect(html).toContain('xml:space="preserve">claude-code</text></g>');
    expect(html).toContain('<g class="lane"><title>general-purpose</title>');
    expect(html).toContain('xml:space="preserve">  └ general-pur…</text></g>');
    expect(html).toContain('<title>Agent toolu_01Agent0000001 · completed in 229ms</title>');
    expect(html).toContain(
      '<a href="#e2"><rect class="tree call timed" x="378.5" y="33" width="142.7" height="12" rx="2"><title>Read ' +
        'toolu_01SubRead00001 · completed in 42ms</title></rect><text class="took" x="382.5" y="43">Read ' +
        '42ms</text></a>',
    );
    expect(html).toContain(
      '<title>general-purpose toolu_01Agent0000001 · completed (duration unknown: start and end on different ' +
        'clocks) · 1 call</title>',
    );
    expect(html).toContain('<span class="badge">read<small> · 42ms</small></span>');
    // Plain events: no tree, no durations.
    const plain = reportHtml(buildReport(eventsOfTrace(savedTrace('claude-code-subagent')), { cwd }));
    expect(plain).not.toContain('Agents and tool calls');
    expect(plain).toContain('<span class="badge">read</span>');
  });

  test("what the harness named is inert: an agent's name and a tool's in HTML and Markdown", () => {
    const at = { at: '2026-11-30T03:00:00.000Z', at_source: 'harness' as const };
    const hostile = '</title><script>alert(1)</script>|**x**';
    const records = [
      { kind: 'run_started', v: 1, harness: 'claude-code', ...at },
      { kind: 'agent_started', agent_id: 'a`b', name: hostile, ...at },
      { kind: 'call_started', call_id: 'c', tool: hostile, agent_id: 'a`b', ...at },
      { kind: 'call_ended', call_id: 'c', status: 'completed', agent_id: 'a`b', ...at },
    ] as TraceRecord[];
    const report = buildReport(records);
    const html = reportHtml(report);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;|**x** c · completed in 0ms');
    const markdown = reportMarkdown(report);
    expect(markdown).toContain(
      '  - \\</title\\>\\<script\\>alert(1)\\</script\\>\\|\\*\\*x\\*\\* ``a`b``: running, 1 call',
    );
    expect(markdown).toContain('| `</title><script>alert(1)</script>\\|**x**` |');
  });
});

describe('the CLI given a trace file', () => {
  test('report --format md and view: the same as from the records in process', async () => {
    const file = fixturePath('trace/claude-code-subagent.jsonl');
    const report = await harnessEvents(['report', '--cwd', cwd, '--format', 'md', file]);
    expect(report).toEqual({
      code: 0,
      stderr: '',
      stdout: reportMarkdown(buildReport(savedTrace('claude-code-subagent'), { cwd })),
    });
    const view = await harnessEvents(['view', '--cwd', cwd, file]);
    expect(view.stdout).toContain('│ ◂ read README.md · 42ms\n');
  });

  test('a bad line in a trace file is a warning in the report, not a failure', async () => {
    const file = join(tmp, 'bad.trace.jsonl');
    const lines = savedTrace('claude-code-subagent').map((record) => JSON.stringify(record));
    writeFileSync(file, [...lines.slice(0, 3), '{"kind":"nonsense"}', ...lines.slice(3)].join('\n') + '\n');
    const { code, stdout } = await harnessEvents(['report', '--format', 'md', file]);
    expect(code).toBe(0);
    expect(stdout).toContain('- ! invalid\\_event: line 4 is not a trace record');
    expect(stdout).toContain('| `Read` | general-purpose `toolu_01Agent0000001` | completed | 42ms |');
  });
});
