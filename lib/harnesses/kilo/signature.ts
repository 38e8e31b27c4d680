/**
 * Kilo writes OpenCode's stream (docs/harnesses/kilo.md), so `harness: 'auto'` places both with
 * OpenCode's signature, then reads on until a record says which fork wrote it: Kilo's
 * `step_finish` carries `part.metrics`, its `error` may be a plain string, and some tools are one
 * fork's only.
 */
import { isObject, type JsonObject } from '../../kernel/json.js';

/** Tools only Kilo offers (difference 1), and only OpenCode (its `apply_patch`, `lsp`, ...). */
const KILO_TOOLS = new Set(['board_post', 'board_read', 'kilo_local_recall', 'schedule_wakeup', 'cancel_wakeup']);
const OPENCODE_TOOLS = new Set(['apply_patch', 'lsp', 'agent_manager', 'todo']);

/** OpenCode or Kilo, from a record of their shared stream, once one says; undefined while none has. */
export function openCodeOrKilo(record: JsonObject): 'opencode' | 'kilo' | undefined {
  const part = isObject(record.part) ? record.part : undefined;
  if (record.type === 'step_finish' && part) return isObject(part.metrics) ? 'kilo' : 'opencode';
  if (record.type === 'error' && typeof record.error === 'string') return 'kilo';
  const tool = typeof part?.tool === 'string' ? part.tool.toLowerCase() : undefined;
  if (tool !== undefined && KILO_TOOLS.has(tool)) return 'kilo';
  if (tool !== undefined && OPENCODE_TOOLS.has(tool)) return 'opencode';
  return undefined;
}
