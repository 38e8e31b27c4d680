/** How `harness: 'auto'` tells Copilot CLI's stream: dotted event types in an envelope with ids. */
import type { Signature } from '../../kernel/harness.js';
import { isObject } from '../../kernel/json.js';

export const signature: Signature = {
  shape: 'a dotted `type` with `data`, `id` and `parentId` (`session.skills_loaded`, ...)',
  matches: (record) =>
    typeof record.type === 'string' &&
    record.type.includes('.') &&
    isObject(record.data) &&
    typeof record.id === 'string' &&
    'parentId' in record,
};
