/**
 * Claude Code's usage in the shared token classes: stdout's `result`, a session file's messages, the trace's model
 * calls.
 */
import type { Tokens } from '../../kernel/events.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, excluding, tokenCount, tokensOf } from '../../kernel/metrics.js';
import type { RunTrace } from '../../kernel/trace.js';

/** The shared token mapping (docs/contract.md): Claude's input is already uncached; thinking is part of output. */
export function claudeTokens(usage: JsonObject): Tokens {
  const details = isObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return tokensOf({
    input: usage.input_tokens,
    output: excluding(tokenCount(usage.output_tokens), tokenCount(details.thinking_tokens)),
    reasoning: details.thinking_tokens,
    cache_read: usage.cache_read_input_tokens,
    cache_write: usage.cache_creation_input_tokens,
  });
}

/** A `modelUsage`-shaped object (`{ [model]: { inputTokens, outputTokens, ... } }`) by model; undefined if not one. */
export function modelUsageTokens(value: unknown): Map<string, Tokens> | undefined {
  if (!isObject(value)) return undefined;
  const models = new Map<string, Tokens>();
  for (const [model, usage] of Object.entries(value)) {
    if (model === '' || !isObject(usage)) continue;
    models.set(
      model,
      tokensOf({
        input: usage.inputTokens,
        output: excluding(tokenCount(usage.outputTokens), tokenCount(usage.thinkingTokens)),
        reasoning: usage.thinkingTokens,
        cache_read: usage.cacheReadInputTokens,
        cache_write: usage.cacheCreationInputTokens,
      }),
    );
  }
  return models;
}

/**
 * The run's own total from its `result` records (docs/usage.md "From stdout"): each result's
 * `model_usage_since_last_result` (2.1.328 on) is its own share, exact on a resumed or forked session too (measured:
 * test/fixtures/claude-code/usage/resume-fork/), summed over the run's results; without it, `modelUsage` is the
 * session's running total, the run's own only in a session the run started.
 */
export function runTotals(trace: RunTrace): (result: JsonObject) => void {
  const share = new Map<string, Tokens>();
  return (result) => {
    const since = modelUsageTokens(result.model_usage_since_last_result);
    if (since !== undefined) {
      for (const [model, tokens] of since) {
        const sum = share.get(model) ?? {};
        addTokens(sum, tokens);
        share.set(model, sum);
      }
      return trace.runTotal({ ...totalOf(share), scope: 'run' });
    }
    const session = modelUsageTokens(result.modelUsage);
    if (session !== undefined) trace.runTotal({ ...totalOf(session), scope: 'session' });
  };
}

/** A total by model, and its sum. */
function totalOf(models: Map<string, Tokens>): { tokens: Tokens; models?: Record<string, Tokens> } {
  const tokens: Tokens = {};
  for (const each of models.values()) addTokens(tokens, each);
  return { tokens, models: models.size === 0 ? undefined : Object.fromEntries(models) };
}
