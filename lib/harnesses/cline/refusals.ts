/**
 * Cline without auto-approval and without a TTY refuses every call that needs approval
 * (docs/harnesses/cline.md "Refused calls"): the call's `content_end` error says it "requires
 * approval in a TTY session", and the run is then aborted (`run_aborted`, exit 0).
 */
import { isObject, type JsonObject } from '../../kernel/json.js';
import type { Refusal } from '../../kernel/permission-denied.js';

/** The refusal a tool's `content_end` reports, if it reports one. */
export function refusalOf(tool: string, end: JsonObject): Refusal | undefined {
  const output = isObject(end.output) ? end.output : {};
  const error = [output.error, end.error].find(
    (text) => typeof text === 'string' && text.includes('requires approval'),
  );
  return typeof error === 'string' ? { tool, reason: error } : undefined;
}
