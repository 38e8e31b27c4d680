/**
 * Claude Code, `claude --print --output-format stream-json --verbose`: docs/harnesses/claude-code.md's
 * "Raw event stream" and "Normalized mapping" tables, as tables.
 *
 * The records, content blocks and tool pairing are the stream-json dialect Qwen Code shares
 * (dialect.ts): text and thinking blocks are joined per message (one API message arrives as
 * several `assistant` lines sharing `message.id`), and a `tool_use` waits by its id for its
 * `tool_result`. What is Claude Code's own is here: its system subtypes, `rate_limit_event`,
 * the Read recovered from an unpaired result, and its `result` (token classes, cost).
 */
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { addTokens, amount, tokenCount } from '../../kernel/metrics.js';
import { stringField } from '../../kernel/tool-rules.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { permissionDenied } from '../../kernel/permission-denied.js';
import { recordRows, type RecordRule } from '../../kernel/record-table.js';
import { bySubtype, dialect, endRun, errorCode, errorMessage, parentToolUse } from './dialect.js';
import { modelCalls } from './model-calls.js';
import { claudeTokens, runTotals } from './tokens.js';
import { orchestration } from './orchestration.js';
import { shellDirectories } from './shell-directory.js';
import { decisions } from './decisions.js';

/** docs/harnesses/claude-code.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  system: {
    handling:
      "session metadata: init's `cwd` resolves relative paths and starts the shell directory; init, status and " +
      'thinking_tokens emit no event; api_retry is a warning; permission_denied (a call the permission mode ' +
      'refused) is a `permission_denied` warning; task_started and task_notification of a subagent are ' +
      'orchestration, its task_progress and task_updated consumed; any other subtype is unknown',
    rules: {
      init: 'system/init: consumed',
      status: 'system/status: consumed',
      thinkingTokens: 'system/thinking_tokens: consumed',
      permissionDenied: 'system/permission_denied: warning',
      apiRetry: 'system/api_retry: warning (code `api_retry`, the attempt, status and error)',
      taskStarted:
        'system/task_started of a `local_agent` or naming an Agent/Task call: orchestration `subagent_started` ' +
        '(`subagent_id` = `tool_use_id`, `subagent_name` = `subagent_type`); the call and its result consumed',
      taskNotification:
        "system/task_notification of a subagent's task: orchestration `subagent_completed` (status `completed`), " +
        'else `subagent_failed`',
      taskConsumed: "system/task_progress, task_updated of a subagent's task: consumed",
      taskOther: 'system/task_*, any other task (a background Bash): unknown',
      other: 'system, other subtype: unknown',
    },
  },
  assistant: {
    handling:
      'text blocks joined per message -> agent; thinking -> reasoning; redacted_thinking consumed; tool_use ' +
      'recorded until its result',
    rules: {
      blocks: 'assistant',
      apiError:
        "assistant, the CLI's own report of a failed API request (`is_api_error_message`, model `<synthetic>`): " +
        'error (`message` its text, `code` its `error`), not agent',
      malformed: 'assistant, malformed: unknown',
    },
  },
  user: {
    handling:
      'tool_result blocks resolve a recorded tool use (the tool table); text (echoed prompt, injected context) ' +
      "emits nothing; with the trace on, each `tool_result_meta[].permission_decision` is the call's " +
      "`permission_resolved` (unless the caller's answer already was)",
    rules: { blocks: 'user', text: 'user text: consumed', malformed: 'user, malformed: unknown' },
  },
  rate_limit_event: {
    handling: 'consumed while `allowed`; any other status is a warning (code `rate_limit_<status>`)',
    rules: { allowed: 'rate_limit_event allowed: consumed', other: 'rate_limit_event not allowed: warning' },
  },
  result: {
    handling:
      'the terminal record: usage, cost, turns, duration and final output go to the metrics; only a reported error ' +
      'is an event (error)',
    rules: {
      success: 'result: consumed',
      error: 'result reporting an error: error',
      repeated: 'result repeating the API error message already reported: consumed',
    },
  },
  control_request: {
    handling: "the control protocol of a permissions 'ask' run (its client answers the request): consumed",
    rules: { consumed: 'control_request: consumed' },
  },
  control_cancel_request: {
    handling: "the control protocol of a permissions 'ask' run (its client withdraws the request): consumed",
    rules: { consumed: 'control_cancel_request: consumed' },
  },
  control_response: {
    handling: "the control protocol of a permissions 'ask' run: consumed",
    rules: { consumed: 'control_response: consumed' },
  },
  stream_event: {
    handling: 'partial telemetry that the completed assistant and user records restate: consumed',
    rules: { consumed: 'stream_event: consumed' },
  },
});

export function correlator(run: RunContext): Correlator {
  const recover = readRecovery(run);
  const stream = dialect(run, records, {
    joinText: 'message',
    unpaired: (block, record, is_success) =>
      tasks.consumed(block, record, is_success) || recover(block, record, is_success),
    directories: shellDirectories(run),
    modelCalls: run.trace && modelCalls(run.trace, run.limits, parentToolUse, false),
  });
  const tasks = orchestration(run, stream, records.system.rules);
  // The text of the last API error message reported: the error `result` that follows repeats it.
  let lastApiError: string | undefined;
  const runTotal = run.trace && runTotals(run.trace);

  // `system` subtypes: init's cwd resolves relative paths; these emit no event.
  const system = bySubtype(
    run,
    new Map<string, RecordRule>([
      ['init', (record) => (run.reportCwd(record.cwd), records.system.rules.init)],
      ['status', () => records.system.rules.status],
      ['thinking_tokens', () => records.system.rules.thinkingTokens],
      ['permission_denied', (record) => refused(run, record)],
      ['api_retry', apiRetry],
      ...tasks.subtypes,
    ]),
    records.system.rules.other,
  );

  function apiRetry(record: JsonObject): string {
    run.emit({ type: 'warning', code: 'api_retry', message: describeRetry(record) });
    return records.system.rules.apiRetry;
  }

  function assistant(record: JsonObject): string {
    if (record.is_api_error_message !== true) {
      tasks.assistant(record);
      return stream.assistant(record);
    }
    const text = apiErrorText(record);
    lastApiError = text;
    run.emit({ type: 'error', message: text || 'Claude Code API error', code: stringField(record, 'error') });
    return records.assistant.rules.apiError;
  }

  function rateLimitEvent(record: JsonObject): string {
    const info = isObject(record.rate_limit_info) ? record.rate_limit_info : {};
    if (info.status === 'allowed') return records.rate_limit_event.rules.allowed;
    const status = typeof info.status === 'string' ? info.status : 'unknown';
    run.emit({ type: 'warning', code: `rate_limit_${status}`, message: describeRateLimit(status, info) });
    return records.rate_limit_event.rules.other;
  }

  function result(record: JsonObject): string {
    const { failed, subtype } = endRun(run, record);
    // Each result's usage is its own query's; total_cost_usd is the process's running total.
    if (isObject(record.usage)) addTokens(run.metrics.tokens, claudeTokens(record.usage));
    const cost = amount(record.total_cost_usd);
    if (cost !== undefined) run.metrics.cost = cost;
    runTotal?.(record);
    if (!failed) return records.result.rules.success;
    const message = errorMessage(record, subtype, 'Claude Code');
    if (message === lastApiError) return records.result.rules.repeated;
    run.emit({ type: 'error', message, code: errorCode(record, subtype) });
    return records.result.rules.error;
  }

  return stream.correlator<typeof records>({
    system,
    assistant,
    user: (record) => (decisions(run, record), stream.user(record)),
    rate_limit_event: rateLimitEvent,
    result,
    control_request: () => records.control_request.rules.consumed,
    control_cancel_request: () => records.control_cancel_request.rules.consumed,
    control_response: () => records.control_response.rules.consumed,
    stream_event: () => records.stream_event.rules.consumed,
  });
}

/** `system/permission_denied {tool_name, tool_use_id, message}`: the call's own tool_result follows, an error. */
function refused(run: RunContext, record: JsonObject): string {
  const tool = typeof record.tool_name === 'string' ? record.tool_name : 'a tool';
  permissionDenied(run, { tool, reason: typeof record.message === 'string' ? record.message : '' });
  return records.system.rules.permissionDenied;
}

