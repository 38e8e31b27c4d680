/** docs/harnesses/qwen.md "Failures": which of Qwen Code's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

export const failures = {
  error_max_turns: { class: 'limit', code: 'error_max_turns', description: 'result `error_max_turns`' },
  // An API failure is the text `[API Error: 401 ...]`, with no code of its own.
  ...messageFailures,
} as const satisfies FailureRows;
