/**
 * A rollout's `token_usage_record` (0.169 and later): one response's own usage, a model call of the trace
 * (docs/harnesses/codex.md "Trace", "Usage"), whether the rollout is read as a session or joined to a live run.
 */
import type { RunTrace } from '../../kernel/trace.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { codexTokens } from './correlate.js';

/** The model a `turn_context` payload says its turn runs, for the turn's model calls. */
export const turnModel = (payload: JsonObject): string | undefined =>
  typeof payload.model === 'string' ? payload.model : undefined;

/**
 * The line's response as a model call: `model_call_id` its `response_id`, its tokens, ending at the line's time; the
 * rollout marks no request's start.
 */
export function responseUsage(trace: RunTrace | undefined, line: JsonObject, model: string | undefined): void {
  const { response_id, usage } = isObject(line.payload) ? line.payload : {};
  trace?.modelCall({
    model_call_id: typeof response_id === 'string' && response_id !== '' ? response_id : undefined,
    model,
    tokens: isObject(usage) ? codexTokens(usage) : undefined,
    at: line.timestamp,
  });
}
