/**
 * The one asker every transport uses: fail closed (a throw, a rejection, a malformed answer, one the agent cannot
 * express: denied with a warning), a timeout that denies with a message, a withdrawal that aborts the callback's
 * signal and answers nothing, and the trace records and counts of each.
 */
import { describe, expect, test } from 'vitest';
import { createAsker, timeoutMessage } from '../../lib/kernel/asker.js';
import { decisionOf, type AnswerTable, type OnPermission, type PermissionRequest } from '../../lib/kernel/approvals.js';
import type { EventBody, RunMetrics } from '../../lib/kernel/events.js';
import type { PermissionRecord } from '../../lib/kernel/trace.js';

const full: AnswerTable = {
  once: { rule: 't.once', does: '' },
  session: { rule: 't.session', does: '' },
  always: { rule: 't.always', does: '' },
  input: { rule: 't.input', does: '' },
  deny: { rule: 't.deny', does: '' },
  message: { rule: 't.message', does: '' },
  stop: { rule: 't.stop', does: '' },
};
/** Qwen's: allow once (with a rewrite), deny with a message; no session, no stop. */
const onceOnly: AnswerTable = { once: full.once, input: full.input, deny: full.deny, message: full.message };

const request: PermissionRequest = {
  call_id: 'toolu_1',
  harness: 'claude-code',
  tool: 'Bash',
  kind: 'command',
  input: { command: 'touch a' },
  command: 'touch a',
  scopes: ['once', 'session'],
  raw: {},
};

function asker(onPermission: OnPermission, table = full, timeoutMs?: number) {
  const events: EventBody[] = [];
  const records: PermissionRecord[] = [];
  const metrics = { tokens: {} } as RunMetrics;
  const made = createAsker({
    onPermission,
    table,
    timeoutMs,
    emit: (event) => events.push(event),
    metrics,
    trace: (record) => records.push(record),
  });
  return { ...made, events, records, metrics };
}

describe('decisionOf', () => {
  test('an answer the agent can express is the decision', () => {
    expect(decisionOf({ allow: 'once' }, full, ['once'])).toEqual({ allow: 'once' });
    expect(decisionOf({ allow: 'session', input: { command: 'ls' } }, full, ['once', 'session'])).toEqual({
      allow: 'session',
      input: { command: 'ls' },
    });
    expect(decisionOf({ deny: 'no' }, full, ['once'])).toEqual({ deny: true, message: 'no', stop: false });
    expect(decisionOf({ deny: true, stop: true }, full, ['once'])).toEqual({ deny: true, stop: true });
  });
  test('malformed answers are refused', () => {
    for (const answer of [null, 'yes', {}, { allow: 'forever' }, { allow: 'once', deny: true }, { deny: 1 }]) {
      expect(decisionOf(answer, full, ['once'])).toMatchObject({ refused: 'malformed' });
    }
    expect(decisionOf({ allow: 'once', input: 'ls' }, full, ['once'])).toMatchObject({ refused: 'malformed' });
    expect(decisionOf({ deny: true, stop: false }, full, ['once'])).toMatchObject({ refused: 'malformed' });
    expect(decisionOf({ allow: 'once', scope: 'x' }, full, ['once'])).toMatchObject({ refused: 'malformed' });
  });
  test('what the agent or the request cannot express is refused, never widened', () => {
    expect(decisionOf({ allow: 'session' }, onceOnly, ['once'])).toMatchObject({ refused: 'unexpressible' });
    // The agent has "always", but this request offers no rule to keep.
    expect(decisionOf({ allow: 'always' }, full, ['once', 'session'])).toMatchObject({ refused: 'unexpressible' });
    expect(decisionOf({ deny: true, stop: true }, onceOnly, ['once'])).toMatchObject({ refused: 'unexpressible' });
    const noRewrite: AnswerTable = { once: full.once, deny: full.deny };
    expect(decisionOf({ allow: 'once', input: {} }, noRewrite, ['once'])).toMatchObject({ refused: 'unexpressible' });
    expect(decisionOf({ deny: 'why' }, noRewrite, ['once'])).toMatchObject({ refused: 'unexpressible' });
  });
});

