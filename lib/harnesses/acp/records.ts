/**
 * ACP agents, the agent's stdout (docs/harnesses/acp.md): its "Raw stream" and
 * "`session/update` kinds" tables, as tables, and the row of a line. A message has no `type`: its
 * row comes from its members (a response has `id` and `result` or `error`, a request `method` and
 * `id`, a notification `method` alone).
 */
import { isObject, type JsonObject } from '../../kernel/json.js';
import { recordRows } from '../../kernel/record-table.js';

/** docs/harnesses/acp.md "Raw stream: JSON-RPC messages", one row per kind of message. */
export const records = recordRows({
  'session/new response': {
    handling: 'response with `result.sessionId` (`session/new`): captures the session id; no event',
    rules: { session: 'response with sessionId: session id' },
  },
  'session/prompt response': {
    handling:
      'response with `result.stopReason` (`session/prompt`): the end of the turn: open spans and tool calls ' +
      'flushed, then the stop reason (a warning unless `end_turn`) and usage',
    rules: { end: 'response with stopReason: end of turn' },
  },
  'other response': {
    handling:
      'any other response with a `result` (`initialize`, `session/set_model`, ...): consumed; the `initialize` ' +
      "result's `agentInfo.name` names the agent",
    rules: { consumed: 'response with another result: consumed' },
  },
  'error response': {
    handling: 'response with `error`: error, `message` = `error.message`, `code` = `error.code` as a string',
    rules: { error: 'response with error: error', malformed: 'response with error, no message: unknown' },
  },
  'session/update': {
    handling: 'notification `session/update`: by `params.update.sessionUpdate` (the `session/update` table)',
    rules: { malformed: 'session/update without an update: unknown' },
  },
  'session/request_permission': {
    handling:
      'request `session/request_permission`: its `params.toolCall` merged into the tool call record like a ' +
      '`tool_call_update` (it may create it); no event of its own',
    rules: {
      open: 'request_permission: tool call record',
      finished: 'request_permission: tool call finished, tool table',
      closed: 'request_permission, tool call already finished: consumed',
      malformed: 'request_permission without a toolCall: unknown',
    },
  },
  'ACP method': {
    handling:
      'request `fs/*` or `terminal/*` (not offered: the agent broke the protocol), any other request or ' +
      "notification in ACP's namespaces (`session/...`, `authenticate`, ...): unknown, with the message",
    rules: { unknown: 'other ACP request or notification: unknown' },
  },
  'extension method': {
    handling:
      "request or notification outside ACP's namespaces (`_`-prefixed, or vendor-named: Qwen's " +
      '`craft/drainMidTurnQueue`): consumed',
    rules: { consumed: 'extension method: consumed' },
  },
  'not JSON-RPC': {
    handling: 'a JSON object that is not a JSON-RPC message: unknown',
    rules: { unknown: 'not a JSON-RPC message: unknown' },
  },
});

/** docs/harnesses/acp.md "`session/update` kinds", one row per `sessionUpdate`. */
export const updates = recordRows({
  agent_message_chunk: {
    handling:
      'text appended to the open agent span; a `_meta.usage` is a usage event for one model call, after the span',
    rules: {
      text: 'agent_message_chunk: agent span',
      usage: 'agent_message_chunk with usage: agent span, usage',
      other: 'agent_message_chunk, not text: unknown',
    },
  },
  agent_thought_chunk: {
    handling:
      'text appended to the open reasoning span; a `_meta.usage` is a usage event for one model call, after the span',
    rules: {
      text: 'agent_thought_chunk: reasoning span',
      usage: 'agent_thought_chunk with usage: reasoning span, usage',
      other: 'agent_thought_chunk, not text: unknown',
    },
  },
  user_message_chunk: {
    handling: 'consumed (the prompt echoed back, or history replayed)',
    rules: { consumed: 'user_message_chunk: consumed' },
  },
  tool_call: {
    handling:
      "the tool call record, by `toolCallId`: each non-null field replaces the record's; at `completed` or " +
      '`failed`, the tool table',
    rules: {
      open: 'tool_call: record',
      finished: 'tool_call: finished, tool table',
      closed: 'tool_call, already finished: consumed',
      malformed: 'tool_call without toolCallId: unknown',
    },
  },
  tool_call_update: {
    handling:
      "the tool call record, by `toolCallId` (it may create it): each non-null field replaces the record's; at " +
      '`completed` or `failed`, the tool table',
    rules: {
      open: 'tool_call_update: record',
      finished: 'tool_call_update: finished, tool table',
      closed: 'tool_call_update, already finished: consumed',
      malformed: 'tool_call_update without toolCallId: unknown',
    },
  },
  plan: { handling: "consumed: the agent's to-do list, internal state", rules: { consumed: 'plan: consumed' } },
  usage_update: {
    handling: "consumed; the last `cost.amount` in `USD` is the run metrics' cost",
    rules: { consumed: 'usage_update: consumed' },
  },
  available_commands_update: {
    handling: 'consumed: session state',
    rules: { consumed: 'available_commands_update: consumed' },
  },
  current_mode_update: { handling: 'consumed: session state', rules: { consumed: 'current_mode_update: consumed' } },
  config_option_update: { handling: 'consumed: session state', rules: { consumed: 'config_option_update: consumed' } },
  session_info_update: { handling: 'consumed: session state', rules: { consumed: 'session_info_update: consumed' } },
  compaction_update: { handling: 'consumed: session state', rules: { consumed: 'compaction_update: consumed' } },
  compaction_summary_chunk: {
    handling: 'consumed: session state',
    rules: { consumed: 'compaction_summary_chunk: consumed' },
  },
  notice: {
    handling:
      'warning, `message` = `title`, then `": "` and `description` when present; `severity: "error"` makes it an error',
    rules: {
      warning: 'notice: warning',
      error: 'notice with severity error: error',
      malformed: 'notice without a title: unknown',
    },
  },
  'any other kind': {
    handling:
      'unknown, with the whole notification (`subagent_update`, `session_message`, `plan_update`, a future kind)',
    rules: { unknown: 'session/update, other kind: unknown' },
  },
});

type Row = keyof typeof records;

/** Methods in ACP's own namespaces (the SDK's method tables); anything else is an extension. */
const ACP_METHOD = /^(?:(?:session|fs|terminal|elicitation|\$)\/|(?:initialize|authenticate|logout)$)/;

/** docs/harnesses/acp.md: a line is classified by its members. */
export function messageRow(message: JsonObject): Row {
  const hasId = Object.hasOwn(message, 'id');
  const { method } = message;
  if (typeof method === 'string') {
    if (method === 'session/update' && !hasId) return 'session/update';
    if (method === 'session/request_permission' && hasId) return 'session/request_permission';
    return ACP_METHOD.test(method) ? 'ACP method' : 'extension method';
  }
  if (method === undefined && hasId && Object.hasOwn(message, 'error')) return 'error response';
  if (method === undefined && hasId && Object.hasOwn(message, 'result')) {
    const { result } = message;
    if (isObject(result) && typeof result.sessionId === 'string') return 'session/new response';
    if (isObject(result) && typeof result.stopReason === 'string') return 'session/prompt response';
    return 'other response';
  }
  return 'not JSON-RPC';
}
