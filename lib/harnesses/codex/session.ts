/**
 * Codex's rollouts, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<threadId>.jsonl`: the
 * records of docs/harnesses/codex.md "Session rollouts". Each finished item (`event_msg`
 * `item_completed`) is restated as the `exec --json` item it prints as and read by the stdout
 * correlator, so both sides go through the same item table; a turn's end carries the
 * thread's running token total, as stdout's `turn.completed` does.
 */
import { basename, join } from 'node:path';
import type { Correlator, Harness, RunContext } from '../../kernel/harness.js';
import type { AgentStart } from '../../kernel/trace.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { commandDirectories } from './directories.js';
import { CALLS, rawCalls } from './raw-calls.js';
import { recordRows, recordTable, type RecordHandlers } from '../../kernel/record-table.js';
import { envDir, type SessionFormat, type SessionLocation } from '../../kernel/session.js';
import { filesIn, firstLine, mapLimited, namesIn } from '../../files/session-dirs.js';
import { correlator as stdoutCorrelator } from './correlate.js';
import { responseUsage, turnModel } from './response-usage.js';
import { tools } from './tools.js';
import { shellJoin } from './shell-join.js';

const consumed = (what: string) => ({ handling: `${what}: consumed`, rules: { consumed: `${what}: consumed` } });

/** docs/harnesses/codex.md "Session rollouts", one row per line `type` (`event_msg` by `payload.type`). */
const sessionRecords = recordRows({
  session_meta: {
    handling: "the thread's id and working directory; no event",
    rules: { meta: 'session_meta: session id and cwd' },
  },
  'event_msg/task_started': {
    handling: "a turn starts (stdout's `turn.started`)",
    rules: { turn: 'task_started: turn.started' },
  },
  'event_msg/item_completed': {
    handling:
      "the item as stdout prints it (the item table below), then stdout's `item.completed`; a user message is consumed",
    rules: {
      item: 'item_completed: item.completed',
      user: 'item_completed, UserMessage: consumed',
      reported: 'item_completed of a call already reported from its output: consumed',
      other: 'item_completed, an item type the table lacks: unknown',
    },
  },
  'event_msg/token_count': {
    handling: "the thread's running token total, kept for the turn's end",
    rules: { kept: 'token_count: kept' },
  },
  'event_msg/task_complete': {
    handling:
      "the turn's end: with `error`, stdout's `error` warning and `turn.failed`; else `turn.completed` with the last " +
      'running total',
    rules: { completed: 'task_complete: turn.completed', failed: 'task_complete with error: turn.failed' },
  },
  'event_msg/*': consumed('any other event_msg (thread_settings_applied, ...)'),
  response_item: {
    handling:
      "the model-facing log (messages, calls, their outputs): the items restate it; a call's `workdir` is kept; a " +
      'call no item reports becomes its events at its output ("Calls no item reports")',
    rules: {
      consumed: 'response_item: consumed',
      call: 'response_item, the output of a call no item reported: its events',
    },
  },
  turn_context: consumed("the turn's settings; its `cwd` is where its commands ran, unless they say otherwise"),
  world_state: consumed('context given to the model'),
  token_usage_record: consumed('one response’s usage (the running total comes from token_count)'),
});

/** Rollout item types as the `exec --json` items they print as (docs/harnesses/codex.md "Session rollouts"). */
const itemShapes = new Map<string, (item: JsonObject) => JsonObject>([
  ['AgentMessage', (item) => ({ type: 'agent_message', id: item.id, text: contentText(item.content) })],
  ['Reasoning', (item) => ({ type: 'reasoning', id: item.id, text: contentText(item.summary ?? item.content) })],
  [
    'CommandExecution',
    (item) => ({
      type: 'command_execution',
      id: item.id,
      command: Array.isArray(item.command) ? shellJoin(item.command) : item.command,
      aggregated_output: item.aggregated_output,
      exit_code: item.exit_code,
      status: item.status,
    }),
  ],
  [
    'FileChange',
    (item) => ({
      type: 'file_change',
      id: item.id,
      changes: Object.entries(isObject(item.changes) ? item.changes : {}).map(([path, change]) => ({
        path,
        kind: isObject(change) ? change.type : undefined,
      })),
      status: item.status,
    }),
  ],
  [
    'CollabAgentToolCall',
    (item) => ({
      type: 'collab_tool_call',
      id: item.id,
      tool: item.tool,
      sender_thread_id: item.sender_thread_id,
      receiver_thread_ids: item.receiver_thread_ids,
      prompt: item.prompt,
      agents_states: agentStates(item.agents_states),
      status: item.status,
    }),
  ],
]);

/**
 * A sub-agent state as the rollout serializes it (`"pending_init"`, `{"completed": "<message>"}`) in stdout's
 * form, `{status, message}`.
 */
