/**
 * docs/harnesses/opencode.md "Failures": which of OpenCode's errors (its error names, the event's `code`) is which
 * failure class, first match wins. Kilo, its fork, has the same (lib/harnesses/kilo/failures.ts).
 */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

export const failures = {
  ProviderAuthError: { class: 'auth', code: 'ProviderAuthError', description: '`ProviderAuthError`' },
  ContextOverflowError: {
    class: 'context_overflow',
    code: 'ContextOverflowError',
    description: '`ContextOverflowError`',
  },
  MessageOutputLengthError: {
    class: 'limit',
    code: 'MessageOutputLengthError',
    description: "`MessageOutputLengthError` (the model's output limit)",
  },
  MessageAbortedError: { class: 'aborted', code: 'MessageAbortedError', description: '`MessageAbortedError`' },
  // `APIError` is every failed model call (a 401 as a 500): its message tells them apart.
  ...messageFailures,
  APIError: { class: 'api_error', code: 'APIError', description: 'any other `APIError`' },
} as const satisfies FailureRows;
