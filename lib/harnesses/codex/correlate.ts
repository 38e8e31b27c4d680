/**
 * Codex, `codex exec --json`: docs/harnesses/codex.md's "Raw event stream" table, as a table.
 *
 * The stream is item-oriented: one item (a message, a command, a file change...) is reported
 * whole by `item.started`, any number of `item.updated` and `item.completed`, under one id.
 * Only the completed item says how it went, so an open item waits by its id, its latest
 * version replacing the earlier one; the completed item goes to the classifier, whose item
 * table (tools.ts, keyed by `item.type`) says what it becomes.
 */
import type { Tokens } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import type { RunTrace } from '../../kernel/trace.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { recordTable, recordRows } from '../../kernel/record-table.js';
import { excluding, tokenCount, tokensOf } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { stringField } from '../../kernel/tool-rules.js';
import { subagentEnd } from './tools.js';
import type { CommandJoin } from './command-join.js';

/** An item started (or updated) and not yet completed: its latest record. */
interface OpenItem {
  record: JsonObject;
  item: JsonObject;
}

/**
 * docs/harnesses/codex.md "Items": an item's success from its status (anything else, such as `in_progress`, says
 * nothing).
 */
const statusSuccess = new Map<unknown, boolean>([
  ['completed', true],
  ['failed', false],
  ['declined', false],
]);

/** The item types that are no tool call (what the model said, Codex's notices): no call in the trace. */
const NOT_CALLS = new Set<unknown>(['agent_message', 'reasoning', 'error']);

/** docs/harnesses/codex.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  'thread.started': {
    handling: 'captures the session id (`thread_id`); no event',
    rules: { session: 'thread.started: session id', malformed: 'thread.started without thread_id: unknown' },
  },
  'turn.started': { handling: 'consumed', rules: { consumed: 'turn.started: consumed' } },
  'item.started': {
    handling: 'the item is recorded under its `id`; no event',
    rules: { recorded: 'item.started: recorded', malformed: 'item.started, malformed item: unknown' },
  },
  'item.updated': {
    handling: 'the item is recorded under its `id`; no event',
    rules: { recorded: 'item.updated: recorded', malformed: 'item.updated, malformed item: unknown' },
  },
  'item.completed': {
    handling: "the item's event(s) (the item table)",
    rules: { items: 'item.completed: item table', malformed: 'item.completed, malformed item: unknown' },
  },
  'turn.completed': {
    handling:
      "its `usage` is the thread's running total: it replaces the metrics' tokens; a usage event carries this " +
      "turn's share (this total minus the previous one, class by class)",
    rules: { usage: 'turn.completed: usage', noUsage: 'turn.completed without usage: unknown' },
  },
  'turn.failed': {
    handling: 'error, with `error.message`',
    rules: { error: 'turn.failed: error', malformed: 'turn.failed without error.message: unknown' },
  },
  error: {
    handling: 'warning: a server error notice, including ones Codex recovers from',
    rules: { warning: 'error: warning', malformed: 'error without message: unknown' },
  },
});

/**
 * `recordTime`: the harness's time of the record being read, where its source has one (a rollout's lines; stdout's
 * records have none), for the trace. `join`: a completed command goes through it (its rollout's directory added); while
 * it holds one, the events after it wait behind it (command-join.ts), and a flush sends what the rollout settled.
 */
