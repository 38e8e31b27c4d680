/**
 * Who decided each call, as Claude Code reports it (`tool_result_meta[].permission_decision {decision, source,
 * reason_type}` on the `user` record of its result): the call's `permission_resolved` trace record, whoever decided it
 * (its mode, a rule or hook, the caller). A call the caller answered was resolved when it answered.
 */
import type { RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';

/**
 * `by` from the decision: its `reason_type` first (`mode`; `rule`, a rule the session keeps, even one a caller's
 * session grant added: `source` is then still `user_temporary`), then its `source` (the user's answers are the
 * caller's, over the control protocol; hooks and config the harness's).
 */
function decider(decision: JsonObject): 'caller' | 'mode' | 'harness' {
  if (decision.reason_type === 'mode') return 'mode';
  if (decision.reason_type !== undefined) return 'harness';
  const source = typeof decision.source === 'string' ? decision.source : '';
  return source.startsWith('user') ? 'caller' : 'harness';
}

export function decisions(run: RunContext, record: JsonObject): void {
  if (run.trace === undefined || !Array.isArray(record.tool_result_meta)) return;
  for (const meta of record.tool_result_meta) {
    if (!isObject(meta) || typeof meta.id !== 'string' || meta.id === '' || !isObject(meta.permission_decision))
      continue;
    const { decision } = meta.permission_decision;
    if (decision !== 'accept' && decision !== 'reject') continue;
    run.trace.permission({
      kind: 'permission_resolved',
      call_id: meta.id,
      outcome: decision === 'accept' ? 'allowed' : 'denied',
      by: decider(meta.permission_decision),
    });
  }
}
