/**
 * docs/harnesses/cline.md's three tables as data: "Raw event stream" (the top-level `type`),
 * "`agent_event`" (its `event.type`) and "`team_event`" (its `event.type`). Every rule id is
 * distinct across the three, so the audit trail names one rule per line whatever table it is in.
 */
import { recordRows } from '../../kernel/record-table.js';

/** The "Raw event stream" table: one row per top-level `type`. */
export const records = recordRows({
  agent_event: {
    handling: 'by `event.type`, the `agent_event` table',
    rules: { malformed: 'agent_event without an event object with a string type: unknown' },
  },
  hook_event: {
    handling: 'consumed (agent and tool-call brackets; no names, inputs or results)',
    rules: { consumed: 'hook_event: consumed' },
  },
  team_event: {
    handling: 'by `event.type`, the `team_event` table',
    rules: { malformed: 'team_event without an event object with a string type: unknown' },
  },
  run_start: {
    handling: 'consumed; a non-empty `sessionId` is captured',
    rules: { consumed: 'run_start: consumed (session id when present)' },
  },
  run_result: {
    handling:
      'consumed for the metrics (final output `text`, turns `iterations`, duration `durationMs`, in error unless ' +
      '`finishReason` is `completed`). When `finishReason` is neither `completed` nor `aborted`: error, `message` = ' +
      '`text` (or `run finished with <finishReason>` when `text` is empty), `code` = `finishReason`, unless an error ' +
      'event with that same message was already emitted (then no event)',
    rules: {
      consumed: 'run_result completed/aborted: metrics',
      error: 'run_result failed: error',
      repeated: 'run_result failed, its error already emitted: metrics',
    },
  },
  run_aborted: {
    handling:
      'error, `message` = `message`, `code` = `reason` (`local_abort`, `external_abort`); after a refused call, the ' +
      "run's metrics say the refusal stopped it (`stopped_by_permission`)",
    rules: { error: 'run_aborted: error', malformed: 'run_aborted without message: unknown' },
  },
  run_abort_requested: {
    handling: 'warning, `message` = `abort requested: <reason>`, `code` = `abort_requested`',
    rules: { warning: 'run_abort_requested: warning' },
  },
  team_restored: { handling: 'consumed', rules: { consumed: 'team_restored: consumed' } },
  zen_dispatched: {
    handling: 'consumed; captures `sessionId`',
    rules: { consumed: 'zen_dispatched: session id' },
  },
  error: {
    handling:
      'error, `message` = `message`, unless an error event with that same message was already emitted (then ' +
      "consumed). Cline writes it on standard error (its fatal message, which repeats the run's error); it reaches " +
      'this mapping only when standard error is merged into the stream',
    rules: {
      error: 'error: error',
      repeated: 'error, already emitted: consumed',
      malformed: 'error without message: unknown',
    },
  },
  zen_error: {
    handling: 'error, `message` = `message` (standard error too)',
    rules: { error: 'zen_error: error', malformed: 'zen_error without message: unknown' },
  },
});

