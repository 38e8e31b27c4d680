/**
 * Qwen Code's session transcripts, `<runtime>/projects/<sanitized root>/chats/<sessionId>.jsonl` (subagents in
 * `subagents/<sessionId>/agent-<type>-<toolCallId>.jsonl`): the records of docs/harnesses/qwen.md "Session
 * transcripts". A record holds one model response or one tool's result as Gemini-style parts, restated as stdout's
 * content blocks (parts.ts) and read by the stdout dialect with the same tool table; the usage of every model request
 * is a `ui_telemetry` record, which stdout never has.
 */
import { basename, dirname, join } from 'node:path';
import type { Tokens } from '../../kernel/events.js';
import type { Correlator, Harness, RunContext } from '../../kernel/harness.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, excluding, tokenCount, tokensOf } from '../../kernel/metrics.js';
import { recordRows, type RecordRule } from '../../kernel/record-table.js';
import { envDir, transcriptFacts, type SessionFormat, type SessionLocation } from '../../kernel/session.js';
import { agentFiles, filesIn, namesIn } from '../../files/session-dirs.js';
import { stringField } from '../../kernel/tool-rules.js';
import { bySubtype, dialect, type DialectRows } from '../claude-code/dialect.js';
import { isApiError } from './correlate.js';
import { modelBlocks, responseBlocks, taskNotice, type Restated, type TaskNotice } from './parts.js';
import { backgroundAgents } from '../claude-code/background-agents.js';
import { tools } from './tools.js';
import { qwenTrace } from './trace.js';

/** The `system` subtypes Qwen Code 0.24.4 writes for itself (its ChatRecordingService): nothing to report. */
const bookkeeping = [
  'attribution_snapshot',
  'at_command',
  'branch_checkpoint',
  'chat_compression',
  'custom_title',
  'file_history_snapshot',
  'goal_state',
  'goal_turn_end',
  'omni_recall',
  'parent_session',
  'rewind',
  'session_artifact_event',
  'session_artifact_snapshot',
  'session_model',
  'session_source',
  'session_sources_snapshot',
  'slash_command',
  'turn_result',
  'user_text_elements',
];

/** The `user` subtypes that are text Qwen Code puts before the model (a cron job's, a goal's), not the user's. */
const injected = ['cron', 'goal_runtime'];

/** docs/harnesses/qwen.md "Session transcripts", one row per record `type`. */
const sessionRecords = recordRows({
  user: {
    handling:
      'the prompt (no `subtype`, or `mid_turn_user_message`: typed while a turn ran) and the text Qwen injects (`' +
      injected.join('`, `') +
      "`) emit nothing; `notification` carrying a background agent's `<task-notification>` is its " +
      "`subagent_completed` (`subagent_failed` unless its status is `completed`), as stdout's `task_notification`; " +
      "a monitor's is consumed; any other subtype, or a notification without a task, is unknown",
    rules: {
      prompt: 'user prompt: consumed',
      injected: 'user, injected text: consumed',
      notification: 'user/notification: orchestration',
      monitor: "user/notification, a monitor's: consumed",
      other: 'user, other subtype: unknown',
    },
  },
  assistant: {
    handling:
      "one model response, its `message.parts` read as stdout's blocks: a `thought` text -> reasoning, other " +
      'text (joined per record) -> agent, except an `[API Error: ...]` text -> error; a `functionCall` recorded ' +
      "until its result; any other part unknown. `usageMetadata` is not counted (the response's `ui_telemetry` is); " +
      'a record without `message` (a response with no content) is consumed',
    rules: {
      blocks: 'assistant',
      empty: 'assistant without message: consumed',
      malformed: 'assistant, malformed: unknown',
    },
  },
  tool_result: {
    handling:
      '`functionResponse` parts resolve the recorded call (the tool table), failed when the response is an `error` ' +
      'or `toolCallResult.status` is not `success`; the "launched" result of a background agent ' +
      "(`resultDisplay.executionMode: background`) is its `subagent_started`, as stdout's `task_started`",
    rules: {
      blocks: 'tool_result',
      launched: 'tool_result, background agent launched: orchestration',
      malformed: 'tool_result, malformed: unknown',
    },
  },
  system: {
    handling:
      "`ui_telemetry` `qwen-code.api_response` (one per model request, the subagents' and the memory extraction's " +
      'included) is a usage event; `qwen-code.api_error` a warning (code `api_error`); `qwen-code.tool_call` and ' +
      '`qwen-code.user_feedback` are consumed; the bookkeeping subtypes (`' +
      bookkeeping.join('`, `') +
      '`) are consumed; any other subtype or telemetry event is unknown',
    rules: {
      usage: 'system/ui_telemetry api_response: usage',
      apiError: 'system/ui_telemetry api_error: warning',
      telemetry: 'system/ui_telemetry tool_call, user_feedback: consumed',
      otherTelemetry: 'system/ui_telemetry, other event: unknown',
      bookkeeping: 'system, bookkeeping: consumed',
      other: 'system, other subtype: unknown',
    },
  },
});

