/** docs/harnesses/cline.md "Failures": which of Cline's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

export const failures = {
  auth: { class: 'auth', code: 'auth', description: 'a fatal agent error with `errorClass` `auth`' },
  ...messageFailures,
} as const satisfies FailureRows;
