/**
 * The one asker every transport uses (docs/library.md "Approvals"): it hands a request to the caller's
 * `onPermission` and turns what comes back into a decision the agent can express, failing closed. A throw, a
 * rejection, a malformed answer or one the agent cannot express denies (with a `permission_answer` warning); past
 * `permissionTimeoutMs` the call is denied with a message (the turn goes on); a withdrawn request (the run aborted,
 * the agent's own cancel) aborts the callback's signal and gets no answer at all. Each request and its outcome is a
 * trace record; each denial a `permission_denied` warning.
 */
import { decisionOf, type AnswerTable, type Decision, type OnPermission, type PermissionRequest } from './approvals.js';
import type { EventBody, RunMetrics } from './events.js';
import { permissionDenied } from './permission-denied.js';
import type { PermissionRecord } from './trace.js';

/** How many calls a run asked the caller about, and how they were decided (a run result's `approvals`). */
export interface ApprovalCounts {
  /** Requests handed to `onPermission`. */
  asked: number;
  /** Calls allowed (by the caller's answer). */
  allowed: number;
  /** Calls denied: by the answer, a failed callback, a refused answer, or the timeout. */
  denied: number;
}

export interface AskerOptions {
  readonly onPermission: OnPermission;
  /** Deny a request unanswered after this many milliseconds; undefined: wait as long as the run lasts. */
  readonly timeoutMs?: number;
  /** What the agent can express. */
  readonly table: AnswerTable;
  /** The run's events and metrics: warnings and refusals go there. */
  emit(event: EventBody): void;
  readonly metrics: RunMetrics;
  /** The trace's permission records, when the trace is on. */
  readonly trace?: (record: PermissionRecord) => void;
}

export interface Asker {
  /**
   * Asks the caller; the decision to send, or undefined when the request was withdrawn (send nothing). `request_id`:
   * the harness's id for the request, for the trace.
   */
  ask(request: PermissionRequest, request_id?: string): Promise<Decision | undefined>;
  /** Withdraws a pending request (the agent cancelled it): its signal aborts. */
  withdraw(call_id: string): void;
  /** Withdraws every pending request (the run is aborted or over). */
  withdrawAll(): void;
  readonly counts: ApprovalCounts;
}

/** The message a timeout denies with. */
export const timeoutMessage = (ms: number) => `Permission denied: no answer to the permission request within ${ms} ms.`;

export function createAsker(options: AskerOptions): Asker {
  const counts: ApprovalCounts = { asked: 0, allowed: 0, denied: 0 };
  const pending = new Map<string, (by: 'caller' | 'harness') => void>();

  function ask(request: PermissionRequest, request_id?: string): Promise<Decision | undefined> {
    counts.asked++;
    const { call_id, tool, kind, scopes } = request;
    options.trace?.({
      kind: 'permission_requested',
      call_id,
      tool,
      tool_kind: kind,
      scopes: [...scopes],
      request_id,
    });
    const controller = new AbortController();
    return new Promise<Decision | undefined>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let over = false;
      const finish = (decision: Decision | undefined, by: 'caller' | 'timeout' | 'harness') => {
        if (over) return;
        over = true;
        clearTimeout(timer);
        pending.delete(call_id);
        if (by !== 'caller' || decision === undefined) controller.abort();
        resolved(request, decision, by);
        resolve(decision);
      };
      pending.set(call_id, (by) => finish(undefined, by));
      if (options.timeoutMs !== undefined)
        timer = setTimeout(() => finish(deny(timeoutMessage(options.timeoutMs!)), 'timeout'), options.timeoutMs);
      new Promise((answered) => answered(options.onPermission(request, { signal: controller.signal }))).then(
        (answer) => {
          if (over) return;
          const decision = decisionOf(answer, options.table, scopes);
          if (!('refused' in decision)) return finish(decision, 'caller');
          const what = decision.refused === 'malformed' ? 'a malformed answer' : 'an answer this agent cannot express';
          warn(`${tool} (${call_id}): onPermission gave ${what} (${decision.why}): the call is denied`);
          finish(deny(`Permission denied: ${decision.why}.`), 'caller');
        },
        (error: unknown) => {
          if (over) return;
          const reason = error instanceof Error ? error.message : String(error);
          warn(`${tool} (${call_id}): onPermission failed (${reason}): the call is denied`);
          finish(deny('Permission denied: the permission check failed.'), 'caller');
        },
      );
    });
  }

  /** A denial with a message where the agent passes one. */
  function deny(message: string): Decision {
    return options.table.message === undefined ? { deny: true, stop: false } : { deny: true, message, stop: false };
  }

  function warn(message: string): void {
    options.emit({ type: 'warning', code: 'permission_answer', message });
  }

  function resolved(request: PermissionRequest, decision: Decision | undefined, by: 'caller' | 'timeout' | 'harness') {
    // The trace names the call's agent by its own ids (the call's), not by the harness's (`request.agent_id`).
    const { call_id, tool } = request;
    if (decision === undefined) {
      options.trace?.({ kind: 'permission_resolved', call_id, outcome: 'withdrawn', by });
      return;
    }
    if ('allow' in decision) {
      counts.allowed++;
      const rewritten = decision.input === undefined ? undefined : true;
      options.trace?.({
        kind: 'permission_resolved',
        call_id,
        outcome: 'allowed',
        by,
        scope: decision.allow,
        rewritten,
      });
      return;
    }
    counts.denied++;
    const { message, stop } = decision;
    const stopped = stop || undefined;
    options.trace?.({ kind: 'permission_resolved', call_id, outcome: 'denied', by, message, stopped });
    const reason = by === 'timeout' ? 'no answer within permissionTimeoutMs' : (message ?? 'denied by onPermission');
    permissionDenied(options, { tool, reason, stopped: stop });
  }

  return {
    ask,
    withdraw: (call_id) => pending.get(call_id)?.('harness'),
    withdrawAll() {
      for (const withdraw of [...pending.values()]) withdraw('caller');
    },
    counts,
  };
}
