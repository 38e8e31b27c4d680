/**
 * Lines in Gemini CLI 0.61.0's shapes (docs/harnesses/gemini.md "Raw event stream"), authored for the rows no
 * capture covers and to pin each rule alone, and the run that reads them: what the rules tests (records, metrics,
 * tools, shell) share.
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'gemini';
export const cwd = '/ws';
export const at = '2026-12-01T00:00:00.000Z';

export const init = { type: 'init', timestamp: at, session_id: 'sess-1', model: 'gemini-2.5-flash' };
export const prompt = { type: 'message', timestamp: at, role: 'user', content: 'Do the thing.' };
export function say(content: string) {
  return { type: 'message', timestamp: at, role: 'assistant', content, delta: true };
}
export function use(tool_name: string, tool_id: string, parameters: unknown) {
  return { type: 'tool_use', timestamp: at, tool_name, tool_id, parameters };
}
export function ok(tool_id: string, output?: string) {
  return {
    type: 'tool_result',
    timestamp: at,
    tool_id,
    status: 'success',
    ...(output === undefined ? {} : { output }),
  };
}
export function failed(tool_id: string, type: string, message: string) {
  return { type: 'tool_result', timestamp: at, tool_id, status: 'error', output: message, error: { type, message } };
}
export function stats(
  total_tokens: number,
  input_tokens: number,
  output_tokens: number,
  cached: number,
  extra: Record<string, unknown> = {},
) {
  const counts = { total_tokens, input_tokens, output_tokens, cached, input: Math.max(0, input_tokens - cached) };
  return { ...counts, duration_ms: 1200, tool_calls: 2, models: { 'gemini-2.5-flash': counts }, ...extra };
}
export const success = { type: 'result', timestamp: at, status: 'success', stats: stats(120, 100, 20, 0) };

export const events = eventsOf({ harness, cwd });

/** The events of one call: its tool_use, then its result. */
export function call(name: string, parameters: unknown, result: (id: string) => unknown = (id) => ok(id)) {
  const id = `${name}__${name}_1796086709913_0`;
  return events(use(name, id, parameters), result(id));
}
