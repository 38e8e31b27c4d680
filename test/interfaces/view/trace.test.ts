/** The live view given the trace stream: events under their agent, a call's duration on its first event. */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, test } from 'vitest';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { prettyPrint } from '../../../lib/interfaces/view/pretty.js';
import { eventsOfTrace, savedTrace } from '../saved-trace.js';

const cwd = '/home/user/project';

async function view(records: unknown[]): Promise<string[]> {
  const out = await text(Readable.from(records).pipe(prettyPrint({ cwd })));
  return out.split('\n');
}

describe('prettyPrint on a trace', () => {
  test(
    "Claude Code's subagent: the subagent's read inside its bracket with the duration of its harness times; the " +
      'events as the plain view draws them otherwise',
    async () => {
      const records = savedTrace('claude-code-subagent');
      const lines = await view(records);
      expect(lines).toEqual([
        '● Delegating to a subagent.',
        '┌ subagent general-purpose started',
        // 02:06:52.346 (its tool_use's line) to 02:06:52.388 (its tool_result's line).
        '│ ◂ read README.md · 42ms',
        '└ subagent general-purpose completed',
        '● The subagent reports that the first line of the README is "# Demo project".',
        '■ 5 events in 18ms · 1 file read · 0 written · 0 commands failed',
        '',
      ]);
      // The plain events draw the same but for the duration.
      const plain = await view(eventsOfTrace(records));
      expect(plain).toEqual(lines.map((line) => line.replace(' · 42ms', '')));
    },
  );

  test("OpenCode's task: the call's duration from its late start (the harness's) on the event it gave", async () => {
    const lines = await view(savedTrace('opencode-task-subagent'));
    expect(lines.slice(0, 2)).toEqual(['● Delegating the search.', '└ subagent explore completed · 1.4s']);
  });

  test(
    "an event is drawn under its own agent, not under every subagent open beside it (a background agent's " +
      'parent goes on); an observed duration says so; a call without a known start shows none',
    async () => {
      const at = (second: number, source: 'harness' | 'observed' = 'observed') => ({
        at: `2026-11-30T03:00:0${second}.000Z`,
        at_source: source,
      });
      const event = (seq: number, path: string, ids: object) => ({
        kind: 'event',
        seq,
        event: { type: 'read', timestamp: '2026-11-30T03:00:00.000Z', path: `${cwd}/${path}` },
        ...ids,
      });
      const records: TraceRecord[] = [
        { kind: 'agent_started', agent_id: 'bg', background: true, ...at(0) },
        {
          kind: 'event',
          seq: 1,
          event: {
            type: 'orchestration',
            timestamp: '2026-11-30T03:00:00.000Z',
            action: 'subagent_started',
            subagent_id: 'bg',
            subagent_name: 'explore',
          },
        },
        { kind: 'call_started', call_id: 'r1', tool: 'Read', agent_id: 'bg', ...at(1) },
        { kind: 'call_ended', call_id: 'r1', status: 'completed', agent_id: 'bg', ...at(3) },
        event(2, 'a.ts', { call_id: 'r1', agent_id: 'bg' }),
        event(3, 'a.ts', { call_id: 'r1', agent_id: 'bg' }),
        { kind: 'call_started', call_id: 'r2', tool: 'Read', ...at(4), late: true },
        { kind: 'call_ended', call_id: 'r2', status: 'completed', ...at(4) },
        event(4, 'b.ts', { call_id: 'r2' }),
        { kind: 'call_started', call_id: 'r3', tool: 'Read', ...at(5, 'harness') },
        { kind: 'call_ended', call_id: 'r3', status: 'completed', ...at(6) },
        event(5, 'c.ts', { call_id: 'r3' }),
      ] as TraceRecord[];
      expect((await view(records)).slice(0, 5)).toEqual([
        '┌ subagent explore started',
        '│ ◂ read a.ts · 2.0s observed',
        // Once per call: its first event.
        '│ ◂ read a.ts',
        // The root's, while the background agent runs: the plain view would draw it inside the bracket.
        '◂ read b.ts',
        // Started on the harness's clock, ended on the library's: no duration.
        '◂ read c.ts',
      ]);
    },
  );
});
