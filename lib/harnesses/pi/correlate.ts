/**
 * pi, `pi --mode json`: docs/harnesses/pi.md's "Raw event stream" and "Messages" tables, as tables.
 *
 * The stream is message-oriented: a message is announced, streamed, and restated whole by
 * `message_end`, so events come from `message_end` alone. A tool run is bracketed by
 * `tool_execution_start` (the call, recorded by its id) and `tool_execution_end` (its outcome,
 * when the call goes to the tool table, tools.ts). One more thing waits: an assistant error,
 * because pi decides to retry only after the failed run's `agent_end`; the record after that
 * says whether the error was final (an error) or retried (a warning).
 */
import type { EventBody, Tokens } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, amount, tokensOf } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordTable, recordRows } from '../../kernel/record-table.js';
import { stringField } from '../../kernel/tool-rules.js';

/** docs/harnesses/pi.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  session: {
    handling: 'captures the session id (`id`) and cwd (`cwd`); no event',
    rules: { session: 'session: session id and cwd', malformed: 'session without id: unknown' },
  },
  agent_start: {
    handling: 'consumed (a prompt or a retry starts: the run has not ended)',
    rules: { consumed: 'agent_start: consumed' },
  },
  turn_start: { handling: 'consumed', rules: { consumed: 'turn_start: consumed' } },
  turn_end: {
    handling: "consumed (it restates the turn's messages); counted in the metrics' `turns`",
    rules: { consumed: 'turn_end: consumed' },
  },
  agent_end: {
    handling: "consumed (it restates the run's messages); the run has ended unless a retry follows",
    rules: { consumed: 'agent_end: consumed' },
  },
  message_start: {
    handling: 'consumed (`message_end` restates the complete message)',
    rules: { consumed: 'message_start: consumed' },
  },
  message_update: {
    handling: 'consumed (`message_end` restates the complete message)',
    rules: { consumed: 'message_update: consumed' },
  },
  message_end: {
    handling: 'by `message.role` (the message table)',
    rules: {
      assistant: 'message_end assistant: message table',
      consumed: 'message_end user/toolResult/compactionSummary/branchSummary: consumed',
      other: 'message_end, other role: unknown',
      malformed: 'message_end, malformed: unknown',
    },
  },
  tool_execution_start: {
    handling: 'the call (`toolCallId`, `toolName`, `args`) is recorded; no event',
    rules: { recorded: 'tool_execution_start: recorded', malformed: 'tool_execution_start, malformed: unknown' },
  },
  tool_execution_update: { handling: 'consumed', rules: { consumed: 'tool_execution_update: consumed' } },
  tool_execution_end: {
    handling:
      "the recorded call's event (the tool table), success = `!isError`; a call never started is classified from " +
      'its own `toolName` with no input',
    rules: {
      tool: 'tool_execution_end: tool table',
      unstarted: 'tool_execution_end, never started: tool table',
      malformed: 'tool_execution_end, malformed: unknown',
    },
  },
  auto_retry_start: {
    handling: 'consumed; it turns the held error before it into a warning (code `auto_retry`)',
    rules: { warning: 'auto_retry_start: held error -> warning', consumed: 'auto_retry_start: consumed' },
  },
  auto_retry_end: {
    handling:
      'consumed when `success` is true; when false, error with `finalError`, unless the error it repeats was ' +
      'already emitted',
    rules: {
      success: 'auto_retry_end success: consumed',
      repeated: 'auto_retry_end failed, its error already emitted: consumed',
      error: 'auto_retry_end failed: error',
      malformed: 'auto_retry_end, malformed: unknown',
    },
  },
  compaction_start: { handling: 'consumed', rules: { consumed: 'compaction_start: consumed' } },
  compaction_end: {
    handling: 'consumed, except one with `errorMessage` and `aborted` false: warning with `errorMessage`',
    rules: { consumed: 'compaction_end: consumed', warning: 'compaction_end with errorMessage: warning' },
  },
  queue_update: { handling: 'consumed', rules: { consumed: 'queue_update: consumed' } },
  thinking_level_changed: { handling: 'consumed', rules: { consumed: 'thinking_level_changed: consumed' } },
});

/**
 * docs/harnesses/pi.md "Messages": the roles whose `message_end` is consumed (`assistant` has its own rule; any other
 * role is unknown).
 */
const CONSUMED_ROLES = new Set(['user', 'toolResult', 'compactionSummary', 'branchSummary']);

/** The stop reasons that end an assistant message in error. */
const FAILED = new Set(['error', 'aborted']);

/** The records after a failed run that come before pi's decision to retry. */
const BEFORE_RETRY_DECISION = new Set(['turn_end', 'agent_end', 'auto_retry_start']);

/**
 * `recordTime`: the harness's time of the record being read, where its source has one (the session file's entries;
 * stdout's records have none), for the trace.
 */
