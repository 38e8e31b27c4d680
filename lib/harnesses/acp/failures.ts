/** docs/harnesses/acp.md "Failures": which of an ACP agent's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

export const failures = {
  // ACP's `auth_required` error: the agent needs `authenticate` first.
  auth_required: { class: 'auth', code: '-32000', description: 'JSON-RPC error -32000 (ACP `auth_required`)' },
  ...messageFailures,
} as const satisfies FailureRows;
