/** How `harness: 'auto'` tells Gemini CLI's stream: an `init` record without a subtype. */
import type { Signature } from '../../kernel/harness.js';

export const signature: Signature = {
  shape: '`{"type": "init", "session_id"}` (no subtype)',
  matches: (record) => record.type === 'init' && record.subtype === undefined && typeof record.session_id === 'string',
};