/** A Read result with no recorded call still names its file (docs/harnesses/claude-code.md "Tool mapping"). */
export function readRecovery(run: RunContext) {
  return (block: JsonObject, record: JsonObject, is_success: boolean): boolean => {
    const meta = record.tool_use_result;
    const file = isObject(meta) && isObject(meta.file) ? meta.file : undefined;
    if (!file || typeof file.filePath !== 'string' || file.filePath === '') return false;
    const input = { file_path: file.filePath, offset: file.startLine, limit: file.numLines };
    run.tool({ name: 'Read', input, is_success, result: meta, output: block.content, raw: { tool_result: block } });
    return true;
  };
}

/** The text of the CLI's own API error message: its text blocks joined. */
export function apiErrorText(record: JsonObject): string {
  const content = isObject(record.message) ? record.message.content : undefined;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (isObject(block) && typeof block.text === 'string' ? block.text : '')).join('');
}

/** `api_retry`: `{attempt, max_retries, retry_delay_ms, error_status, error}`, in one line. */
function describeRetry(record: JsonObject): string {
  const details: string[] = [];
  const attempt = tokenCount(record.attempt);
  const max = tokenCount(record.max_retries);
  if (attempt !== undefined) details.push(max === undefined ? `attempt ${attempt}` : `attempt ${attempt} of ${max}`);
  const status = tokenCount(record.error_status);
  if (status !== undefined) details.push(`HTTP ${status}`);
  const error = stringField(record, 'error');
  if (error !== undefined) details.push(error);
  const delay = tokenCount(record.retry_delay_ms);
  if (delay !== undefined) details.push(`after ${delay} ms`);
  return `Claude Code retries the API request${details.length ? ` (${details.join(', ')})` : ''}`;
}

function describeRateLimit(status: string, info: JsonObject): string {
  const details: string[] = [];
  if (typeof info.rateLimitType === 'string') details.push(info.rateLimitType);
  if (typeof info.utilization === 'number') details.push(`${Math.round(info.utilization * 100)}% used`);
  if (typeof info.overageStatus === 'string') details.push(`overage ${info.overageStatus}`);
  if (typeof info.overageDisabledReason === 'string') details.push(info.overageDisabledReason);
  if (typeof info.resetsAt === 'number' && Math.abs(info.resetsAt) < 8.64e12)
    details.push(`resets ${new Date(info.resetsAt * 1000).toISOString()}`);
  return `Claude Code rate limit ${status}${details.length ? ` (${details.join(', ')})` : ''}`;
}