function agentStates(states: unknown): unknown {
  if (!isObject(states)) return states;
  const state = (value: unknown) => {
    if (typeof value === 'string') return { status: value, message: null };
    const [status, message] = isObject(value) ? (Object.entries(value)[0] ?? []) : [];
    return status === undefined ? value : { status, message: message ?? null };
  };
  return Object.fromEntries(Object.entries(states).map(([id, value]) => [id, state(value)]));
}

function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

/** A rollout line's row: its `type`, and for `event_msg` its payload's (`event_msg/task_complete`). */
function rowOf(line: JsonObject): string | undefined {
  if (typeof line.type !== 'string') return undefined;
  const payload = isObject(line.payload) ? line.payload : {};
  return line.type === 'event_msg' ? `event_msg/${String(payload.type)}` : line.type;
}

const payloadOf = (line: JsonObject): JsonObject => (isObject(line.payload) ? line.payload : {});

/** `refusals` false: no `permission_denied` of its own (under spawnHarness, the router's stderr line says it). */
function sessionCorrelator(run: RunContext, refusals = true): Correlator {
  // The line being read: its `timestamp` is the time of the stdout records it stands for.
  let lineTime: unknown;
  const stdout = stdoutCorrelator(run, () => lineTime);
  // The model the turn runs (its turn_context), for the trace's model calls.
  let model: string | undefined;
  // With the trace on, a sub-agent's own rollout: its records are that subagent's, from its first turn's start.
  let thread: AgentStart | undefined;
  // How its last turn ended, unless another began since: the agent's end, said at the end of input.
  let threadEnd: { status: 'completed' | 'failed'; at: unknown } | undefined;
  // The thread's running total at the last token_count: what stdout's turn.completed reports.
  let total: unknown;
  const rows = sessionRecords;
  const directories = commandDirectories(run);
  const raw = rawCalls(run, directories, (item) => stdout.record({ type: 'item.completed', item }), refusals);

  function itemCompleted(line: JsonObject): string {
    const payload = payloadOf(line);
    const item = isObject(payload.item) ? payload.item : {};
    if (item.type === 'UserMessage') return rows['event_msg/item_completed'].rules.user;
    if (!raw.item(item.id)) return rows['event_msg/item_completed'].rules.reported;
    const shape = typeof item.type === 'string' ? itemShapes.get(item.type) : undefined;
    if (shape === undefined) {
      run.emit({ type: 'unknown', raw: line });
      return rows['event_msg/item_completed'].rules.other;
    }
    const shaped = shape(item);
    // Where a command ran: the rollout says (stdout's items never do).
    if (item.type === 'CommandExecution') shaped.working_directory = directories.of(item);
    stdout.record({ type: 'item.completed', item: shaped });
    return rows['event_msg/item_completed'].rules.item;
  }

  function taskComplete(line: JsonObject): string {
    const error = payloadOf(line).error;
    if (isObject(error)) {
      stdout.record({ type: 'error', message: error.message });
      stdout.record({ type: 'turn.failed', error: { message: error.message } });
    } else stdout.record({ type: 'turn.completed', ...(total !== undefined && { usage: total }) });
    if (thread !== undefined) threadEnd = { status: isObject(error) ? 'failed' : 'completed', at: line.timestamp };
    return rows['event_msg/task_complete'].rules[isObject(error) ? 'failed' : 'completed'];
  }

  const consume =
    <Row extends keyof typeof rows>(row: Row) =>
    () =>
      (rows[row].rules as { consumed: string }).consumed;

  const handlers: RecordHandlers<typeof rows> = {
    session_meta(line) {
      run.trace?.began(line.timestamp);
      run.reportSession(payloadOf(line).id);
      run.reportCwd(payloadOf(line).cwd);
      thread = run.trace && subagentThread(line);
      return rows.session_meta.rules.meta;
    },
    'event_msg/task_started'(line) {
      if (thread !== undefined) {
        // Said once: a later turn's agentStarted finds the agent open.
        run.trace!.agent(undefined);
        run.trace!.agentStarted({ ...thread, at: line.timestamp });
        run.trace!.agent(thread.agent_id);
        threadEnd = undefined;
      }
      stdout.record({ type: 'turn.started' });
      return rows['event_msg/task_started'].rules.turn;
    },
    'event_msg/item_completed': itemCompleted,
    'event_msg/token_count'(line) {
      const info = payloadOf(line).info;
      if (isObject(info) && isObject(info.total_token_usage)) total = info.total_token_usage;
      return rows['event_msg/token_count'].rules.kept;
    },
    'event_msg/task_complete': taskComplete,
    'event_msg/*': consume('event_msg/*'),
    response_item(line) {
      const payload = payloadOf(line);
      directories.call(payload);
      // The model asked for a call: when it starts (its item completes when it ends).
      if (run.trace !== undefined && CALLS.has(payload.type) && typeof payload.call_id === 'string')
        run.trace.callStarted({ call_id: payload.call_id, tool: String(payload.name), at: line.timestamp });
      return raw.response(payload) ? rows.response_item.rules.call : rows.response_item.rules.consumed;
    },
    turn_context(line) {
      directories.turn(payloadOf(line));
      model = turnModel(payloadOf(line));
      return rows.turn_context.rules.consumed;
    },
    world_state: consume('world_state'),
    token_usage_record(line) {
      responseUsage(run.trace, line, model);
      return rows.token_usage_record.rules.consumed;
    },
  };
  return {
    record: recordTable(run, handlers, (line) => (lineTime = line?.timestamp), rowOf),
    end() {
      raw.end();
      stdout.end();
      if (thread !== undefined && threadEnd !== undefined)
        run.trace!.agentEnded(thread.agent_id, threadEnd.status, threadEnd.at);
    },
    flush: () => stdout.flush?.(),
  };
}