const rows = sessionRecords;

/** The dialect's rules under this table's names: its `user` records are the restated tool results. */
const dialectRows: DialectRows = {
  assistant: { rules: { blocks: rows.assistant.rules.blocks, malformed: rows.assistant.rules.malformed } },
  user: {
    rules: {
      blocks: rows.tool_result.rules.blocks,
      text: rows.tool_result.rules.malformed,
      malformed: rows.tool_result.rules.malformed,
    },
  },
};

/**
 * One request's usage (`ui_telemetry` api_response): the input count includes the cached tokens and the output
 * count the thoughts, both reported apart here.
 */
function telemetryTokens(event: JsonObject): Tokens {
  const cached = tokenCount(event.cached_content_token_count);
  const thoughts = tokenCount(event.thoughts_token_count);
  return tokensOf({
    input: excluding(tokenCount(event.input_token_count), cached),
    cache_read: cached,
    output: excluding(tokenCount(event.output_token_count), thoughts),
    reasoning: thoughts,
  });
}

function sessionCorrelator(run: RunContext): Correlator {
  // Background agents launched, until their notification; monitor calls, by id (their notifications are not agents').
  const agents = backgroundAgents(run);
  const monitors = new BoundedMap<true>(run.limits);
  const traced = run.trace && qwenTrace(run.trace, run.limits);
  const stream = dialect(run, dialectRows, {
    // One record per model response: its text is one event.
    joinText: 'record',
    agentOf: traced?.sessionAgentOf,
    begins: true,
    textEvent: (text) => (isApiError(text) ? { type: 'error', message: text } : undefined),
  });

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  function restated(type: 'assistant' | 'user', { blocks, unread }: Restated, timestamp: unknown): string {
    // The record's time, for the trace.
    const rule = stream[type]({ type, timestamp, message: { content: blocks } });
    unread.forEach(unknown);
    return rule;
  }

  function parts(record: JsonObject): unknown[] | undefined {
    const parts = isObject(record.message) ? record.message.parts : undefined;
    return Array.isArray(parts) ? parts : undefined;
  }

  function assistant(record: JsonObject): string {
    if (record.message === undefined) return rows.assistant.rules.empty;
    const list = parts(record);
    if (list === undefined) {
      unknown(record);
      return rows.assistant.rules.malformed;
    }
    const model = modelBlocks(list);
    for (const block of model.blocks) {
      if (block.type === 'tool_use' && block.name === 'monitor' && typeof block.id === 'string')
        monitors.set(block.id, true);
      if (block.type === 'tool_use' && block.name === 'agent' && typeof block.id === 'string') traced?.spawn(block);
    }
    return restated('assistant', model, record.timestamp);
  }

  function toolResult(record: JsonObject): string {
    const list = parts(record);
    if (list === undefined) {
      unknown(record);
      return rows.tool_result.rules.malformed;
    }
    const result = isObject(record.toolCallResult) ? record.toolCallResult : {};
    const display = isObject(result.resultDisplay) ? result.resultDisplay : {};
    const id = stringField(result, 'callId');
    if (id !== undefined && display.type === 'task_execution' && display.executionMode === 'background') {
      // Its call and "launched" result say nothing more (stdout consumes them too); for the trace, the call ends.
      const tool = stream.dropCall(id);
      run.trace?.callEnded(id, tool ?? 'agent', true, undefined, record.timestamp);
      agents.started(id, stringField(display, 'subagentName'));
      return rows.tool_result.rules.launched;
    }
    return restated('user', responseBlocks(list, result.status), record.timestamp);
  }

  /** A monitor's notification (difference 10): its call was a `monitor`, or (a call never seen) a `mon_` task. */
  function isMonitors(notice: TaskNotice): boolean {
    if (agents.running(notice.toolUseId)) return false;
    return monitors.take(notice.toolUseId) !== undefined || notice.taskId?.startsWith('mon_') === true;
  }

  function user(record: JsonObject): string {
    if (record.subtype === undefined || record.subtype === 'mid_turn_user_message') return rows.user.rules.prompt;
    if (typeof record.subtype === 'string' && injected.includes(record.subtype)) return rows.user.rules.injected;
    const notice = record.subtype === 'notification' ? taskNotice(parts(record)) : undefined;
    if (notice === undefined) {
      unknown(record);
      return rows.user.rules.other;
    }
    if (isMonitors(notice)) return rows.user.rules.monitor;
    run.trace?.agentEnded(notice.toolUseId, notice.status === 'completed' ? 'completed' : 'failed', record.timestamp);
    agents.ended(notice.toolUseId, notice.status);
    return rows.user.rules.notification;
  }

  function telemetry(record: JsonObject): string {
    const event = isObject(record.systemPayload) ? record.systemPayload.uiEvent : undefined;
    if (!isObject(event)) {
      unknown(record);
      return rows.system.rules.otherTelemetry;
    }
    const name = event['event.name'];
    if (name === 'qwen-code.api_response') {
      const tokens = telemetryTokens(event);
      addTokens(run.metrics.tokens, tokens);
      run.emit({ type: 'usage', tokens }, traced?.apiResponse(record, event, tokens));
      return rows.system.rules.usage;
    }
    if (name === 'qwen-code.api_error') {
      const message = stringField(event, 'error_message') ?? 'API error';
      const status = tokenCount(event.status_code);
      run.emit({
        type: 'warning',
        code: 'api_error',
        message: `Qwen Code API error${status === undefined ? '' : ` (HTTP ${status})`}: ${message}`,
      });
      return rows.system.rules.apiError;
    }
    if (name === 'qwen-code.tool_call' || name === 'qwen-code.user_feedback') return rows.system.rules.telemetry;
    unknown(record);
    return rows.system.rules.otherTelemetry;
  }

  const system = bySubtype(
    run,
    new Map<string, RecordRule>([
      ['ui_telemetry', telemetry],
      ...bookkeeping.map((subtype): [string, RecordRule] => [subtype, () => rows.system.rules.bookkeeping]),
    ]),
    rows.system.rules.other,
  );

  /** Every record names its session and working directory. */
  const withFacts =
    (rule: RecordRule): RecordRule =>
    (record) => {
      run.reportSession(record.sessionId);
      run.reportCwd(record.cwd);
      return rule(record);
    };

  return stream.correlator<typeof sessionRecords>({
    user: withFacts(user),
    assistant: withFacts(assistant),
    tool_result: withFacts(toolResult),
    system: withFacts(system),
  });
}

