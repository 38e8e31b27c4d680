/**
 * docs/harnesses/acp.md "Stop reasons and usage": ACP's `Usage` (`inputTokens`, `outputTokens`,
 * `totalTokens`, `thoughtTokens?`, `cachedReadTokens?`, `cachedWriteTokens?`) as the contract's
 * token classes.
 * Agents disagree on whether cache and thought tokens are inside input and output (inclusive:
 * Copilot, Qwen) or beside them (disjoint: Kilo); `totalTokens` tells which.
 */
import type { Tokens } from '../../kernel/events.js';
import type { JsonObject } from '../../kernel/json.js';
import { tokenCount, tokensOf } from '../../kernel/metrics.js';

/** The token classes of one usage; undefined when every count is 0 (Kilo's answer to a cancelled turn). */
export function acpTokens(usage: JsonObject): Tokens | undefined {
  const input = tokenCount(usage.inputTokens);
  const output = tokenCount(usage.outputTokens);
  const thought = tokenCount(usage.thoughtTokens) ?? 0;
  const cacheRead = tokenCount(usage.cachedReadTokens) ?? 0;
  const cacheWrite = tokenCount(usage.cachedWriteTokens) ?? 0;
  const inputAndOutput = (input ?? 0) + (output ?? 0);
  const everything = inputAndOutput + thought + cacheRead + cacheWrite;
  const disjoint = tokenCount(usage.totalTokens) === everything && everything !== inputAndOutput;
  const tokens = tokensOf({
    input: input === undefined || disjoint ? input : Math.max(0, input - cacheRead - cacheWrite),
    output: output === undefined || disjoint ? output : Math.max(0, output - thought),
    reasoning: usage.thoughtTokens,
    cache_read: usage.cachedReadTokens,
    cache_write: usage.cachedWriteTokens,
  });
  return Object.values(tokens).some((count) => count > 0) ? tokens : undefined;
}
