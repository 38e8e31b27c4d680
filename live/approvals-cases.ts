/**
 * The approvals cases (`permissions: 'ask'`, docs/library.md "Approvals"), each written once for every row: the row
 * (live/approvals-rows.ts) supplies the call its agent asks about and what its answers can do. Each case checks the
 * workspace, the trace's permission records and the result's counts.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { timeoutMessage } from '../lib/kernel/asker.js';
import type { TraceRecord, TraceRecordOf } from '../lib/kernel/trace.js';
import { permissions, warnings, type AskCase, type AskRun } from './approvals.js';
import type { AskRow, CallOf } from './approvals-rows.js';
import type { Place } from './workspace.js';

const DENIED = 'Not this one: the live test denies it.';
const SUBAGENT = 'SUBAGENT-TASK';
const TIMEOUT_MS = 3000;

/** The calls that ran (their command or write events), none failed (Gemini gives no success of a command). */
function ran(records: readonly TraceRecord[]): CallOf[] {
  return records.flatMap((r): CallOf[] => {
    if (r.kind !== 'event') return [];
    const { event } = r;
    if (event.type === 'command' && event.is_success !== false) return [{ kind: 'command', command: event.command }];
    return event.type === 'write' && event.is_success !== false ? [{ kind: 'write', path: event.path }] : [];
  });
}

/** The main conversation's turns the model served, by index. */
const served = (run: AskRun) =>
  run.requests.filter((r) => r.conversation === 'main' && r.outcome === 'served').map((r) => r.turn);

type Resolved = Partial<TraceRecordOf<'permission_resolved'>>;
const resolved = (run: AskRun) =>
  permissions(run.records).filter((r) => r.kind === 'permission_resolved') as Resolved[];

/** A case, the rows it runs on, and its checks. */
export interface LiveAskCase extends AskCase {
  when?(row: AskRow): boolean;
  check(run: AskRun, row: AskRow): void | Promise<void>;
}

/** A case of one call creating `file`, answered by `onPermission`. */
function oneCall(file: string, fields: Omit<LiveAskCase, 'prompt' | 'turns'>): LiveAskCase {
  return {
    prompt: `Create ${file}.`,
    turns: (place, row) => [{ tools: [row.create(place, file)] }, { text: 'Done.' }],
    ...fields,
  };
}

/**
 * The checks of a denied call: nothing ran (the workspace: a denied call's event may still come, unfinished), the turn
 * ended or went on as the agent does, ended by the denial in the metrics, the exit code 1 where the turn ended
 * cancelled (a stop; codex-acp's only reject).
 */
function deniedChecks(run: AskRun, row: AskRow, stopped = false) {
  const ended = stopped || row.denyEndsTurn;
  expect(run.changed).toEqual([]);
  expect(warnings(run.records, 'permission_denied')).toHaveLength(1);
  // An ACP stop is the reject, then `session/cancel`: an agent that goes on after a reject (Gemini) may ask the model
  // again before the cancel lands; the turn still ends cancelled and nothing runs.
  if (stopped && row.acp && !row.denyEndsTurn) expect([[0], [0, 1]]).toContainEqual(served(run));
  else expect(served(run)).toEqual(ended ? [0] : [0, 1]);
  expect(run.result.metrics.stopped_by_permission === true).toBe(ended);
  expect(run.result.exitCode).toBe(stopped || row.denyCancels ? 1 : 0);
  expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
}

/** The row's setting that makes its agent offer `always`. */
const prepare = (place: Place, row: AskRow) => row.always!.prepare?.(place);

