/**
 * Codex, `codex exec --json`: codex.md's "Raw event stream" table, as a table.
 *
 * The stream is item-oriented: one item (a message, a command, a file change...) is reported
 * whole by `item.started`, any number of `item.updated` and `item.completed`, under one id.
 * Only the completed item says how it went, so an open item waits by its id, its latest
 * version replacing the earlier one; the completed item goes to the classifier, whose item
 * table (tools.ts, keyed by `item.type`) says what it becomes.
 */
import type { Tokens } from '../../lib/events.js';
import type { Correlator, RunContext } from '../../lib/harness.js';
import { isObject, type JsonObject } from '../../lib/json.js';
import { recordTable, type RecordRule } from '../../lib/record-table.js';
import { tokenCount, tokensOf } from '../../lib/metrics.js';
import { PendingCalls } from '../../lib/pending-calls.js';
import { stringField } from '../../lib/tool-rules.js';
import { subagentEnd } from './tools.js';


/** An item started (or updated) and not yet completed: its latest record. */
interface OpenItem {
  record: JsonObject;
  item: JsonObject;
}

/** codex.md "Items": an item's success from its status (anything else, such as `in_progress`, says nothing). */
const statusSuccess = new Map<unknown, boolean>([
  ['completed', true],
  ['failed', false],
  ['declined', false],
]);

export function correlator(run: RunContext): Correlator {
  const open = new PendingCalls<OpenItem>(run.limits.maxPendingTools, ({ record, item }) => classify(record, item, false));
  // Subagents whose end was reported: Codex restates an end on every later call naming the subagent.
  const endedSubagents = new Set<string>();

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  // Top-level `type` (codex.md "Raw event stream").
  const records = new Map<string, RecordRule>([
    ['thread.started', threadStarted],
    ['turn.started', turnStarted],
    ['item.started', (record) => openItem(record, 'item.started')],
    ['item.updated', (record) => openItem(record, 'item.updated')],
    ['item.completed', itemCompleted],
    ['turn.completed', turnCompleted],
    ['turn.failed', turnFailed],
    ['error', errorNotice],
  ]);

  function threadStarted(record: JsonObject): string {
    const id = stringField(record, 'thread_id');
    if (id === undefined) {
      unknown(record);
      return 'thread.started without thread_id: unknown';
    }
    run.reportSession(id);
    return 'thread.started: session id';
  }

  function turnStarted(): string {
    run.metrics.ended = false;
    return 'turn.started: consumed';
  }

  function openItem(record: JsonObject, type: string): string {
    const item = record.item;
    if (!isObject(item) || stringField(item, 'id') === undefined || stringField(item, 'type') === undefined) {
      unknown(record);
      return `${type}, malformed item: unknown`;
    }
    open.add(item.id as string, { record, item });
    return `${type}: recorded`;
  }

  function itemCompleted(record: JsonObject): string {
    const item = record.item;
    // Older builds named the type `item_type`: such an item is not one of the table's.
    if (!isObject(item) || stringField(item, 'type') === undefined) {
      unknown(record);
      return 'item.completed, malformed item: unknown';
    }
    if (typeof item.id === 'string') open.take(item.id);
    if (item.type === 'agent_message' && typeof item.text === 'string') run.metrics.final_output = item.text;
    classify(record, item, true);
    return 'item.completed: item table';
  }

  /** Sends an item to the item table; one never completed (`completed` false) has its outcome unset (CONTRACT.md). */
  function classify(record: JsonObject, item: JsonObject, completed: boolean): void {
    const exit_code = typeof item.exit_code === 'number' && Number.isInteger(item.exit_code) ? item.exit_code : undefined;
    run.tool({
      name: item.type as string,
      input: item.type === 'collab_tool_call' ? withNewSubagentEnds(item) : item,
      is_success: completed ? success(item, exit_code) : undefined,
      exit_code,
      raw: record,
    });
  }

  /** The item with the subagent states already reported as ends left out, so each end is reported once. */
  function withNewSubagentEnds(item: JsonObject): JsonObject {
    if (!isObject(item.agents_states)) return item;
    const fresh: [string, unknown][] = [];
    for (const [id, state] of Object.entries(item.agents_states)) {
      if (endedSubagents.has(id)) continue;
      fresh.push([id, state]);
      if (subagentEnd(state) !== undefined) rememberEnded(id);
    }
    return { ...item, agents_states: Object.fromEntries(fresh) };
  }

  /** Bounded like the open items: past the limit the oldest is forgotten (and could be reported again). */
  function rememberEnded(id: string): void {
    endedSubagents.add(id);
    if (endedSubagents.size > run.limits.maxPendingTools) endedSubagents.delete(endedSubagents.values().next().value!);
  }

  function turnCompleted(record: JsonObject): string {
    const { metrics } = run;
    metrics.ended = true;
    metrics.is_error = false;
    metrics.turns = (metrics.turns ?? 0) + 1;
    if (!isObject(record.usage)) {
      unknown(record);
      return 'turn.completed without usage: unknown';
    }
    // The thread's running total, not this turn's share: it replaces, never adds.
    metrics.tokens = codexTokens(record.usage);
    return 'turn.completed: metrics';
  }

  function turnFailed(record: JsonObject): string {
    run.metrics.ended = true;
    run.metrics.is_error = true;
    const message = stringField(record.error, 'message');
    if (message === undefined) {
      unknown(record);
      return 'turn.failed without error.message: unknown';
    }
    run.emit({ type: 'error', message, code: stringField(record.error, 'code') });
    return 'turn.failed: error';
  }

  /** Sent for every server error notice, including ones Codex recovers from ("Reconnecting... 1/5"). */
  function errorNotice(record: JsonObject): string {
    const message = stringField(record, 'message');
    if (message === undefined) {
      unknown(record);
      return 'error without message: unknown';
    }
    run.emit({ type: 'warning', message });
    return 'error: warning';
  }

  return {
    // Builds before 0.2x wrote `{"id", "msg": {...}}`, with no top-level type: unknown.
    record: recordTable(run, records),
    end() {
      open.settleAll();
    },
  };
}

/** A command succeeded only with exit code 0 to show for it; other items by their status alone. */
function success(item: JsonObject, exit_code: number | undefined): boolean | undefined {
  const byStatus = statusSuccess.get(item.status);
  return byStatus === true && item.type === 'command_execution' && exit_code === undefined ? undefined : byStatus;
}

/** The shared token mapping (codex.md): cached input is part of `input_tokens`, reasoning part of `output_tokens`. */
export function codexTokens(usage: JsonObject): Tokens {
  const input = tokenCount(usage.input_tokens);
  const cached = tokenCount(usage.cached_input_tokens);
  const output = tokenCount(usage.output_tokens);
  const reasoning = tokenCount(usage.reasoning_output_tokens);
  return tokensOf({
    input: input !== undefined && cached !== undefined ? Math.max(0, input - cached) : input,
    cache_read: cached,
    cache_write: usage.cache_write_input_tokens,
    output: output !== undefined && reasoning !== undefined ? Math.max(0, output - reasoning) : output,
    reasoning,
  });
}