export function correlator(run: RunContext, recordTime: () => unknown = () => undefined): Correlator {
  const calls = new BoundedMap<JsonObject>(run.limits, unresolved);
  // The assistant error waiting for the record that says whether pi retries it.
  let heldError: string | undefined;
  // The held error the current record released as an error (auto_retry_end then repeats it).
  let released: string | undefined;

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  /** A started call whose end never came: classified with its outcome unset (docs/contract.md). */
  function unresolved(start: JsonObject): void {
    run.tool({
      id: start.toolCallId as string,
      name: start.toolName as string,
      input: start.args,
      raw: { tool_execution_start: start },
    });
  }

  function session(record: JsonObject): string {
    run.reportCwd(record.cwd);
    // The header is written when the run starts.
    run.trace?.began(record.timestamp);
    const id = stringField(record, 'id');
    if (id === undefined) {
      unknown(record);
      return records.session.rules.malformed;
    }
    run.reportSession(id);
    return records.session.rules.session;
  }

  function messageEnd(record: JsonObject): string {
    const message = record.message;
    if (!isObject(message) || typeof message.role !== 'string') {
      unknown(record);
      return records.message_end.rules.malformed;
    }
    if (message.role === 'assistant') return assistant(record, message);
    if (CONSUMED_ROLES.has(message.role)) return records.message_end.rules.consumed;
    unknown(record);
    return records.message_end.rules.other;
  }

  /** docs/harnesses/pi.md "Messages", `assistant`: text, reasoning, usage, then the error, held. */
  function assistant(record: JsonObject, message: JsonObject): string {
    if (!Array.isArray(message.content)) {
      unknown(record);
      return records.message_end.rules.malformed;
    }
    const events = messageEvents(message.content);
    const usage = isObject(message.usage) ? usageEvent(message.usage) : undefined;
    const model_call_id = stringField(message, 'responseId');
    // The model call, from the message's own start (`message.timestamp`, its `message_start`'s too) to its end; the
    // message's events follow it with its id.
    run.trace?.modelCall({
      model_call_id,
      model: stringField(message, 'model'),
      tokens: usage?.tokens,
      cost: usage?.cost,
      started_at: message.timestamp,
      at: recordTime(),
    });
    const ids = run.trace && { model_call_id };
    for (const event of events) run.emit(event, ids);
    if (usage) {
      addTokens(run.metrics.tokens, usage.tokens);
      if (usage.cost !== undefined) run.metrics.cost = (run.metrics.cost ?? 0) + usage.cost;
      run.emit(usage, ids);
    }
    const text = events.find((event) => event.type === 'agent');
    if (text) run.metrics.final_output = text.message;
    else delete run.metrics.final_output;
    const stopReason = typeof message.stopReason === 'string' ? message.stopReason : undefined;
    const failed = stopReason !== undefined && FAILED.has(stopReason);
    run.metrics.is_error = failed;
    if (failed) heldError = stringField(message, 'errorMessage') ?? `Request ${stopReason}`;
    return records.message_end.rules.assistant;
  }

  function toolExecutionStart(record: JsonObject): string {
    const id = stringField(record, 'toolCallId');
    if (id === undefined || stringField(record, 'toolName') === undefined) {
      unknown(record);
      return records.tool_execution_start.rules.malformed;
    }
    // An id started twice while the first waits: the first is given up on, as at the end of input.
    const earlier = calls.take(id);
    if (earlier) unresolved(earlier);
    calls.set(id, record);
    run.trace?.callStarted({ call_id: id, tool: record.toolName as string, at: recordTime() });
    return records.tool_execution_start.rules.recorded;
  }

  function toolExecutionEnd(record: JsonObject): string {
    const id = stringField(record, 'toolCallId');
    const start = id === undefined ? undefined : calls.take(id);
    const outcome = {
      is_success: typeof record.isError === 'boolean' ? !record.isError : undefined,
      output: isObject(record.result) ? record.result.content : undefined,
    };
    if (start) {
      run.tool({
        id,
        name: start.toolName as string,
        input: start.args,
        ...outcome,
        raw: { tool_execution_start: start, tool_execution_end: record },
        ended_at: recordTime(),
      });
      return records.tool_execution_end.rules.tool;
    }
    const name = stringField(record, 'toolName');
    if (name === undefined) {
      unknown(record);
      return records.tool_execution_end.rules.malformed;
    }
    run.tool({ id, name, input: undefined, ...outcome, raw: { tool_execution_end: record }, ended_at: recordTime() });
    return records.tool_execution_end.rules.unstarted;
  }

  function autoRetryStart(): string {
    // A retry is coming: the run has not ended.
    run.metrics.ended = false;
    if (heldError === undefined) return records.auto_retry_start.rules.consumed;
    run.emit({ type: 'warning', message: heldError, code: 'auto_retry' });
    heldError = undefined;
    return records.auto_retry_start.rules.warning;
  }

  function autoRetryEnd(record: JsonObject): string {
    if (record.success === true) return records.auto_retry_end.rules.success;
    const finalError = stringField(record, 'finalError');
    if (record.success !== false || finalError === undefined) {
      unknown(record);
      return records.auto_retry_end.rules.malformed;
    }
    if (released === finalError) return records.auto_retry_end.rules.repeated;
    run.emit({ type: 'error', message: finalError });
    return records.auto_retry_end.rules.error;
  }

  function compactionEnd(record: JsonObject): string {
    const errorMessage = stringField(record, 'errorMessage');
    if (errorMessage === undefined || record.aborted !== false) return records.compaction_end.rules.consumed;
    run.emit({ type: 'warning', message: errorMessage });
    return records.compaction_end.rules.warning;
  }

  /** The held error becomes an error: pi did not retry it. */
  function releaseHeldError(): void {
    released = heldError;
    if (heldError === undefined) return;
    run.emit({ type: 'error', message: heldError });
    heldError = undefined;
  }

  return {
    record: recordTable<typeof records>(
      run,
      {
        session,
        agent_start: () => ((run.metrics.ended = false), records.agent_start.rules.consumed),
        turn_start: () => records.turn_start.rules.consumed,
        turn_end: () => ((run.metrics.turns = (run.metrics.turns ?? 0) + 1), records.turn_end.rules.consumed),
        agent_end: () => ((run.metrics.ended = true), records.agent_end.rules.consumed),
        message_start: () => records.message_start.rules.consumed,
        message_update: () => records.message_update.rules.consumed,
        message_end: messageEnd,
        tool_execution_start: toolExecutionStart,
        tool_execution_update: () => records.tool_execution_update.rules.consumed,
        tool_execution_end: toolExecutionEnd,
        auto_retry_start: autoRetryStart,
        auto_retry_end: autoRetryEnd,
        compaction_start: () => records.compaction_start.rules.consumed,
        compaction_end: compactionEnd,
        queue_update: () => records.queue_update.rules.consumed,
        thinking_level_changed: () => records.thinking_level_changed.rules.consumed,
      },
      (record) => {
        if (record !== undefined && BEFORE_RETRY_DECISION.has(record.type as string)) released = undefined;
        else releaseHeldError();
      },
    ),
    end() {
      calls.evictAll();
      releaseHeldError();
    },
  };
}

