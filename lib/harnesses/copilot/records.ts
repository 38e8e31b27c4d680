/**
 * docs/harnesses/copilot.md "Raw event stream", as a table: one row per record `type`, every event type
 * Copilot CLI 1.0.102 can write (the 148 of its SDK schema, the three stream-only names and
 * the final `result`; test/fixtures/copilot/lab/event-types-1.0.102.txt). A type that is not
 * here is new, and becomes `unknown`. The rows the page names as a family (`permission.*`,
 * every other `session.` type, ...) also take the family's later types.
 */
import { recordRows, type RecordRows } from '../../kernel/record-table.js';

/** The rows that map a record to events, or feed the correlator's state. */
const mapped = recordRows({
  'assistant.message': {
    handling:
      'agent, with `data.content`, when it is not empty (a message whose only content is `toolRequests` gives no ' +
      "event; the calls are reported by `tool.*`); a subagent's message (with `agentId`) is an agent event too",
    rules: {
      agent: 'assistant.message: agent',
      empty: 'assistant.message, empty: consumed',
      malformed: 'assistant.message without content: unknown',
    },
  },
  'assistant.reasoning': {
    handling:
      'reasoning, with `data.content`, when it is not empty; Copilot writes it after the `assistant.message` of ' +
      'the same model call, and events keep the wire order',
    rules: {
      reasoning: 'assistant.reasoning: reasoning',
      empty: 'assistant.reasoning, empty: consumed',
      malformed: 'assistant.reasoning without content: unknown',
    },
  },
  'tool.execution_start': {
    handling: 'the call is recorded under `data.toolCallId` (`toolName`, `arguments`); no event',
    rules: {
      recorded: 'tool.execution_start: recorded',
      repeated: 'tool.execution_start, id already waiting: unknown',
      malformed: 'tool.execution_start without toolCallId or toolName: unknown',
    },
  },
  'tool.execution_complete': {
    handling:
      "the recorded call's event(s), from the tool table, with success from `data.success`, in completion order; a " +
      'call refused for want of approval (`data.error.code` `denied`) is also a `permission_denied` warning; a ' +
      'completion for a call never started is unknown',
    rules: {
      tools: 'tool.execution_complete: tool table',
      refused: 'tool.execution_complete denied: tool table, warning',
      unpaired: 'tool.execution_complete, call never started: unknown',
    },
  },
  'subagent.started': {
    handling: 'orchestration `subagent_started`, `subagent_id` = `data.toolCallId`, `subagent_name` = `data.agentName`',
    rules: {
      orchestration: 'subagent.started: orchestration',
      malformed: 'subagent.started without toolCallId: unknown',
    },
  },
  'subagent.completed': {
    handling: 'orchestration `subagent_completed` (same id and name)',
    rules: {
      orchestration: 'subagent.completed: orchestration',
      malformed: 'subagent.completed without toolCallId: unknown',
    },
  },
  'subagent.failed': {
    handling: 'orchestration `subagent_failed` (same id and name)',
    rules: {
      orchestration: 'subagent.failed: orchestration',
      malformed: 'subagent.failed without toolCallId: unknown',
    },
  },
  'session.error': {
    handling: 'error, `message` = `data.message`, `code` = `data.errorType` (`authentication`, `query`, ...)',
    rules: { error: 'session.error: error', malformed: 'session.error without message: unknown' },
  },
  'session.warning': {
    handling: 'warning, `message` = `data.message`, `code` = `data.warningType`',
    rules: { warning: 'session.warning: warning', malformed: 'session.warning without message: unknown' },
  },
  'session.info': {
    handling:
      'with `data.infoType` `model_retry`: warning, `message` = `data.message`, `code` = `model_retry` (a failed ' +
      'model call that Copilot retries; one per retry); any other `infoType`: consumed (notices such as ' +
      '`file_created`)',
    rules: {
      retry: 'session.info model_retry: warning',
      notice: 'session.info, other infoType: consumed',
      malformed: 'session.info model_retry without message: unknown',
    },
  },
  abort: {
    handling: 'error, `message` = `aborted: <data.reason>`, `code` = `abort`',
    rules: { error: 'abort: error' },
  },
  'assistant.usage': {
    handling:
      'usage, one per model call, summed into the metrics (token classes under "Metrics"); not written by 1.0.102 ' +
      'in this mode',
    rules: { usage: 'assistant.usage: usage', malformed: 'assistant.usage without token counts: unknown' },
  },
  result: {
    handling:
      'consumed for the metrics (session id, exit code, durations); when `exitCode` is not 0 and the stream has ' +
      'had no error event, one error, `message` = `copilot exited with code N`, `code` = `exit_code`, carrying ' +
      'the session id just captured',
    rules: { metrics: 'result: metrics', error: 'result, non-zero exit and no error before: error' },
  },
  'session.skills_loaded': {
    handling: "consumed; the skills it lists (`name`, `path`) locate the `skill` tool's file",
    rules: { skills: 'session.skills_loaded: skill paths' },
  },
  'skill.invoked': {
    handling: "consumed; its `name` and `path` locate the `skill` tool's file",
    rules: { skills: 'skill.invoked: skill path' },
  },
  'external_tool.requested': {
    handling: 'unknown (a tool served by an SDK host)',
    rules: { unknown: 'external_tool.requested: unknown' },
  },
  'external_tool.completed': {
    handling: 'unknown (a tool served by an SDK host)',
    rules: { unknown: 'external_tool.completed: unknown' },
  },
});

