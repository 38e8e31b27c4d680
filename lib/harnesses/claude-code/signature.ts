/**
 * How `harness: 'auto'` tells Claude Code's stream: its `system` records, or the `result` of a run that failed at once.
 */
import type { Signature } from '../../kernel/harness.js';

export const signature: Signature = {
  shape:
    '`system` with a `subtype` and a `session_id`, or a `result` with `total_cost_usd` (a run that failed at once)',
  matches: (record) =>
    (record.type === 'system' && typeof record.subtype === 'string' && typeof record.session_id === 'string') ||
    (record.type === 'result' && 'total_cost_usd' in record),
};
