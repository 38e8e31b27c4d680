/**
 * JSON-RPC messages in the agents' real shapes (docs/harnesses/acp.md, the captures), authored for the rows no capture
 * covers and to pin each rule alone, and the runs that read them: what the rules tests (records, usage, updates,
 * tools, commands, bounded) share.
 */
import { bodies, jsonl, run } from '../../helpers.js';

export const harness = 'acp';
export const cwd = '/ws';

export const rpc = (message: Record<string, unknown>) => ({ jsonrpc: '2.0', ...message });
export const initialize = (name = 'test-agent') =>
  rpc({ id: 1, result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name, version: '1.0.0' } } });
export const sessionNew = rpc({ id: 2, result: { sessionId: 's1' } });
export const answer = (result: Record<string, unknown> = { stopReason: 'end_turn' }) => rpc({ id: 3, result });
export const update = (sessionUpdate: string, fields: Record<string, unknown> = {}) =>
  rpc({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate, ...fields } } });
export const text = (kind: string, chunk: string, fields: Record<string, unknown> = {}) =>
  update(kind, { content: { type: 'text', text: chunk }, ...fields });
export const say = (chunk: string, fields?: Record<string, unknown>) => text('agent_message_chunk', chunk, fields);
export const think = (chunk: string, fields?: Record<string, unknown>) => text('agent_thought_chunk', chunk, fields);
export const toolCall = (fields: Record<string, unknown>) => update('tool_call', { toolCallId: 't1', ...fields });
export const toolUpdate = (fields: Record<string, unknown>) =>
  update('tool_call_update', { toolCallId: 't1', ...fields });
export const permission = (toolCall: Record<string, unknown>) =>
  rpc({
    id: 0,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall, options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }] },
  });

export async function outcome(...lines: unknown[]) {
  return run(jsonl(...lines), { harness, cwd });
}
export async function events(...lines: unknown[]) {
  return bodies((await outcome(...lines)).events);
}
/**
 * The events of one tool call: announced with `fields`, then finished with `status` (and `end`'s fields), by an agent
 * named `agent`.
 */
export async function tool(
  fields: Record<string, unknown>,
  {
    status = 'completed',
    end = {},
    agent = 'test-agent',
  }: { status?: string; end?: Record<string, unknown>; agent?: string } = {},
) {
  return events(
    initialize(agent),
    sessionNew,
    toolCall({ status: 'pending', ...fields }),
    toolUpdate({ status, ...end }),
  );
}