describe('createAsker', () => {
  test('an allow: counted, traced; the callback had a live signal', async () => {
    let signal: AbortSignal | undefined;
    const made = asker((_request, context) => ((signal = context.signal), { allow: 'session' }));
    expect(await made.ask(request, 'r1')).toEqual({ allow: 'session' });
    expect(signal?.aborted).toBe(false);
    expect(made.counts).toEqual({ asked: 1, allowed: 1, denied: 0 });
    expect(made.records).toEqual([
      {
        kind: 'permission_requested',
        call_id: 'toolu_1',
        tool: 'Bash',
        tool_kind: 'command',
        scopes: ['once', 'session'],
        request_id: 'r1',
      },
      {
        kind: 'permission_resolved',
        call_id: 'toolu_1',
        outcome: 'allowed',
        by: 'caller',
        scope: 'session',
        rewritten: undefined,
      },
    ]);
    expect(made.events).toEqual([]);
  });

  test('a deny keeps the permission_denied warning', async () => {
    const made = asker(async () => ({ deny: 'not here' }));
    expect(await made.ask(request)).toEqual({ deny: true, message: 'not here', stop: false });
    expect(made.events).toEqual([
      { type: 'warning', code: 'permission_denied', message: 'Permission denied: Bash: not here' },
    ]);
    expect(made.metrics.permission_denials).toBe(1);
    expect(made.counts).toEqual({ asked: 1, allowed: 0, denied: 1 });
  });

  const failing: [string, OnPermission, string][] = [
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      'onPermission failed (boom)',
    ],
    ['rejects', () => Promise.reject(new Error('down')), 'onPermission failed (down)'],
    ['answers nonsense', () => ({ allow: 'yes' }) as never, 'onPermission gave a malformed answer'],
    ['answers what the agent cannot do', () => ({ allow: 'always' }), 'an answer this agent cannot express'],
  ];
  for (const [name, onPermission, said] of failing) {
    test(`a callback that ${name} denies, with a warning`, async () => {
      const made = asker(onPermission);
      const decision = await made.ask(request);
      expect(decision).toMatchObject({ deny: true, stop: false });
      expect(made.events[0]).toMatchObject({ type: 'warning', code: 'permission_answer' });
      expect(made.events[0]!.type === 'warning' && made.events[0]!.message).toContain(said);
      expect(made.events[1]).toMatchObject({ type: 'warning', code: 'permission_denied' });
      expect(made.counts).toEqual({ asked: 1, allowed: 0, denied: 1 });
      expect(made.records[1]).toMatchObject({ outcome: 'denied', by: 'caller' });
    });
  }

  test('permissionTimeoutMs denies with a message and aborts the signal; a late answer is ignored', async () => {
    let signal: AbortSignal | undefined;
    let answer!: (value: { allow: 'once' }) => void;
    const made = asker(
      (_request, context) => {
        signal = context.signal;
        return new Promise((resolve) => (answer = resolve));
      },
      full,
      20,
    );
    const decision = await made.ask(request);
    expect(decision).toEqual({ deny: true, message: timeoutMessage(20), stop: false });
    expect(signal?.aborted).toBe(true);
    answer({ allow: 'once' });
    await Promise.resolve();
    expect(made.counts).toEqual({ asked: 1, allowed: 0, denied: 1 });
    expect(made.records[1]).toMatchObject({ outcome: 'denied', by: 'timeout' });
  });

  test('a withdrawn request aborts the signal and gets no answer', async () => {
    let signal: AbortSignal | undefined;
    const made = asker((_request, context) => {
      signal = context.signal;
      return new Promise(() => {});
    });
    const asked = made.ask(request);
    made.withdraw('toolu_1');
    expect(await asked).toBeUndefined();
    expect(signal?.aborted).toBe(true);
    expect(made.records[1]).toMatchObject({ outcome: 'withdrawn', by: 'harness' });
    const again = made.ask({ ...request, call_id: 'toolu_2' });
    made.withdrawAll();
    expect(await again).toBeUndefined();
    expect(made.records[3]).toMatchObject({ call_id: 'toolu_2', outcome: 'withdrawn', by: 'caller' });
    expect(made.counts).toEqual({ asked: 2, allowed: 0, denied: 0 });
  });

  test('an agent without deny messages is denied without one, even at a timeout', async () => {
    const made = asker(() => new Promise(() => {}), { once: full.once, deny: full.deny }, 10);
    expect(await made.ask(request)).toEqual({ deny: true, stop: false });
  });
});
