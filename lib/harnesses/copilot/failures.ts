/** docs/harnesses/copilot.md "Failures": which of Copilot's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

export const failures = {
  authentication: {
    class: 'auth',
    code: 'authentication',
    description: '`session.error` with `errorType` `authentication`',
  },
  abort: { class: 'aborted', code: 'abort', description: '`abort`' },
  // `query` is any failed model call: its message tells a 429 from a 500 or an unreachable provider.
  ...messageFailures,
  query: { class: 'api_error', code: 'query', description: 'any other `session.error` with `errorType` `query`' },
} as const satisfies FailureRows;
