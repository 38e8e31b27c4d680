/** docs/harnesses/gemini.md "Failures": which of Gemini CLI's errors is which failure class, first match wins. */
import { messageFailures, type FailureRows } from '../../kernel/failures.js';

// Its errors carry no code that tells a failure's cause (or none at all): their message does.
export const failures = { ...messageFailures } as const satisfies FailureRows;
