/** How `harness: 'auto'` tells pi's stream: it opens with its session header. */
import type { Signature } from '../../kernel/harness.js';

export const signature: Signature = {
  shape: '`{"type": "session", "version": N}`',
  matches: (record) => record.type === 'session' && typeof record.version === 'number',
};
