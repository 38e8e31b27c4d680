/**
 * `permissions: 'ask'` over ACP against a real peer (peer.ts, the `turn` scenario: it asks before `rm -rf build`
 * with the options always / once / no, and says the answer it got): the normalized request, the option each answer
 * becomes, the denials, the asker's failures closed, the trace records, and requests withdrawn by an abort.
 */
import { describe, expect, test } from 'vitest';
import type { PermissionAnswer, PermissionRequest } from '../../../lib/kernel/approvals.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import type { SpawnHarnessOptions } from '../../../lib/runtime/run/spawn.js';
import { bodies } from '../../helpers.js';
import { agent, collect, freshDirEachTest } from './peer.js';

freshDirEachTest();

/** The turn scenario's request, normalized. */
const request = (): PermissionRequest => ({
  call_id: 't2',
  harness: 'acp',
  tool: 'rm -rf build',
  kind: 'command',
  command: 'rm -rf build',
  input: { command: 'rm -rf build' },
  scopes: ['once'],
  raw: {
    sessionId: 'sess-1',
    toolCall: { toolCallId: 't2', title: 'rm -rf build' },
    options: [
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ],
  },
});

/** Runs the turn scenario asking; what the callback got, the run's events and trace's permission records. */
async function asked(onPermission: SpawnHarnessOptions['onPermission'], more: Partial<SpawnHarnessOptions> = {}) {
  const got: PermissionRequest[] = [];
  const { run, sent } = agent('turn', {
    permissions: 'ask',
    onPermission: (req, context) => {
      got.push(req);
      return onPermission!(req, context);
    },
    ...more,
    ...({ trace: true } as object),
  });
  const records = (await collect(run as never)) as unknown as TraceRecord[];
  const result = await run.done;
  const events = bodies(records.flatMap((r) => (r.kind === 'event' ? [r.event] : [])));
  const permissions = records.filter((r) => r.kind.startsWith('permission_'));
  return { got, events, permissions, result, answer: sent().find((m) => m.id === 100 && !('method' in m)), sent };
}

const said = (result: unknown) => ({ type: 'agent', message: `permission: ${JSON.stringify(result)}` });
const requested = {
  kind: 'permission_requested',
  call_id: 't2',
  tool: 'rm -rf build',
  tool_kind: 'command',
  scopes: ['once'],
  request_id: '100',
};

