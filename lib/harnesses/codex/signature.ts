/** How `harness: 'auto'` tells Codex's stream: its thread, turn and item records. */
import type { Signature } from '../../kernel/harness.js';

const TYPES = new Set([
  'thread.started',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'item.started',
  'item.updated',
  'item.completed',
]);

export const signature: Signature = {
  shape: '`thread.started`, `turn.*` or `item.*`',
  matches: (record) => typeof record.type === 'string' && TYPES.has(record.type),
};
