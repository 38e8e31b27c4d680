/**
 * ACP agents, the agent's stdout (docs/harnesses/acp.md): JSON-RPC 2.0 messages, one per line,
 * read by the rows of records.ts.
 *
 * What the agent does arrives as `session/update` notifications: text as chunks, joined into
 * spans; tool calls as records keyed by `toolCallId`, each update replacing the fields it
 * carries, classified by their `kind` once `completed` or `failed` (tools.ts, with the agents'
 * quirks of agent-rules.ts). The answer to `session/prompt` ends the turn: open spans and records
 * are flushed, then its stop reason and usage.
 */
import type { StopReason } from '@agentclientprotocol/sdk';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import type { RunTrace } from '../../kernel/trace.js';
import type { Tokens } from '../../kernel/events.js';
import { now } from '../../kernel/clock.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, amount } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordTable } from '../../kernel/record-table.js';
import type { SpanKind } from '../../kernel/text-span.js';
import { agentRules, LIST_DIRECTORY, rowOf, type ToolRecord } from './agent-rules.js';
import { messageRow, records, updates } from './records.js';
import { acpTokens } from './usage.js';

/** The kinds that leave the open span open: session state, not activity ("Text spans"). */
const SESSION_STATE = new Set([
  'usage_update',
  'available_commands_update',
  'current_mode_update',
  'config_option_update',
  'session_info_update',
  'plan',
]);
const CHUNKS = new Map<string, SpanKind>([
  ['agent_message_chunk', 'agent'],
  ['agent_thought_chunk', 'reasoning'],
]);

/** The fields a tool call message carries that replace the record's ("Tool calls"). */
const TOOL_FIELDS = ['title', 'kind', 'status', 'rawInput', 'rawOutput', 'locations', 'content', 'name'] as const;

const FINISHED: ReadonlyMap<unknown, boolean> = new Map([
  ['completed', true],
  ['failed', false],
]);

/**
 * A model call's usage on a chunk (Qwen Code): the call ends now, and its `durationMs` says when it started; without
 * it only the end is known. The protocol carries no times: the start is the library's clock less the duration, so
 * its source is `observed`, as the end's is.
 */
function modelCall(trace: RunTrace, tokens: Tokens, meta: JsonObject): void {
  const duration = amount(meta.durationMs);
  const end = now();
  const started_observed = duration === undefined ? undefined : new Date(Date.parse(end) - duration).toISOString();
  trace.modelCall({ tokens, started_observed });
}

/** The stop reason of a turn that ended normally; any other is a warning ("Stop reasons and usage"). */
const END_TURN: StopReason = 'end_turn';

