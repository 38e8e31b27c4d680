/**
 * Approvals routed to the caller (`permissions: 'ask'`, docs/library.md "Approvals") on the real Claude Code and Qwen
 * Code with a scripted model: a denied call, an allowed one, one allowed with a rewritten input, a session grant, a
 * subagent's request, a run aborted while a request is pending, a throwing callback; each checked on the workspace,
 * the trace's permission records and the result's counts.
 */
import { existsSync } from 'node:fs';
import { describe, expect, inject, test } from 'vitest';
import type { TraceRecord, TraceRecordOf } from '../lib/kernel/trace.js';
import { permissions, runAsk, warnings, type AskCase, type AskRun } from './approvals.js';
import { liveHarnesses } from './harnesses.js';

const rows = inject('liveRows');
const both = ['claude-code', 'qwen'] as const;
const DENIED = 'Not this one: the live test denies it.';
const SUBAGENT = 'SUBAGENT-TASK';

function commands(records: readonly TraceRecord[]): { command: string; is_success?: boolean }[] {
  return records.flatMap((r) =>
    r.kind === 'event' && r.event.type === 'command'
      ? [{ command: r.event.command, is_success: r.event.is_success }]
      : [],
  );
}

/** A case's own checks. */
type Check = (run: AskRun, row: string) => void;

