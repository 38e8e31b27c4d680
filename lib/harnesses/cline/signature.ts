/** How `harness: 'auto'` tells Cline's `--json` stream: its wrapped agent and team events, hooks and run records. */
import type { Signature } from '../../kernel/harness.js';
import { isObject } from '../../kernel/json.js';

export const signature: Signature = {
  shape:
    '`agent_event` or `team_event` with an `event` object, `hook_event` with `hookEventName`, `run_start` with ' +
    '`providerId`, `run_result` with `finishReason`',
  matches: (record) =>
    ((record.type === 'agent_event' || record.type === 'team_event') && isObject(record.event)) ||
    (record.type === 'hook_event' && typeof record.hookEventName === 'string') ||
    (record.type === 'run_start' && 'providerId' in record) ||
    (record.type === 'run_result' && 'finishReason' in record),
};