describe("permissions: 'ask' over ACP", { timeout: 30_000 }, () => {
  test('allow once: the normalized request (kind and command from the announced call), the once option', async () => {
    const { got, events, permissions, result, answer } = await asked(() => ({ allow: 'once' }));
    expect(got).toEqual([request()]);
    const selected = { outcome: { outcome: 'selected', optionId: 'once' } };
    expect(answer).toEqual({ jsonrpc: '2.0', id: 100, result: selected });
    expect(events.slice(3)).toEqual([
      { type: 'command', command: 'rm -rf build', exit_code: 0, is_success: true },
      said(selected),
      { type: 'usage', tokens: { input: 100, output: 10 } },
    ]);
    expect(permissions).toMatchObject([
      requested,
      { kind: 'permission_resolved', call_id: 't2', outcome: 'allowed', by: 'caller', scope: 'once' },
    ]);
    expect(result.approvals).toEqual({ asked: 1, allowed: 1, denied: 0 });
  });

  test('deny: the reject option, the permission_denied warning, the call failed', async () => {
    const { events, permissions, result, answer } = await asked(() => ({ deny: true }));
    const rejected = { outcome: { outcome: 'selected', optionId: 'no' } };
    expect(answer).toEqual({ jsonrpc: '2.0', id: 100, result: rejected });
    expect(events.slice(3, 6)).toEqual([
      {
        type: 'warning',
        code: 'permission_denied',
        message: 'Permission denied: rm -rf build: denied by onPermission',
      },
      { type: 'command', command: 'rm -rf build', is_success: false },
      said(rejected),
    ]);
    expect(permissions).toMatchObject([
      requested,
      { kind: 'permission_resolved', call_id: 't2', outcome: 'denied', by: 'caller' },
    ]);
    expect(result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
    expect(result.metrics.permission_denials).toBe(1);
  });

  test.each<[string, () => PermissionAnswer | Promise<PermissionAnswer>, string]>([
    [
      'a throwing callback',
      () => {
        throw new Error('policy engine down');
      },
      'onPermission failed (policy engine down)',
    ],
    ['a rejecting callback', () => Promise.reject(new Error('nope')), 'onPermission failed (nope)'],
    [
      'a scope this agent cannot grant (always: an unknown agent has only its one allow_once)',
      () => ({ allow: 'always' }),
      'onPermission gave an answer this agent cannot express (this request cannot be allowed for "always"',
    ],
    [
      'a rewritten input (ACP has no field for it)',
      () => ({ allow: 'once', input: { command: 'ls' } }),
      'onPermission gave an answer this agent cannot express',
    ],
    [
      'a deny message (ACP has no field for it: the model would never see it)',
      () => ({ deny: 'use make clean' }),
      'onPermission gave an answer this agent cannot express (this agent passes no deny message to its model)',
    ],
  ])('%s: denied, with a permission_answer warning, never widened', async (_name, onPermission, warning) => {
    const { events, answer, result } = await asked(onPermission);
    expect(answer).toEqual({ jsonrpc: '2.0', id: 100, result: { outcome: { outcome: 'selected', optionId: 'no' } } });
    const warned = events.find((e) => e.code === 'permission_answer');
    expect(warned?.message).toContain(`rm -rf build (t2): ${warning}`);
    expect(result.approvals).toEqual({ asked: 1, allowed: 0, denied: 1 });
  });

  test('permissionTimeoutMs: denied (the turn goes on), the callback signal aborted, by timeout', async () => {
    let aborted: Promise<void> | undefined;
    const { answer, permissions, events } = await asked(
      (_req, { signal }) => {
        aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
        return new Promise(() => {});
      },
      { permissionTimeoutMs: 50 },
    );
    await aborted;
    expect(answer).toEqual({ jsonrpc: '2.0', id: 100, result: { outcome: { outcome: 'selected', optionId: 'no' } } });
    expect(permissions.at(-1)).toMatchObject({ kind: 'permission_resolved', outcome: 'denied', by: 'timeout' });
    expect(events.at(-2)).toEqual(said({ outcome: { outcome: 'selected', optionId: 'no' } }));
  });

  test('stop: the reject option, then session/cancel', async () => {
    const { sent, permissions, result } = await asked(() => ({ deny: true, stop: true }));
    expect(sent().slice(3)).toEqual([
      { jsonrpc: '2.0', id: 100, result: { outcome: { outcome: 'selected', optionId: 'no' } } },
      { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } },
    ]);
    expect(permissions.at(-1)).toMatchObject({ outcome: 'denied', stopped: true });
    expect(result.metrics.stopped_by_permission).toBe(true);
  });

  test('an abort with a request pending: session/cancel, then the request answered cancelled', async () => {
    let allowLate: () => void = () => {};
    const { run, sent } = agent('turn', {
      permissions: 'ask',
      reject: false,
      onPermission: (_req, { signal }) =>
        new Promise<PermissionAnswer>((resolve) => {
          signal.addEventListener('abort', () => (allowLate = () => resolve({ allow: 'once' })));
          run.stop();
        }),
    });
    await collect(run);
    allowLate();
    const result = await run.done;
    expect(sent().slice(3)).toEqual([
      { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } },
      { jsonrpc: '2.0', id: 100, result: { outcome: { outcome: 'cancelled' } } },
    ]);
    expect(result.approvals).toEqual({ asked: 1, allowed: 0, denied: 0 });
    // The agent then answers its turn (end_turn): the run ends as the caller aborted it.
    expect(result).toMatchObject({ reason: 'aborted' });
  });

  test("'ask' without onPermission: a TypeError at the call", () => {
    expect(() => agent('turn', { permissions: 'ask' })).toThrow(/permissions 'ask' needs onPermission/);
  });
});
