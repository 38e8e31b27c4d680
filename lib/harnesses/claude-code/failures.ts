/** docs/harnesses/claude-code.md "Failures": which of Claude Code's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

export const failures = {
  error_max_turns: { class: 'limit', code: 'error_max_turns', description: 'result `error_max_turns` (`--max-turns`)' },
  error_max_budget_usd: {
    class: 'limit',
    code: 'error_max_budget_usd',
    description: 'result `error_max_budget_usd` (`--max-budget-usd`)',
  },
  // `api_error` is every failed model call (401, 429, 529 alike): its message tells them apart.
  ...messageFailures,
  api_error: { class: 'api_error', code: 'api_error', description: 'any other `api_error`' },
} as const satisfies FailureRows;