const cases: (AskCase & { check: Check })[] = [
  {
    name: 'a denied call: the message reaches the model, nothing runs',
    rows: both,
    prompt: 'Create denied.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch denied.txt')] }, { text: 'It was denied.' }],
    onPermission: () => () => ({ deny: DENIED }),
    check(run) {
      expect(run.changed).toEqual([]);
      const call_id = run.asked[0]!.call_id;
      expect(run.asked.map(({ kind, command }) => ({ kind, command }))).toEqual([
        { kind: 'command', command: 'touch denied.txt' },
      ]);
      expect(permissions(run.records)).toEqual([
        expect.objectContaining({ kind: 'permission_requested', call_id, tool_kind: 'command' }),
        { kind: 'permission_resolved', call_id, outcome: 'denied', by: 'caller', message: DENIED },
      ]);
      expect(warnings(run.records, 'permission_denied')).toHaveLength(1);
      // The model's next request carries the message.
      const last = run.requests.filter((r) => r.outcome === 'served').at(-1);
      expect(JSON.stringify(last?.body)).toContain(DENIED);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    },
  },
  {
    name: 'an allowed call runs',
    rows: both,
    prompt: 'Create allowed.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch allowed.txt')] }, { text: 'Done.' }],
    onPermission: () => () => ({ allow: 'once' }),
    check(run) {
      expect(run.changed).toEqual(['allowed.txt']);
      const call_id = run.asked[0]!.call_id;
      expect(permissions(run.records).at(-1)).toEqual({
        kind: 'permission_resolved',
        call_id,
        outcome: 'allowed',
        by: 'caller',
        scope: 'once',
      });
      expect(commands(run.records)).toEqual([{ command: 'touch allowed.txt', is_success: true }]);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
    },
  },
  {
    name: 'an allowed call with a rewritten input: the rewritten one runs',
    rows: ['claude-code'],
    prompt: 'Create asked.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch asked.txt')] }, { text: 'Done.' }],
    onPermission: () => (request) => ({
      allow: 'once',
      input: { ...(request.input as object), command: 'touch rewritten.txt' },
    }),
    check(run) {
      expect(run.changed).toEqual(['rewritten.txt']);
      expect(permissions(run.records).at(-1)).toMatchObject({ outcome: 'allowed', rewritten: true });
    },
  },
  {
    name: 'a session grant: the same call later runs unasked',
    rows: ['claude-code'],
    prompt: 'Create s.txt twice with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch s.txt')] }, { tools: [r.shell('touch s.txt')] }, { text: 'Done.' }],
    onPermission: () => (request) => {
      expect(request.scopes).toContain('session');
      return { allow: 'session' };
    },
    check(run) {
      expect(run.asked).toHaveLength(1);
      expect(run.changed).toEqual(['s.txt']);
      expect(commands(run.records)).toEqual([
        { command: 'touch s.txt', is_success: true },
        { command: 'touch s.txt', is_success: true },
      ]);
      const resolved = permissions(run.records).filter((r) => r.kind === 'permission_resolved') as Partial<
        TraceRecordOf<'permission_resolved'>
      >[];
      expect(resolved[0]).toMatchObject({ outcome: 'allowed', by: 'caller', scope: 'session' });
      // The second call's decision, as Claude reports it: its rule, not the caller.
      expect(resolved[1]).toMatchObject({ outcome: 'allowed' });
      expect(resolved[1]!.by).not.toBe('caller');
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
    },
  },
  {
    name: 'a session grant Qwen cannot express is refused loudly and denied',
    rows: ['qwen'],
    prompt: 'Create s.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch s.txt')] }, { text: 'Done.' }],
    onPermission: () => () => ({ allow: 'session' }),
    check(run) {
      expect(run.asked[0]!.scopes).toEqual(['once']);
      expect(run.changed).toEqual([]);
      expect(warnings(run.records, 'permission_answer')).toHaveLength(1);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    },
  },
  {
    name: 'a rewritten input Qwen would not run is refused loudly and denied',
    rows: ['qwen'],
    prompt: 'Create asked.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch asked.txt')] }, { text: 'Done.' }],
    onPermission: () => (request) => ({
      allow: 'once',
      input: { ...(request.input as object), command: 'touch rewritten.txt' },
    }),
    check(run) {
      expect(run.changed).toEqual([]);
      expect(warnings(run.records, 'permission_answer')[0]).toContain('this agent cannot run a rewritten input');
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    },
  },
  {
    name: "a subagent's request carries its agent_id",
    rows: ['claude-code'],
    prompt: 'Hand a task to a subagent.',
    conversations: (_p, r) => [
      {
        name: 'subagent',
        match: { user: SUBAGENT },
        turns: [{ tools: [r.shell('touch sub.txt')] }, { text: 'Subagent done.' }],
      },
    ],
    turns: () => [
      {
        tools: [
          {
            name: 'Agent',
            input: {
              description: 'Touch a file',
              prompt: `${SUBAGENT}: create sub.txt.`,
              subagent_type: 'general-purpose',
              run_in_background: false,
            },
          },
        ],
      },
      { text: 'The subagent did it.' },
    ],
    onPermission: () => () => ({ allow: 'once' }),
    check(run) {
      expect(run.changed).toEqual(['sub.txt']);
      const shell = run.asked.find((request) => request.kind === 'command');
      expect(shell?.agent_id).toMatch(/./);
      const started = run.records.find((r) => r.kind === 'agent_started');
      const requested = permissions(run.records).find((r) => r.call_id === shell?.call_id);
      // The trace names the subagent by its own id; the request by Claude's (the agent_started's native_id).
      expect(started).toMatchObject({ native_id: shell?.agent_id });
      expect(requested?.agent_id).toBe(started?.kind === 'agent_started' ? started.agent_id : 'none');
    },
  },
  {
    name: 'a run aborted while a request is pending: nothing hangs, nothing runs',
    rows: both,
    prompt: 'Create pending.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch pending.txt')] }, { text: 'Done.' }],
    onPermission: (abort) => () => {
      abort();
      return new Promise(() => {});
    },
    check(run) {
      expect(run.result.isCanceled).toBe(true);
      expect(run.signals.map((signal) => signal.aborted)).toEqual([true]);
      expect(run.changed).toEqual([]);
      expect(permissions(run.records).at(-1)).toMatchObject({ outcome: 'withdrawn', by: 'caller' });
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 0 });
    },
  },
  {
    name: 'a throwing callback denies',
    rows: both,
    prompt: 'Create thrown.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch thrown.txt')] }, { text: 'Denied.' }],
    onPermission: () => () => {
      throw new Error('policy engine down');
    },
    check(run) {
      expect(run.changed).toEqual([]);
      expect(warnings(run.records, 'permission_answer')[0]).toContain('policy engine down');
      expect(permissions(run.records).at(-1)).toMatchObject({ outcome: 'denied', by: 'caller' });
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    },
  },
];

for (const row of liveHarnesses.filter((r) => (both as readonly string[]).includes(r.id))) {
  const cli = rows[row.id];
  if (!cli) continue;
  describe.concurrent(`approvals: ${row.id} (${cli.cli.pkg}@${cli.version})`, () => {
    for (const scripted of cases.filter((c) => c.rows.includes(row.id))) {
      test(scripted.name, async () => {
        await runAsk(row, cli, scripted, (run) => {
          const context = `${row.id} / ${scripted.name}:\n${run.records.map((r) => JSON.stringify(r)).join('\n')}`;
          expect(
            run.requests.filter((r) => r.outcome === 'unexpected'),
            context,
          ).toEqual([]);
          expect(run.leftovers, context).toEqual([]);
          try {
            scripted.check(run, row.id);
          } catch (error) {
            (error as Error).message += `\n${context}`;
            throw error;
          }
          expect(existsSync(run.place.workspace)).toBe(true);
        });
      });
    }
  });
}
