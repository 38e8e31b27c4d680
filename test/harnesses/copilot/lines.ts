/**
 * Lines in Copilot 1.0.102's real shapes (docs/harnesses/copilot.md, the lab captures), authored for the rows no
 * capture covers (`assistant.usage`, `abort`, `subagent.failed`, `session.warning`, ...) and to pin each rule alone,
 * and the runs that read them: what the rules tests (records, session, tools) share.
 */
import { eventsOf, jsonl, run } from '../../helpers.js';

export const harness = 'copilot';
export const cwd = '/ws';
export const sessionId = '58c80243-8c7d-4f1f-86d8-6352881ca8d8';

let sequence = 0;
/** A session event as Copilot writes it: type, data, id, timestamp, parentId; `extra` adds `agentId`, `ephemeral`. */
export function event(type: string, data: unknown = {}, extra: Record<string, unknown> = {}) {
  sequence++;
  return {
    type,
    data,
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    timestamp: '2026-12-01T00:56:14.553Z',
    parentId: null,
    ...extra,
  };
}
export function message(content: unknown, extra: Record<string, unknown> = {}) {
  return event(
    'assistant.message',
    { messageId: 'm1', content, toolRequests: [], turnId: '0', apiCallId: 'chatcmpl_0001' },
    extra,
  );
}
export function start(toolCallId: string, toolName: string, args: unknown, extra: Record<string, unknown> = {}) {
  return event('tool.execution_start', { toolCallId, toolName, arguments: args, turnId: '0' }, extra);
}
export function complete(toolCallId: string, success: unknown, more: Record<string, unknown> = {}) {
  return event('tool.execution_complete', { toolCallId, success, toolTelemetry: { properties: {} }, ...more });
}
export function result(
  exitCode: unknown,
  usage: unknown = { premiumRequests: 0, totalApiDurationMs: 194, sessionDurationMs: 1657 },
) {
  return { type: 'result', timestamp: '2026-12-01T00:56:14.733Z', sessionId, exitCode, usage };
}
/** A call started and completed, with its completion's extra fields. */
export function call(toolName: string, args: unknown, success: unknown, more: Record<string, unknown> = {}) {
  const id = `call_${++sequence}`;
  return [start(id, toolName, args), complete(id, success, more)];
}

export const events = eventsOf({ harness, cwd });
export async function rules(...records: unknown[]) {
  return (await run(jsonl(...records), { harness, cwd })).rules;
}
