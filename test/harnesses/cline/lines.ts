/**
 * Lines in Cline 3.0.65's real shapes (docs/harnesses/cline.md, the lab captures), authored for the rows no
 * capture covers (teams, notices, aborts, zen, a cut stream) and to pin each rule alone, and the runs that read them:
 * what the rules tests (records, agent-events, tools) share.
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'cline';
const cwd = '/ws';
const ts = '2026-12-01T20:35:26.727Z';

export const line = (type: string, fields: Record<string, unknown> = {}) => ({ ts, type, ...fields });
export const agent = (event: Record<string, unknown>) => line('agent_event', { event });
export const team = (event: Record<string, unknown>) => line('team_event', { event });
export const start = (id: string, toolName: string, input: unknown) =>
  agent({ type: 'content_start', contentType: 'tool', toolName, toolCallId: id, input });
export const end = (id: string, toolName: string, output: unknown, more: Record<string, unknown> = {}) =>
  agent({ type: 'content_end', contentType: 'tool', toolName, toolCallId: id, output, ...more });
export const text = (kind: 'text' | 'reasoning', value: string) =>
  agent({ type: 'content_end', contentType: kind, [kind]: value });
export const delta = (kind: 'text' | 'reasoning', value: string) =>
  agent({ type: 'content_start', contentType: kind, [kind]: value });
export const result = (finishReason: string, more: Record<string, unknown> = {}) =>
  line('run_result', { finishReason, iterations: 1, durationMs: 10, text: 'Final.', ...more });

export const events = eventsOf({ harness, cwd });
/** The events of one call: its content_start and content_end. */
export async function call(toolName: string, input: unknown, output: unknown, more: Record<string, unknown> = {}) {
  return events(start('call_1', toolName, input), end('call_1', toolName, output, more));
}
