/**
 * How `harness: 'auto'` tells OpenCode's stream, which its fork Kilo writes too
 * (docs/harnesses/kilo.md): the records with a `sessionID`; then it reads on until a record says
 * which fork wrote it: Kilo's `step_finish` carries `part.metrics`, its `error` may be a plain
 * string, and some tools are one fork's only. A stream that never says is OpenCode's: Kilo's
 * differences are in tools and errors.
 */
import type { Signature } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';

const TYPES = new Set(['step_start', 'step_finish', 'text', 'reasoning', 'tool_use', 'error']);

/** Tools only Kilo offers (docs/harnesses/kilo.md, difference 1), and only OpenCode (its `apply_patch`, `lsp`, ...). */
const KILO_TOOLS = new Set(['board_post', 'board_read', 'kilo_local_recall', 'schedule_wakeup', 'cancel_wakeup']);
const OPENCODE_TOOLS = new Set(['apply_patch', 'lsp', 'agent_manager', 'todo']);

/** OpenCode or Kilo, from a record of their shared stream, once one says; undefined while none has. */
function openCodeOrKilo(record: JsonObject): 'opencode' | 'kilo' | undefined {
  const part = isObject(record.part) ? record.part : undefined;
  if (record.type === 'step_finish' && part) return isObject(part.metrics) ? 'kilo' : 'opencode';
  if (record.type === 'error' && typeof record.error === 'string') return 'kilo';
  const tool = typeof part?.tool === 'string' ? part.tool.toLowerCase() : undefined;
  if (tool !== undefined && KILO_TOOLS.has(tool)) return 'kilo';
  if (tool !== undefined && OPENCODE_TOOLS.has(tool)) return 'opencode';
  return undefined;
}

export const signature: Signature = {
  shape: '`step_start`, `text`, `tool_use`, ... with `sessionID` (OpenCode, or Kilo)',
  matches: (record) => typeof record.type === 'string' && TYPES.has(record.type) && 'sessionID' in record,
  tellApart: openCodeOrKilo,
};
