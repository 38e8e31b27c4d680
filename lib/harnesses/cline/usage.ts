/**
 * docs/harnesses/cline.md "Usage and metrics": one `usage` record is one model call's delta.
 * Cline's `inputTokens` is the whole prompt, cached tokens included, so `input` is what is left
 * after both cache classes (as Cline's own cost formula computes it). Pure.
 */
import type { EventBody } from '../../kernel/events.js';
import type { JsonObject } from '../../kernel/json.js';
import { amount, tokenCount, tokensOf } from '../../kernel/metrics.js';

type Usage = Extract<EventBody, { type: 'usage' }>;

export function usageEvent(record: JsonObject): Usage | undefined {
  const inputTokens = tokenCount(record.inputTokens);
  const cacheRead = tokenCount(record.cacheReadTokens);
  const cacheWrite = tokenCount(record.cacheWriteTokens);
  const tokens = tokensOf({
    input: inputTokens === undefined ? undefined : Math.max(0, inputTokens - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    output: record.outputTokens,
    cache_read: cacheRead,
    cache_write: cacheWrite,
  });
  const given = amount(record.cost);
  const cost = given === undefined || given === 0 ? undefined : given;
  const counted = [inputTokens, tokens.output, cacheRead, cacheWrite].some((count) => (count ?? 0) > 0);
  if (!counted && cost === undefined) return undefined;
  return { type: 'usage', tokens, cost };
}
