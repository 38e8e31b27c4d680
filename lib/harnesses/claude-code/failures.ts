/** docs/harnesses/claude-code.md "Failures": which of Claude Code's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

/** An API error's `error` (its code): the kinds Claude Code names, by class. */
const apiErrors = {
  auth: ['authentication_failed', 'oauth_org_not_allowed', 'account_on_hold', 'verification_required'],
  rate_limit: ['rate_limit', 'billing_error'],
  api_error: ['overloaded', 'server_error', 'invalid_request', 'model_not_found', 'cloud_credential_error'],
  limit: ['max_output_tokens'],
} as const;

export const failures = {
  error_max_turns: { class: 'limit', code: 'error_max_turns', description: 'result `error_max_turns` (`--max-turns`)' },
  error_max_budget_usd: {
    class: 'limit',
    code: 'error_max_budget_usd',
    description: 'result `error_max_budget_usd` (`--max-budget-usd`)',
  },
  ...Object.fromEntries(
    Object.entries(apiErrors).flatMap(([kind, codes]) =>
      codes.map((code) => [
        code,
        { class: kind as keyof typeof apiErrors, code, description: `API error \`${code}\`` },
      ]),
    ),
  ),
  // Older versions' `api_error`, and `unknown`: the message tells a 401 from a 429.
  ...messageFailures,
  api_error: { class: 'api_error', code: 'api_error', description: 'any other `api_error`' },
} as const satisfies FailureRows;