export function correlator(
  run: RunContext,
  recordTime: () => unknown = () => undefined,
  join?: CommandJoin,
): Correlator {
  // The events go out through the join, which keeps them behind a command it holds.
  const out: Pick<RunContext, 'emit' | 'tool'> = join
    ? {
        emit: (body, ids) =>
          join.holding ? join.later(() => run.emit(body, ids), body, run.limits) : run.emit(body, ids),
        tool: (fields) =>
          join.holding ? join.later(() => run.tool(fields), fields.input, run.limits) : run.tool(fields),
      }
    : run;
  const open = new BoundedMap<OpenItem>(run.limits, ({ record, item }) => classify(record, item, false));
  // Subagents whose end was reported: Codex restates an end on every later call naming the subagent.
  const endedSubagents = new BoundedMap<true>(run.limits);

  function unknown(raw: unknown): void {
    out.emit({ type: 'unknown', raw });
  }

  // The running total of the last turn.completed: the next turn's share is counted from it.
  let previousTotal: Tokens = {};

  function threadStarted(record: JsonObject): string {
    const id = stringField(record, 'thread_id');
    if (id === undefined) {
      unknown(record);
      return records['thread.started'].rules.malformed;
    }
    run.reportSession(id);
    return records['thread.started'].rules.session;
  }

  function turnStarted(): string {
    run.metrics.ended = false;
    return records['turn.started'].rules.consumed;
  }

  function openItem(record: JsonObject, type: 'item.started' | 'item.updated'): string {
    const item = record.item;
    if (!isObject(item) || stringField(item, 'id') === undefined || stringField(item, 'type') === undefined) {
      unknown(record);
      return records[type].rules.malformed;
    }
    open.set(item.id as string, { record, item });
    if (!NOT_CALLS.has(item.type))
      run.trace?.callStarted({ call_id: item.id as string, tool: item.type as string, at: recordTime() });
    return records[type].rules.recorded;
  }

  function itemCompleted(record: JsonObject): string {
    const item = record.item;
    // Older builds named the type `item_type`: such an item is not one of the table's.
    if (!isObject(item) || stringField(item, 'type') === undefined) {
      unknown(record);
      return records['item.completed'].rules.malformed;
    }
    if (typeof item.id === 'string') open.take(item.id);
    if (item.type === 'agent_message' && typeof item.text === 'string') run.metrics.final_output = item.text;
    const joined = join && item.type === 'command_execution' ? joinCommand(record, item) : item;
    if (joined !== undefined) classify(record, joined, true);
    return records['item.completed'].rules.items;
  }

  /** A command through the join: with its directory now, or held (undefined). */
  function joinCommand(record: JsonObject, item: JsonObject): JsonObject | undefined {
    join!.session ??= run.metrics.session_id;
    return join!.stdout(record, item, run.limits, settled);
  }

  /** A held `item.completed` record, its item settled. */
  function settled(record: JsonObject): void {
    classify(record, record.item as JsonObject, true);
  }

  /**
   * Sends an item to the item table; one never completed (`completed` false) has its outcome unset (docs/contract.md).
   */
  function classify(record: JsonObject, item: JsonObject, completed: boolean): void {
    const exit_code =
      typeof item.exit_code === 'number' && Number.isInteger(item.exit_code) ? item.exit_code : undefined;
    const input = item.type === 'collab_tool_call' ? withNewSubagentEnds(item) : item;
    if (run.trace !== undefined && item.type === 'collab_tool_call') subagentTimes(run.trace, input, recordTime());
    out.tool({
      id: typeof item.id === 'string' && item.id !== '' ? item.id : undefined,
      name: item.type as string,
      input,
      is_success: completed ? success(item, exit_code) : undefined,
      exit_code,
      // Only a rollout's command says where it ran (session.ts); stdout's never does.
      working_directory: typeof item.working_directory === 'string' ? item.working_directory : undefined,
      raw: record,
      ended_at: recordTime(),
      call: NOT_CALLS.has(item.type) ? false : undefined,
    });
  }

  /** The item with the subagent states already reported as ends left out, so each end is reported once. */
  function withNewSubagentEnds(item: JsonObject): JsonObject {
    if (!isObject(item.agents_states)) return item;
    const fresh: [string, unknown][] = [];
    for (const [id, state] of Object.entries(item.agents_states)) {
      if (endedSubagents.has(id)) continue;
      fresh.push([id, state]);
      if (subagentEnd(state) !== undefined) endedSubagents.set(id, true);
    }
    return { ...item, agents_states: Object.fromEntries(fresh) };
  }

  function turnCompleted(record: JsonObject): string {
    const { metrics } = run;
    metrics.ended = true;
    metrics.is_error = false;
    metrics.turns = (metrics.turns ?? 0) + 1;
    if (!isObject(record.usage)) {
      unknown(record);
      return records['turn.completed'].rules.noUsage;
    }
    // The thread's running total, not this turn's share: it replaces, never adds.
    const total = codexTokens(record.usage);
    metrics.tokens = total;
    out.emit({ type: 'usage', tokens: turnShare(total, previousTotal) });
    previousTotal = total;
    return records['turn.completed'].rules.usage;
  }

  function turnFailed(record: JsonObject): string {
    run.metrics.ended = true;
    run.metrics.is_error = true;
    const message = stringField(record.error, 'message');
    if (message === undefined) {
      unknown(record);
      return records['turn.failed'].rules.malformed;
    }
    out.emit({ type: 'error', message, code: stringField(record.error, 'code') });
    return records['turn.failed'].rules.error;
  }

  /** Sent for every server error notice, including ones Codex recovers from ("Reconnecting... 1/5"). */
  function errorNotice(record: JsonObject): string {
    const message = stringField(record, 'message');
    if (message === undefined) {
      unknown(record);
      return records.error.rules.malformed;
    }
    out.emit({ type: 'warning', message });
    return records.error.rules.warning;
  }

  return {
    // Builds before 0.2x wrote `{"id", "msg": {...}}`, with no top-level type: unknown.
    record: recordTable<typeof records>(run, {
      'thread.started': threadStarted,
      'turn.started': turnStarted,
      'item.started': (record) => openItem(record, 'item.started'),
      'item.updated': (record) => openItem(record, 'item.updated'),
      'item.completed': itemCompleted,
      'turn.completed': turnCompleted,
      'turn.failed': turnFailed,
      error: errorNotice,
    }),
    end() {
      open.evictAll();
      // Stdout has ended: what the join still holds goes out, in order (without a directory the rollout never gave).
      join?.drain(settled, true);
    },
    // A pause, or the rollout settled what the join held: what may go out goes.
    flush() {
      join?.drain(settled);
    },
  };
}