/**
 * A sub-agent's own rollout (`session_meta.source.subagent.thread_spawn`): the subagent whose records it holds, by its
 * thread id (the parent's orchestration `subagent_id`) and its role or nickname.
 */
function subagentThread(line: JsonObject): AgentStart | undefined {
  const payload = payloadOf(line);
  const source = isObject(payload.source) && isObject(payload.source.subagent) ? payload.source.subagent : {};
  if (!isObject(source.thread_spawn) || typeof payload.id !== 'string' || payload.id === '') return undefined;
  const name = payload.agent_role ?? payload.agent_nickname;
  return { agent_id: payload.id, name: typeof name === 'string' && name !== '' ? name : undefined };
}

const sessionReader: Harness = {
  name: 'codex',
  correlator: (run) => sessionCorrelator(run),
  records: sessionRecords,
  tools,
};

/** A sub-agent's rollout beside a live run (rollout-join.ts): read whole, its refusals said by stderr. */
export const subagentRollout: Harness = { ...sessionReader, correlator: (run) => sessionCorrelator(run, false) };

const ROLLOUT = /^rollout-.+\.jsonl$/;

/** A rollout's first line, session_meta: its thread id and, for a sub-agent, its parent's. */
async function meta(path: string): Promise<{ id: string; parent?: string }> {
  const first = await firstLine(path);
  const payload = isObject(first) && isObject(first.payload) ? first.payload : {};
  const source = isObject(payload.source) && isObject(payload.source.subagent) ? payload.source.subagent : {};
  const spawn = isObject(source.thread_spawn) ? source.thread_spawn : {};
  const fromName = basename(path, '.jsonl').slice(-36);
  return {
    id: typeof payload.id === 'string' ? payload.id : fromName,
    parent: typeof spawn.parent_thread_id === 'string' ? spawn.parent_thread_id : undefined,
  };
}

async function rollouts(root: string): Promise<string[]> {
  const files: string[] = [];
  for (const year of await namesIn(root, 'dir'))
    for (const month of await namesIn(join(root, year), 'dir'))
      for (const day of await namesIn(join(root, year, month), 'dir'))
        files.push(...(await filesIn(join(root, year, month, day), ROLLOUT)));
  return files;
}

/** Rollouts whose first line is read at once: each holds a read buffer, and there may be thousands. */
const CONCURRENT_READS = 8;

/** Every rollout under the sessions folder, sub-agents grouped under their parent thread. */
async function threads(root: string): Promise<SessionLocation[]> {
  const all = await mapLimited(await rollouts(root), CONCURRENT_READS, async (path) => ({
    path,
    ...(await meta(path)),
  }));
  const ids = new Set(all.map((thread) => thread.id));
  return all
    .filter((thread) => thread.parent === undefined || !ids.has(thread.parent))
    .map((thread) => ({
      id: thread.id,
      path: thread.path,
      subagents: all.filter((child) => child.parent === thread.id).map((child) => ({ id: child.id, path: child.path })),
    }));
}

/** The sessions folder a rollout is in: `<root>/YYYY/MM/DD/rollout-….jsonl`. */
const rootOf = (path: string) => join(path, '..', '..', '..', '..');

export const session: SessionFormat = {
  harness: 'codex',
  where: '.codex/sessions/YYYY/MM/DD/rollout-<time>-<threadId>.jsonl (a sub-agent: its own rollout)',
  reader: sessionReader,
  env: ['CODEX_HOME'],
  async *find(home, env) {
    yield* await threads(join(envDir(env, 'CODEX_HOME') ?? join(home, '.codex'), 'sessions'));
  },
  async locate(path) {
    const found = (await threads(rootOf(path))).find((thread) => thread.path === path);
    return found ?? { id: (await meta(path)).id, path, subagents: [] };
  },
  mergesSubagents: false,
  facts(record) {
    if (!isObject(record)) return {};
    const payload = isObject(record.payload) ? record.payload : {};
    const isMeta = record.type === 'session_meta';
    return {
      time: typeof record.timestamp === 'string' ? record.timestamp : undefined,
      cwd: isMeta && typeof payload.cwd === 'string' ? payload.cwd : undefined,
      id: isMeta && typeof payload.id === 'string' ? payload.id : undefined,
    };
  },
  endRules: new Set([
    sessionRecords['event_msg/task_complete'].rules.completed,
    sessionRecords['event_msg/task_complete'].rules.failed,
  ]),
};