/** Rows that consume each of `types`, with the page's reason; each type is its own rule, for the audit trail. */
function consumed<const Types extends readonly string[]>(handling: string, types: Types) {
  return Object.fromEntries(types.map((type) => [type, { handling, rules: { consumed: `${type}: consumed` } }])) as {
    readonly [Type in Types[number]]: {
      readonly handling: string;
      readonly rules: { readonly consumed: `${Type}: consumed` };
    };
  };
}

/** docs/harnesses/copilot.md "Consumed records", in the page's groups. */
export const consumedRecords = recordRows({
  ...consumed('consumed: a delta the complete record restates, or stream bookkeeping', [
    'assistant.message_start',
    'assistant.message_delta',
    'assistant.reasoning_delta',
    'assistant.tool_call_delta',
    'assistant.streaming_delta',
    'assistant.turn_start',
    'assistant.turn_end',
    'assistant.turn_retry',
    'assistant.idle',
    'assistant.intent',
    'assistant.server_tool_progress',
    'assistant.fusion_phase_activity',
    'assistant.fusion_phase_completed',
    'assistant.fusion_phase_failed',
    'assistant.fusion_phase_started',
    'assistant.fusion_phase_*',
  ]),
  ...consumed(
    'consumed: model-call telemetry (a failure that matters is reported by `session.info` `model_retry` and ' +
      '`session.error`)',
    ['model.call_start', 'model.call_finished', 'model.call_failure', 'model.call_final_result'],
  ),
  ...consumed('consumed: tool progress (the call is reported at its `tool.execution_complete`)', [
    'tool.execution_partial_result',
    'tool.execution_progress',
    'tool.shell_output',
    'tool.user_requested',
    'tool_search.activated',
  ]),
  ...consumed('consumed: subagent set-up (`subagent.started`, `completed` and `failed` report the subagent)', [
    'subagent.selected',
    'subagent.deselected',
    'subagent.configured',
  ]),
  ...consumed('consumed: messages to the agent', [
    'user.message',
    'pending_messages.modified',
    'system.message',
    'system.notification',
  ]),
  ...consumed('consumed: hooks', ['hook.start', 'hook.end', 'hook.progress']),
  ...consumed('consumed: permissions, and questions to the user or the host', [
    'permission.assentDetected',
    'permission.carriedForward',
    'permission.completed',
    'permission.contextualAuthorization',
    'permission.messageAuthorization',
    'permission.messageAuthorizationDegraded',
    'permission.messageAuthorizationRead',
    'permission.requested',
    'permission.*',
    'user_input.requested',
    'user_input.completed',
    'user_input.*',
    'elicitation.requested',
    'elicitation.completed',
    'elicitation.*',
    'sampling.requested',
    'sampling.completed',
    'sampling.*',
    'exit_plan_mode.requested',
    'exit_plan_mode.completed',
    'exit_plan_mode.*',
    'auto_mode_switch.requested',
    'auto_mode_switch.completed',
    'auto_mode_switch.*',
    'session_limits_exhausted.requested',
    'session_limits_exhausted.completed',
    'session_limits_exhausted.*',
    'human_response.recorded',
    'ui.ephemeral_query',
  ]),
  ...consumed('consumed: commands and capabilities', [
    'command.queued',
    'command.execute',
    'command.completed',
    'commands.changed',
    'capabilities.changed',
  ]),
  ...consumed('consumed: MCP servers and apps', [
    'mcp.headers_refresh_completed',
    'mcp.headers_refresh_required',
    'mcp.oauth_completed',
    'mcp.oauth_recovery_completed',
    'mcp.oauth_required',
    'mcp.prompts.list_changed',
    'mcp.resources.list_changed',
    'mcp.tools.list_changed',
    'mcp.*',
    'mcp_app.tool_call_complete',
  ]),
  ...consumed('consumed: workflow runs', ['workflow.run_started', 'workflow.run_updated', 'workflow.run_settled']),
  ...consumed(
    'consumed: session bookkeeping (every `session.` type but `session.error`, `session.warning`, `session.info`)',
    [
      'session.start',
      'session.resume',
      'session.idle',
      'session.shutdown',
      'session.title_changed',
      'session.tools_updated',
      'session.mcp_servers_loaded',
      'session.background_tasks_changed',
      'session.todos_changed',
      'session.plan_changed',
      'session.compaction_start',
      'session.compaction_complete',
      'session.usage_info',
      'session.model_change',
      'session.auto_mode_resolved',
      'session.auto_tier_recommendation',
      'session.auto_tier_switch_failed',
      'session.autopilot_objective_changed',
      'session.autopilot_stopped',
      'session.binary_asset',
      'session.canvas.closed',
      'session.canvas.opened',
      'session.canvas.recorded',
      'session.canvas.registry_changed',
      'session.canvas.removed',
      'session.canvas.unavailable',
      'session.completion_receipt',
      'session.context_changed',
      'session.context_cleared',
      'session.custom_agents_updated',
      'session.custom_notification',
      'session.extensions.attachments_pushed',
      'session.extensions_loaded',
      'session.fusion_completed',
      'session.fusion_resolved',
      'session.fusion_route_failed',
      'session.fusion_route_started',
      'session.handoff',
      'session.indexed_search',
      'session.managed_plugin_progress',
      'session.managed_settings_enforced',
      'session.managed_settings_resolved',
      'session.mcp_server_needs_reconnect',
      'session.mcp_server_removed',
      'session.mcp_server_status_changed',
      'session.mcp_server_tools_loaded',
      'session.mode_changed',
      'session.mode_notice_delivered',
      'session.model_deselected',
      'session.permission_recovery',
      'session.permissions_changed',
      'session.quota_observation',
      'session.remote_steerable_changed',
      'session.schedule_cancelled',
      'session.schedule_created',
      'session.schedule_rearmed',
      'session.session_limits_changed',
      'session.snapshot_rewind',
      'session.task_complete',
      'session.truncation',
      'session.usage_checkpoint',
      'session.workspace_file_changed',
      'session.*',
    ],
  ),
});

export const records = { ...mapped, ...consumedRecords } satisfies RecordRows;
