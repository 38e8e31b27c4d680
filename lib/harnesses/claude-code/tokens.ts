/**
 * Claude Code's usage in the shared token classes: stdout's `result`, a session file's messages, the trace's model
 * calls.
 */
import type { Tokens } from '../../kernel/events.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { excluding, tokenCount, tokensOf } from '../../kernel/metrics.js';

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
