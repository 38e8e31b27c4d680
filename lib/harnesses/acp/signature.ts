/** How `harness: 'auto'` tells an ACP transcript: every message is JSON-RPC 2.0. */
import type { Signature } from '../../kernel/harness.js';

export const signature: Signature = {
  shape: 'a JSON-RPC 2.0 message (`"jsonrpc": "2.0"`)',
  matches: (record) => record.jsonrpc === '2.0',
};
