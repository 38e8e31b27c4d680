/** docs/harnesses/codex.md "Failures": which of Codex's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

// Its errors carry no code that tells a failure's cause (or none at all): their message does.
export const failures = { ...messageFailures } as const satisfies FailureRows;