export const cases: readonly LiveAskCase[] = [
  oneCall('denied.txt', {
    name: 'a denied call: nothing runs; the message reaches the model where it can; the turn as the agent does',
    onPermission: (_abort, row) => () => ({ deny: row.message ? DENIED : true }),
    check(run, row) {
      deniedChecks(run, row);
      const call_id = run.asked[0]!.call_id;
      expect(run.asked.map(({ kind, command, path }) => ({ kind, command, path }))).toEqual([
        { command: undefined, path: undefined, ...row.call(run.place, 'denied.txt') },
      ]);
      expect(permissions(run.records)).toEqual([
        expect.objectContaining({ kind: 'permission_requested', call_id, tool_kind: run.asked[0]!.kind }),
        {
          kind: 'permission_resolved',
          call_id,
          outcome: 'denied',
          by: 'caller',
          ...(row.message && { message: DENIED }),
        },
      ]);
      const last = run.requests.filter((r) => r.outcome === 'served').at(-1);
      if (row.message) expect(JSON.stringify(last?.body)).toContain(DENIED);
    },
  }),
  oneCall('allowed.txt', {
    name: 'an allowed call runs',
    onPermission: () => () => ({ allow: 'once' }),
    check(run, row) {
      expect(run.changed).toEqual(['allowed.txt']);
      expect(resolved(run)).toEqual([
        {
          kind: 'permission_resolved',
          call_id: run.asked[0]!.call_id,
          outcome: 'allowed',
          by: 'caller',
          scope: 'once',
        },
      ]);
      expect(ran(run.records)).toEqual([row.call(run.place, 'allowed.txt')]);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
    },
  }),
  oneCall('asked.txt', {
    name: 'an allowed call with a rewritten input: the rewritten one runs',
    when: (row) => row.rewrite,
    onPermission: () => (request) => ({
      allow: 'once',
      input: { ...(request.input as object), command: 'touch rewritten.txt' },
    }),
    check(run) {
      expect(run.changed).toEqual(['rewritten.txt']);
      expect(resolved(run).at(-1)).toMatchObject({ outcome: 'allowed', rewritten: true });
    },
  }),
  oneCall('asked.txt', {
    name: 'a rewritten input the agent would not run is refused loudly and denied',
    when: (row) => !row.rewrite && !row.acp,
    onPermission: () => (request) => ({
      allow: 'once',
      input: { ...(request.input as object), command: 'touch rewritten.txt' },
    }),
    check(run, row) {
      deniedChecks(run, row);
      expect(warnings(run.records, 'permission_answer')[0]).toContain('this agent cannot run a rewritten input');
    },
  }),
  {
    name: 'a session grant: the same call later runs unasked',
    when: (row) => row.session,
    prompt: 'Create s.txt twice.',
    turns: (place, row) => [
      { tools: [row.create(place, 's.txt')] },
      { tools: [row.create(place, 's.txt')] },
      { text: 'Done.' },
    ],
    onPermission: () => (request) => {
      expect(request.scopes).toContain('session');
      return { allow: 'session' };
    },
    check(run, row) {
      expect(run.asked).toHaveLength(1);
      expect(run.changed).toEqual(['s.txt']);
      expect(ran(run.records)).toEqual([row.call(run.place, 's.txt'), row.call(run.place, 's.txt')]);
      // Claude Code reports the second call's decision too: its rule's, not the caller's.
      expect(resolved(run).filter((r) => r.by === 'caller')).toEqual([
        expect.objectContaining({ outcome: 'allowed', scope: 'session' }),
      ]);
      expect(resolved(run).every((r) => r.outcome === 'allowed')).toBe(true);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
    },
  },
  oneCall('s.txt', {
    name: 'session where the agent has no such option: refused loudly, denied, never widened',
    when: (row) => !row.session,
    onPermission: () => () => ({ allow: 'session' }),
    check(run, row) {
      expect(run.asked[0]!.scopes).not.toContain('session');
      deniedChecks(run, row);
      expect(warnings(run.records, 'permission_answer')).toHaveLength(1);
    },
  }),
  oneCall('kept.txt', {
    name: 'always: the agent keeps a rule in its settings; the next run is unasked',
    when: (row) => row.always !== undefined,
    prepare,
    onPermission: () => (request) => {
      expect(request.scopes).toContain('always');
      return { allow: 'always' };
    },
    async check(run, row) {
      expect(run.changed.filter((file) => file !== '.claude/settings.local.json')).toEqual(['kept.txt']);
      expect(resolved(run)).toEqual([expect.objectContaining({ outcome: 'allowed', by: 'caller', scope: 'always' })]);
      const settings = join(run.place.home, '..', row.always!.file);
      expect(existsSync(settings), settings).toBe(true);
      expect(readFileSync(settings, 'utf8')).toContain(row.always!.rule);
      rmSync(run.place.path('kept.txt'));
      const next = await run.again(
        oneCall('kept.txt', { name: 'the next run', prepare, onPermission: () => () => ({ deny: true }), check() {} }),
      );
      expect(next.asked).toEqual([]);
      expect(next.changed).toEqual(['kept.txt']);
      expect(ran(next.records)).toEqual([row.call(run.place, 'kept.txt')]);
    },
  }),
  oneCall('stopped.txt', {
    name: 'stop: the turn ends at the denial, nothing runs',
    when: (row) => row.stop,
    onPermission: () => () => ({ deny: true, stop: true }),
    check(run, row) {
      deniedChecks(run, row, true);
      expect(resolved(run)).toEqual([expect.objectContaining({ outcome: 'denied', by: 'caller', stopped: true })]);
      expect(run.result.metrics.stopped_by_permission).toBe(true);
    },
  }),
  {
    name: "a subagent's request carries its agent_id",
    when: (row) => row.subagent !== undefined,
    prompt: 'Hand a task to a subagent.',
    conversations: (place, row) => [
      {
        name: 'subagent',
        match: { user: SUBAGENT },
        turns: [{ tools: [row.create(place, 'sub.txt')] }, { text: 'Subagent done.' }],
      },
    ],
    turns: (_place, row) => [{ tools: [row.subagent!(`${SUBAGENT}: create sub.txt.`)] }, { text: 'It did.' }],
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
  oneCall('pending.txt', {
    name: 'a run aborted while a request is pending: nothing hangs, nothing runs',
    onPermission: (abort) => () => {
      abort();
      return new Promise(() => {});
    },
    check(run) {
      expect(run.result.isCanceled).toBe(true);
      expect(run.signals.map((signal) => signal.aborted)).toEqual([true]);
      expect(run.changed).toEqual([]);
      expect(resolved(run)).toEqual([expect.objectContaining({ outcome: 'withdrawn', by: 'caller' })]);
      expect(run.result.approvals).toEqual({ asked: 1, allowed: 0, denied: 0 });
    },
  }),
  oneCall('thrown.txt', {
    name: 'a throwing callback denies',
    onPermission: () => () => {
      throw new Error('policy engine down');
    },
    check(run, row) {
      deniedChecks(run, row);
      expect(warnings(run.records, 'permission_answer')[0]).toContain('policy engine down');
      expect(resolved(run)).toEqual([expect.objectContaining({ outcome: 'denied', by: 'caller' })]);
    },
  }),
  oneCall('late.txt', {
    name: 'permissionTimeoutMs: denied with its message, the turn not cancelled',
    timeoutMs: TIMEOUT_MS,
    onPermission: () => () => new Promise(() => {}),
    check(run, row) {
      deniedChecks(run, row);
      expect(run.result.isCanceled).toBe(false);
      expect(run.signals.map((signal) => signal.aborted)).toEqual([true]);
      const message = timeoutMessage(TIMEOUT_MS);
      expect(resolved(run)).toEqual([
        expect.objectContaining({ outcome: 'denied', by: 'timeout', ...(row.message && { message }) }),
      ]);
      const last = run.requests.filter((r) => r.outcome === 'served').at(-1);
      if (row.message) expect(JSON.stringify(last?.body)).toContain(message);
    },
  }),
];