const sessionReader: Harness = {
  name: 'qwen',
  correlator: sessionCorrelator,
  records: sessionRecords,
  tools,
};

// Qwen Code's own test of a session file name (SESSION_FILE_PATTERN in the 0.24.4 bundle).
const SESSION_FILE = /^[0-9a-fA-F-]{32,36}\.jsonl$/;

/** `<project>/chats/<id>.jsonl`'s subagents: `<project>/subagents/<id>/agent-<agentId>.jsonl`. */
async function locate(path: string): Promise<SessionLocation> {
  const id = basename(path, '.jsonl');
  return { id, path, subagents: await agentFiles(join(dirname(dirname(path)), 'subagents', id)) };
}

export const session: SessionFormat = {
  harness: 'qwen',
  where:
    '.qwen/projects/<sanitized root>/chats/<sessionId>.jsonl (subagents: ' +
    '<sanitized root>/subagents/<sessionId>/agent-<type>-<toolCallId>.jsonl)',
  reader: sessionReader,
  // Storage.getRuntimeBaseDir: QWEN_RUNTIME_DIR, else (through getGlobalQwenDir) QWEN_HOME, else ~/.qwen.
  env: ['QWEN_RUNTIME_DIR', 'QWEN_HOME'],
  async *find(home, env) {
    const runtime = envDir(env, 'QWEN_RUNTIME_DIR') ?? envDir(env, 'QWEN_HOME') ?? join(home, '.qwen');
    const projects = join(runtime, 'projects');
    for (const project of await namesIn(projects, 'dir')) {
      for (const file of await filesIn(join(projects, project, 'chats'), SESSION_FILE)) yield await locate(file);
    }
  },
  locate,
  mergesSubagents: true,
  facts: transcriptFacts,
  // Nothing marks a process's end (no result record): follow ends on its quiet period.
  endRules: new Set(),
};
