/**
 * Lines in Claude Code's real shapes (docs/harnesses/claude-code.md), authored for the rows no real capture covers
 * and to pin each rule alone, and the run that reads them: what the rules tests (records, mapping, tools) share.
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'claude-code';
export const session = 'sess-1';
export const init = { type: 'system', subtype: 'init', cwd: '/ws', session_id: session, tools: ['Read'] };

export function assistant(id: string, ...content: unknown[]) {
  return {
    type: 'assistant',
    message: { id, type: 'message', role: 'assistant', content },
    parent_tool_use_id: null,
    session_id: session,
  };
}
export function user(content: unknown, extra: Record<string, unknown> = {}) {
  return { type: 'user', message: { role: 'user', content }, parent_tool_use_id: null, session_id: session, ...extra };
}
export function toolUse(id: string, name: string, input: unknown) {
  return { type: 'tool_use', id, name, input };
}
export function toolResult(id: string, content: unknown = 'ok', extra: Record<string, unknown> = {}) {
  return { tool_use_id: id, type: 'tool_result', content, ...extra };
}
/** A tool call and its result, as two lines. */
export function call(name: string, input: unknown, result: Record<string, unknown> = {}, tool_use_result?: unknown) {
  return [
    assistant(`msg_${name}`, toolUse(`toolu_${name}`, name, input)),
    user([toolResult(`toolu_${name}`, 'ok', result)], tool_use_result === undefined ? {} : { tool_use_result }),
  ];
}

/** The unknown event a call whose tool has no row becomes: the call and its result, verbatim. */
export function unknownCall(name: string, input: unknown) {
  return {
    type: 'unknown',
    raw: { tool_use: toolUse(`toolu_${name}`, name, input), tool_result: toolResult(`toolu_${name}`) },
  };
}

export const events = eventsOf({ harness });
