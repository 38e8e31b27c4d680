/**
 * Approvals over ACP (`permissions: 'ask'`, docs/library.md "Approvals") on the real agents with a scripted model,
 * each row's facts from the library's option table (lib/harnesses/acp/approval-options.ts), which these runs measured:
 * a denied call (the workspace unchanged; the turn ends or goes on as the table says), an allowed call, a session
 * grant where the agent has one (the same call later runs unasked), a run aborted while a request is pending (the
 * callback's signal aborts, nothing runs, nothing hangs), a throwing callback (denied). Each checks the workspace, the
 * trace's permission records and the result's counts.
 */
import { describe, expect, inject, test } from 'vitest';
import { optionsFor } from '../lib/harnesses/acp/approval-options.js';
import type { TraceRecord } from '../lib/kernel/trace.js';
import { permissions, runAsk, warnings, type AskCase, type AskRun } from './approvals.js';
import { liveHarnesses, type LiveHarness } from './harnesses.js';

const rows = inject('liveRows');
/** The presets run: a few well (each case passed three runs in a row alone). */
const asking = ['claude-acp', 'copilot-acp', 'gemini-acp', 'opencode-acp', 'qwen-acp'];

/** The commands that ran, none failed (Gemini gives no success of a command: docs/harnesses/acp.md). */
function commands(records: readonly TraceRecord[]): string[] {
  return records.flatMap((r) =>
    r.kind === 'event' && r.event.type === 'command' && r.event.is_success !== false ? [r.event.command] : [],
  );
}

/** The main conversation's turns the model served, by index. */
const served = (run: AskRun) =>
  run.requests.filter((r) => r.conversation === 'main' && r.outcome === 'served').map((r) => r.turn);

/** The row's entry of the option table. */
const tableOf = (row: LiveHarness) => optionsFor(row.agent, undefined)!;

type Check = (run: AskRun, row: LiveHarness) => void;

const cases: (Omit<AskCase, 'rows'> & { when?: (row: LiveHarness) => boolean; check: Check })[] = [
  {
    name: 'a denied call: nothing runs; the turn ends or goes on as the table says',
    prompt: 'Create denied.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch denied.txt')] }, { text: 'It was denied.' }],
    onPermission: () => () => ({ deny: true }),
    check(run, row) {
      expect(run.changed).toEqual([]);
      const call_id = run.asked[0]!.call_id;
      expect(run.asked.map(({ kind, command, harness }) => ({ kind, command, harness }))).toEqual([
        { kind: 'command', command: 'touch denied.txt', harness: 'acp' },
      ]);
      expect(permissions(run.records)).toEqual([
        expect.objectContaining({ kind: 'permission_requested', call_id, tool_kind: 'command' }),
        { kind: 'permission_resolved', call_id, outcome: 'denied', by: 'caller' },
      ]);
      expect(warnings(run.records, 'permission_denied')).toHaveLength(1);
      expect(served(run)).toEqual(tableOf(row).denyEndsTurn ? [0] : [0, 1]);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    },
  },
  {
    name: 'an allowed call runs',
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
      expect(commands(run.records)).toEqual(['touch allowed.txt']);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
    },
  },
  {
    name: 'a session grant: the same call later runs unasked',
    when: (row) => tableOf(row).session.length > 0,
    prompt: 'Create s.txt twice with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch s.txt')] }, { tools: [r.shell('touch s.txt')] }, { text: 'Done.' }],
    onPermission: () => (request) => {
      expect(request.scopes).toContain('session');
      return { allow: 'session' };
    },
    check(run) {
      expect(run.asked).toHaveLength(1);
      expect(run.changed).toEqual(['s.txt']);
      expect(commands(run.records)).toEqual(['touch s.txt', 'touch s.txt']);
      expect(permissions(run.records).at(-1)).toMatchObject({ outcome: 'allowed', by: 'caller', scope: 'session' });
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
    },
  },
  {
    name: 'session where the agent has no such option: refused loudly, denied, never widened',
    when: (row) => tableOf(row).session.length === 0,
    prompt: 'Create s.txt with touch.',
    turns: (_p, r) => [{ tools: [r.shell('touch s.txt')] }, { text: 'Done.' }],
    onPermission: () => () => ({ allow: 'session' }),
    check(run) {
      expect(run.asked[0]!.scopes).not.toContain('session');
      expect(run.changed).toEqual([]);
      expect(warnings(run.records, 'permission_answer')).toHaveLength(1);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    },
  },
  {
    name: 'a run aborted while a request is pending: nothing hangs, nothing runs',
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
      expect(permissions(run.records).at(-1)).toMatchObject({ outcome: 'withdrawn' });
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 0 });
    },
  },
  {
    name: 'a throwing callback denies',
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

for (const row of liveHarnesses.filter((r) => asking.includes(r.id))) {
  const cli = rows[row.id];
  if (!cli) continue;
  describe.concurrent(`approvals: ${row.id} (${cli.cli.pkg}@${cli.version})`, () => {
    for (const scripted of cases.filter((c) => c.when?.(row) ?? true)) {
      test(scripted.name, async () => {
        await runAsk(row, cli, { ...scripted, rows: [row.id] }, (run) => {
          const context = `${row.id} / ${scripted.name}:\n${run.records.map((r) => JSON.stringify(r)).join('\n')}`;
          expect(
            run.requests.filter((r) => r.outcome === 'unexpected'),
            context,
          ).toEqual([]);
          expect(run.leftovers, context).toEqual([]);
          try {
            scripted.check(run, row);
          } catch (error) {
            (error as Error).message += `\n${context}`;
            throw error;
          }
        });
      });
    }
  });
}