type TextEvent = Extract<EventBody, { type: 'agent' | 'reasoning' }>;

/**
 * docs/harnesses/pi.md "Messages", `assistant`: the content blocks that carry text, the field it is in, and the event
 * they join into.
 */
const TEXT_BLOCKS = new Map<unknown, { field: string; kind: TextEvent['type'] }>([
  ['text', { field: 'text', kind: 'agent' }],
  ['thinking', { field: 'thinking', kind: 'reasoning' }],
]);

/**
 * An assistant message's content, in order: all its text blocks joined into one agent event,
 * all its thinking blocks into one reasoning event (dropped when empty), each where its first
 * block is. `toolCall` blocks are consumed (their tool_execution records carry them), and so is
 * a redacted thinking block (its text is pi's placeholder); a block of any other shape is unknown.
 */
function messageEvents(content: unknown[]): EventBody[] {
  const events: EventBody[] = [];
  const joined = new Map<TextEvent['type'], TextEvent>();
  for (const block of content) {
    if (isObject(block) && (block.type === 'toolCall' || (block.type === 'thinking' && block.redacted === true)))
      continue;
    const textBlock = isObject(block) ? TEXT_BLOCKS.get(block.type) : undefined;
    const text = textBlock === undefined ? undefined : (block as JsonObject)[textBlock.field];
    if (textBlock === undefined || typeof text !== 'string') {
      events.push({ type: 'unknown', raw: block });
      continue;
    }
    const event = joined.get(textBlock.kind);
    if (event) event.message += text;
    else {
      const first: TextEvent = { type: textBlock.kind, message: text };
      joined.set(first.type, first);
      events.push(first);
    }
  }
  return events.filter((event) => event.type !== 'reasoning' || event.message !== '');
}
/** docs/harnesses/pi.md "Usage and metrics": a per-call delta, when any count or the cost is not zero. */
function usageEvent(usage: JsonObject): Extract<EventBody, { type: 'usage' }> | undefined {
  const tokens: Tokens = tokensOf({
    input: usage.input,
    output: usage.output,
    cache_read: usage.cacheRead,
    cache_write: usage.cacheWrite,
  });
  const total = amount(isObject(usage.cost) ? usage.cost.total : undefined);
  const cost = total === 0 ? undefined : total;
  if (cost === undefined && !Object.values(tokens).some((count) => count > 0)) return undefined;
  return { type: 'usage', tokens, cost };
}