/** The "`agent_event`" table: one row per `event.type`. */
export const agentEvents = recordRows({
  content_start: {
    handling:
      'contentType `text` / `reasoning`: consumed, one record per streamed delta (kept, bounded, only to emit what ' +
      'the input ends before its `content_end` restates); `tool`: the call is recorded under `toolCallId` (no ' +
      'event, except `spawn_agent`: orchestration `subagent_started`); any other contentType: unknown',
    rules: {
      delta: 'content_start text/reasoning: pending',
      tool: 'content_start tool: recorded',
      subagent: 'content_start spawn_agent: subagent_started',
      malformedStart: 'content_start, malformed or other contentType: unknown',
    },
  },
  content_update: {
    handling: 'consumed (command output progress)',
    rules: { consumed: 'content_update: consumed' },
  },
  content_end: {
    handling:
      'contentType `text`: agent, `message` = `text` exactly as sent, when not empty or only whitespace; ' +
      '`reasoning`: reasoning on the same terms (Cline writes it after the text of the same model call; events keep ' +
      "the wire order); `tool`: the recorded call's event(s), from the tool table (a call never announced is " +
      'unknown), then, when its error says it requires approval, a `permission_denied` warning; `media`: unknown',
    rules: {
      agent: 'content_end text: agent',
      reasoning: 'content_end reasoning: reasoning',
      blank: 'content_end text/reasoning, blank: consumed',
      toolEnd: 'content_end tool: tool table',
      refused: 'content_end tool, refused for want of approval: tool table, warning',
      unannounced: 'content_end tool, never announced: unknown',
      malformedEnd: 'content_end media, malformed or other contentType: unknown',
    },
  },
  usage: {
    handling:
      'usage, one per model call: `input` = `inputTokens` - `cacheReadTokens` - `cacheWriteTokens` (at least 0), ' +
      '`output` = `outputTokens`, `cache_read`, `cache_write`, each when present; `cost` when above 0; none when ' +
      'every count is 0 and the cost absent or 0',
    rules: { usage: 'usage: usage', zero: 'usage, all zero: consumed' },
  },
  notice: {
    handling:
      '`noticeType` `status`: consumed; `recovery` or `stop`: warning, `message` = `message`, `code` = `reason` when ' +
      'present; anything else: unknown',
    rules: {
      status: 'notice status: consumed',
      noticeWarning: 'notice recovery/stop: warning',
      otherNotice: 'notice, other or malformed: unknown',
    },
  },
  error: {
    handling:
      '`recoverable: false`: error, `message` = `error.message`, `code` = `errorClass` when present (a sub-agent or ' +
      "teammate's fatal error too); `recoverable: true`: warning on the same terms",
    rules: {
      fatal: 'agent error, not recoverable: error',
      recoverable: 'agent error, recoverable: warning',
      noMessage: 'agent error without error.message: unknown',
    },
  },
  iteration_start: { handling: 'consumed', rules: { consumed: 'iteration_start: consumed' } },
  iteration_end: { handling: 'consumed', rules: { consumed: 'iteration_end: consumed' } },
  done: {
    handling: "consumed (it restates the agent's final text)",
    rules: { consumed: 'done: consumed' },
  },
  'any other event.type': { handling: 'unknown', rules: { unknown: 'agent_event, other event.type: unknown' } },
});

/** The team records the page consumes (a teammate's failure arrives as its own fatal `error`). */
const CONSUMED_TEAM = [
  'task_start',
  'task_end',
  'team_mission_log',
  'team_message',
  'team_task_updated',
  'team_task_completed',
  'run_queued',
  'run_started',
  'run_progress',
  'run_completed',
  'run_failed',
  'run_cancelled',
  'run_interrupted',
  'outcome_created',
  'outcome_fragment_attached',
  'outcome_fragment_reviewed',
  'outcome_finalized',
] as const;

/** The "`team_event`" table: one row per `event.type`. */
export const teamEvents = recordRows({
  teammate_spawned: {
    handling:
      'orchestration `subagent_started`, `subagent_id` = `agentId` (the team member id every team record and tool ' +
      'uses)',
    rules: { spawned: 'teammate_spawned: subagent_started', noAgent: 'teammate_spawned without agentId: unknown' },
  },
  teammate_shutdown: {
    handling:
      'orchestration `subagent_completed`, `subagent_id` = `agentId`, `is_success` true; only the first for that ' +
      '`agentId` (the second, `reason: "session_complete"`, is consumed)',
    rules: {
      shutdown: 'teammate_shutdown: subagent_completed',
      again: 'teammate_shutdown again: consumed',
      noShutdownAgent: 'teammate_shutdown without agentId: unknown',
    },
  },
  agent_event: {
    handling:
      "the teammate's `event`, mapped by the `agent_event` table, except `usage`: consumed (Cline also writes each " +
      'teammate usage as a top-level `agent_event`)',
    rules: {
      teammateUsage: 'team agent_event usage: consumed',
      noEvent: 'team agent_event without an event object with a string type: unknown',
    },
  },
  consumed: {
    handling: `consumed: ${CONSUMED_TEAM.map((type) => `\`${type}\``).join(', ')}`,
    rules: { consumed: 'team_event, team bookkeeping: consumed' },
  },
  'any other team event': { handling: 'unknown', rules: { unknown: 'team_event, other event.type: unknown' } },
});

export const consumedTeamTypes: ReadonlySet<string> = new Set(CONSUMED_TEAM);