export function correlator(run: RunContext): Correlator {
  const { metrics } = run;
  // The last agent message is the run's final output.
  const span = run.textSpan({
    dropBlank: true,
    onEmit(kind, text) {
      if (kind === 'agent') metrics.final_output = text;
    },
  });
  const calls = new BoundedMap<ToolRecord>(run.limits, (record) => finish(record, undefined));
  /** Ids of records that produced their events (bounded like the open ones): later messages for them are consumed. */
  const closed = new BoundedMap<true>(run.limits);
  // The calls `_meta.toolName` says are directory listings.
  const listings = new BoundedMap<true>(run.limits);
  let agent: string | undefined;
  /** `session/new` was answered: the responses after it answer `session/set_model` or the prompt. */
  let sessionCreated = false;
  /** The last response was an error after `session/new`: the prompt's answer, unless another response follows. */
  let failedAfterSession = false;
  /** The turn reported its usage per model call (`_meta.usage`): the prompt response's usage gives no event. */
  let usagePerCall = false;

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  /** `meta`: the chunk's `_meta` when the usage is one model call's (Qwen Code), for the trace. */
  function usage(source: JsonObject, meta?: JsonObject): void {
    const tokens = acpTokens(source);
    if (tokens === undefined) return;
    addTokens(metrics.tokens, tokens);
    if (meta !== undefined && run.trace !== undefined) {
      // The call's text goes first, as its usage event would send it.
      span.flush();
      modelCall(run.trace, tokens, meta);
    }
    run.emit({ type: 'usage', tokens });
  }

  /** A record's events: the tool table, with the agent's quirks; `success` unset for a call that never finished. */
  function finish(record: ToolRecord, success: boolean | undefined): void {
    closed.set(record.toolCallId, true);
    const rules = agent === undefined ? undefined : agentRules.get(agent);
    const is_success = rules?.success ? rules.success(record, success) : success;
    run.tool({
      id: record.toolCallId,
      name: listings.take(record.toolCallId) ? LIST_DIRECTORY : rowOf(record, rules),
      input: rules?.input ? rules.input(record) : record,
      is_success,
      output: record.rawOutput,
      raw: record,
    });
  }

  /** Merges a `tool_call`, `tool_call_update` or permission `toolCall` into its record. */
  function merge(
    fields: JsonObject,
    rules: { open: string; finished: string; closed: string; malformed: string },
    message: JsonObject,
  ): string {
    const id = fields.toolCallId;
    if (typeof id !== 'string') {
      unknown(message);
      return rules.malformed;
    }
    if (closed.has(id)) return rules.closed;
    if (isObject(fields._meta) && fields._meta.toolName === LIST_DIRECTORY) listings.set(id, true);
    let record = calls.get(id);
    if (record === undefined) {
      record = { toolCallId: id };
      calls.set(id, record);
    }
    for (const field of TOOL_FIELDS) {
      const value = fields[field];
      if (value !== undefined && value !== null) record[field] = value;
    }
    const success = FINISHED.get(record.status);
    if (success === undefined) {
      // Announced (`pending`, `in_progress`, or a permission request): the call has started; the protocol has no times.
      run.trace?.callStarted({
        call_id: id,
        tool: rowOf(record, agent === undefined ? undefined : agentRules.get(agent)),
      });
      return rules.open;
    }
    calls.take(id);
    finish(record, success);
    return rules.finished;
  }

  /**
   * The end of the turn or of the input: the open span, then every open record, unfinished, in the order first seen.
   */
  function flushTurn(): void {
    span.flush();
    calls.evictAll();
  }

  function response(message: JsonObject): void {
    if (sessionCreated) failedAfterSession = Object.hasOwn(message, 'error');
  }

  function sessionNew(message: JsonObject): string {
    run.reportSession((message.result as JsonObject).sessionId);
    response(message);
    sessionCreated = true;
    return records['session/new response'].rules.session;
  }

  function promptResponse(message: JsonObject): string {
    response(message);
    const result = message.result as JsonObject;
    const stopReason = result.stopReason as string;
    flushTurn();
    if (stopReason !== END_TURN)
      run.emit({ type: 'warning', code: stopReason, message: `ACP turn ended: ${stopReason}` });
    if (!usagePerCall && isObject(result.usage)) usage(result.usage);
    usagePerCall = false;
    metrics.turns = (metrics.turns ?? 0) + 1;
    metrics.ended = true;
    metrics.is_error = stopReason !== END_TURN;
    return records['session/prompt response'].rules.end;
  }

  function otherResponse(message: JsonObject): string {
    response(message);
    const info = isObject(message.result) ? message.result.agentInfo : undefined;
    if (isObject(info) && typeof info.name === 'string') agent = info.name;
    return records['other response'].rules.consumed;
  }

  function errorResponse(message: JsonObject): string {
    const { rules } = records['error response'];
    const { error } = message;
    response(message);
    metrics.is_error = true;
    if (!isObject(error) || typeof error.message !== 'string') {
      unknown(message);
      return rules.malformed;
    }
    const code = typeof error.code === 'number' || typeof error.code === 'string' ? String(error.code) : undefined;
    run.emit({ type: 'error', message: error.message, code });
    return rules.error;
  }

  function permission(message: JsonObject): string {
    const { rules } = records['session/request_permission'];
    const toolCall = isObject(message.params) ? message.params.toolCall : undefined;
    if (!isObject(toolCall)) {
      unknown(message);
      return rules.malformed;
    }
    return merge(toolCall, rules, message);
  }

  function chunk(kind: SpanKind, notification: JsonObject, update: JsonObject): string {
    const { rules } = kind === 'agent' ? updates.agent_message_chunk : updates.agent_thought_chunk;
    const { content } = update;
    if (!isObject(content) || content.type !== 'text' || typeof content.text !== 'string') {
      unknown(notification);
      return rules.other;
    }
    const { messageId } = update;
    span.add(
      kind,
      messageId === undefined || messageId === null
        ? null
        : typeof messageId === 'string'
          ? messageId
          : JSON.stringify(messageId),
      content.text,
    );
    const perCall = isObject(update._meta) ? update._meta.usage : undefined;
    if (!isObject(perCall) || typeof perCall.inputTokens !== 'number' || typeof perCall.outputTokens !== 'number')
      return rules.text;
    usagePerCall = true;
    usage(perCall, update._meta as JsonObject);
    return rules.usage;
  }

  function notice(notification: JsonObject, update: JsonObject): string {
    const { rules } = updates.notice;
    const { title, description } = update;
    if (typeof title !== 'string') {
      unknown(notification);
      return rules.malformed;
    }
    const message = typeof description === 'string' && description !== '' ? `${title}: ${description}` : title;
    const error = update.severity === 'error';
    run.emit({ type: error ? 'error' : 'warning', message });
    return error ? rules.error : rules.warning;
  }

  function usageUpdate(update: JsonObject): string {
    const { cost } = update;
    const usd = isObject(cost) && cost.currency === 'USD' ? amount(cost.amount) : undefined;
    if (usd !== undefined) metrics.cost = usd;
    return updates.usage_update.rules.consumed;
  }

  type UpdateRule = (notification: JsonObject, update: JsonObject) => string;
  const consumed =
    (kind: Exclude<keyof typeof updates, 'any other kind'>): UpdateRule =>
    () =>
      (updates[kind].rules as { consumed: string }).consumed;
  // A Map, so a kind named `constructor` finds no handler of Object's.
  const updateRules = new Map<string, UpdateRule>([
    ['agent_message_chunk', (notification, update) => chunk('agent', notification, update)],
    ['agent_thought_chunk', (notification, update) => chunk('reasoning', notification, update)],
    ['user_message_chunk', consumed('user_message_chunk')],
    ['tool_call', (notification, update) => merge(update, updates.tool_call.rules, notification)],
    ['tool_call_update', (notification, update) => merge(update, updates.tool_call_update.rules, notification)],
    ['plan', consumed('plan')],
    ['usage_update', (_notification, update) => usageUpdate(update)],
    ['available_commands_update', consumed('available_commands_update')],
    ['current_mode_update', consumed('current_mode_update')],
    ['config_option_update', consumed('config_option_update')],
    ['session_info_update', consumed('session_info_update')],
    ['compaction_update', consumed('compaction_update')],
    ['compaction_summary_chunk', consumed('compaction_summary_chunk')],
    ['notice', notice],
  ]);

  function sessionUpdate(notification: JsonObject): string {
    const update = isObject(notification.params) ? notification.params.update : undefined;
    if (!isObject(update) || typeof update.sessionUpdate !== 'string') {
      unknown(notification);
      return records['session/update'].rules.malformed;
    }
    const kind = update.sessionUpdate;
    if (!CHUNKS.has(kind) && !SESSION_STATE.has(kind)) span.flush();
    const rule = updateRules.get(kind);
    if (rule) return rule(notification, update);
    unknown(notification);
    return updates['any other kind'].rules.unknown;
  }

  return {
    record: recordTable<typeof records>(
      run,
      {
        'session/new response': sessionNew,
        'session/prompt response': promptResponse,
        'other response': otherResponse,
        'error response': errorResponse,
        'session/update': sessionUpdate,
        'session/request_permission': permission,
        'ACP method': (message) => (unknown(message), records['ACP method'].rules.unknown),
        'extension method': () => records['extension method'].rules.consumed,
        'not JSON-RPC': (message) => (unknown(message), records['not JSON-RPC'].rules.unknown),
      },
      (message) => {
        // Copilot announces its commands before answering session/new: a notification's session id counts too.
        if (
          message !== undefined &&
          typeof message.method === 'string' &&
          !Object.hasOwn(message, 'id') &&
          isObject(message.params)
        ) {
          run.reportSession(message.params.sessionId);
        }
      },
      messageRow,
    ),
    end() {
      flushTurn();
      // An error answering the prompt ends the turn as its answer does (the last response, after session/new).
      if (failedAfterSession) metrics.ended = true;
    },
    flush() {
      span.flush();
    },
  };
}
