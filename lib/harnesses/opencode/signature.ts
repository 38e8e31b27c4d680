/**
 * How `harness: 'auto'` tells OpenCode's stream, which its fork Kilo writes too: the records with a
 * `sessionID`; which fork wrote them, the first record that says (lib/harnesses/kilo/signature.ts).
 * A stream that never says is OpenCode's: Kilo's differences are in tools and errors.
 */
import type { Signature } from '../../kernel/harness.js';
import { openCodeOrKilo } from '../kilo/signature.js';

const TYPES = new Set(['step_start', 'step_finish', 'text', 'reasoning', 'tool_use', 'error']);

export const signature: Signature = {
  shape: '`step_start`, `text`, `tool_use`, ... with `sessionID` (OpenCode, or Kilo)',
  matches: (record) => typeof record.type === 'string' && TYPES.has(record.type) && 'sessionID' in record,
  tellApart: openCodeOrKilo,
};
