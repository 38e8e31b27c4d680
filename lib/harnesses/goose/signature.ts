/** How `harness: 'auto'` tells Goose's stream: its message, notification and complete records. */
import type { Signature } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';

const TYPES = new Set(['message', 'notification', 'complete', 'model_change']);

function isGooseMessage(record: JsonObject): boolean {
  return isObject(record.message) && typeof record.message.role === 'string' && Array.isArray(record.message.content);
}

export const signature: Signature = {
  shape: '`message` with `message.role` and `content` blocks, `notification`, `complete`',
  matches: (record) =>
    typeof record.type === 'string' && TYPES.has(record.type) && (record.type !== 'message' || isGooseMessage(record)),
};
