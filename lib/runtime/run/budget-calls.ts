/**
 * What a harness's stdout says of each model call as the run goes, for a budget (docs/run-contract.md "Budgets"),
 * where its events give usage only as the run's total. Claude Code: each `assistant` line repeats its API message's
 * `message_start` usage: its input and cache tokens exact, its output 1 (the real count comes with the result).
 * Qwen Code: each `assistant` line carries its message's whole usage. Gemini CLI and Goose give nothing per call.
 */
import type { Tokens } from '../../kernel/events.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { claudeTokens } from '../../harnesses/claude-code/tokens.js';
import { qwenTokens } from '../../harnesses/qwen/correlate.js';

/** One model call's figure so far: a later line of the same call may say more. */
export interface CallFigure {
  id: string;
  tokens: Tokens;
}

function assistant(record: JsonObject, tokensOf: (usage: JsonObject) => Tokens): CallFigure | undefined {
  const message = record.type === 'assistant' && isObject(record.message) ? record.message : undefined;
  // The CLI's own replies (an API error, a local command) are no model call.
  if (typeof message?.id !== 'string' || !isObject(message.usage) || message.model === '<synthetic>') return undefined;
  return { id: message.id, tokens: tokensOf(message.usage) };
}

/** By harness: the call a stdout record gives a figure for, if any. */
export const callFigures: Readonly<Record<string, (record: JsonObject) => CallFigure | undefined>> = {
  'claude-code': (record) => assistant(record, claudeTokens),
  qwen: (record) => assistant(record, qwenTokens),
};