/**
 * A collab call's subagent starts and ends at the record's time, before its orchestration events (which would give
 * them the time they were read): `spawn_agent` starts each receiver, a terminal state not reported before ends it.
 */
function subagentTimes(trace: RunTrace, item: JsonObject, at: unknown): void {
  const call_id = typeof item.id === 'string' && item.id !== '' ? item.id : undefined;
  if (item.tool === 'spawn_agent' && Array.isArray(item.receiver_thread_ids))
    for (const agent_id of item.receiver_thread_ids)
      if (typeof agent_id === 'string' && agent_id !== '') trace.agentStarted({ agent_id, call_id, at });
  for (const [agent_id, state] of Object.entries(isObject(item.agents_states) ? item.agents_states : {})) {
    const end = subagentEnd(state);
    if (end !== undefined) trace.agentEnded(agent_id, end === 'subagent_completed' ? 'completed' : 'failed', at);
  }
}

/**
 * One turn's tokens from two running totals, class by class (docs/harnesses/codex.md): this total minus the
 * previous one; a class that would come out negative (a resumed thread restarts its count) is
 * this turn's total instead.
 */
function turnShare(total: Tokens, previous: Tokens): Tokens {
  const share: Tokens = {};
  for (const name of Object.keys(total) as (keyof Tokens)[]) {
    const now = total[name]!;
    const before = previous[name] ?? 0;
    share[name] = now >= before ? now - before : now;
  }
  return share;
}

/** A command succeeded only with exit code 0 to show for it; other items by their status alone. */
function success(item: JsonObject, exit_code: number | undefined): boolean | undefined {
  const byStatus = statusSuccess.get(item.status);
  return byStatus === true && item.type === 'command_execution' && exit_code === undefined ? undefined : byStatus;
}

/**
 * The shared token mapping (docs/harnesses/codex.md): cached input is part of `input_tokens`, reasoning part of
 * `output_tokens`.
 */
export function codexTokens(usage: JsonObject): Tokens {
  const input = tokenCount(usage.input_tokens);
  const cached = tokenCount(usage.cached_input_tokens);
  const output = tokenCount(usage.output_tokens);
  const reasoning = tokenCount(usage.reasoning_output_tokens);
  return tokensOf({
    input: excluding(input, cached),
    cache_read: cached,
    cache_write: usage.cache_write_input_tokens,
    output: excluding(output, reasoning),
    reasoning,
  });
}
