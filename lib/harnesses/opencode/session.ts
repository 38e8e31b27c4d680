/**
 * OpenCode's session store read as a session (docs/harnesses/opencode.md "Session events"): the
 * session's change log, the `event` rows of `opencode.db` in the order they were written. Each
 * row is the whole part or message as it stood at that moment; the part in the state `run
 * --format json` prints it (a tool once it has finished, a text once it has ended, a step's start
 * and finish) is handed to the stdout correlator as the record stdout printed, so both sides give
 * the same events. The rest of the log (earlier states, the prompt, the session's bookkeeping)
 * is consumed; a failed model call is the message's `error`, which stdout printed as an `error`.
 */
import type { Correlator, Harness, RunContext, ToolTable } from '../../kernel/harness.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { recordTable, recordRows } from '../../kernel/record-table.js';
import type { SessionFormat } from '../../kernel/session.js';
import { openCodeCorrelator } from './correlate.js';
import { databases, locate, readableSessions, store, storeDrift, type StoreLayout } from './store.js';
import { tools } from './tools.js';

/** docs/harnesses/opencode.md "Session events": one row per `event.type`. */
const sessionRecords = recordRows({
  'session.created.1': {
    handling:
      'the session row (id, directory, title, model): its `info.directory` is the working directory relative paths ' +
      'resolve against (stdout never names it); consumed',
    rules: { consumed: 'session.created.1: working directory; consumed' },
  },
  'session.updated.1': {
    handling: 'consumed; after the turn finished, the session is still idle (an end marker for follow)',
    rules: { consumed: 'session.updated.1: consumed', idle: 'session.updated.1, turn finished: consumed, idle' },
  },
  'message.updated.1': {
    handling:
      "an assistant message with `error` is stdout's `error` record (once per message); one completed " +
      '(`time.completed`) with a `finish` other than `tool-calls` ends the turn (the end marker follow stops at); ' +
      "a user message's role is kept (its parts are the prompt); otherwise consumed",
    rules: {
      error: "message.updated.1 with error: stdout's error record",
      finished: 'message.updated.1, assistant, completed, finish not tool-calls: consumed, end of turn',
      idle: 'message.updated.1, turn finished: consumed, idle',
      consumed: 'message.updated.1: consumed',
      malformed: 'message.updated.1 without info.id and info.role: unknown',
    },
  },
  'message.part.updated.1': {
    handling:
      "the part in the state stdout prints it, as stdout's record: `step-start` and `step-finish` when first " +
      'written (`step_start`, `step_finish`), `text` and `reasoning` once `time.end` is set, a `tool` once its ' +
      'status is `completed` or `error` (`tool_use`); earlier states, the parts of user messages (the prompt), ' +
      'parts already given and the part types stdout never prints (`patch`, `file`, `agent`, `subtask`, ' +
      '`snapshot`, `retry`, `compaction`) consumed',
    rules: {
      step_start: "message.part.updated.1, step-start: stdout's step_start",
      step_finish: "message.part.updated.1, step-finish: stdout's step_finish",
      text: "message.part.updated.1, text with time.end: stdout's text",
      reasoning: "message.part.updated.1, reasoning with time.end: stdout's reasoning",
      tool: "message.part.updated.1, tool completed or error: stdout's tool_use",
      partial: 'message.part.updated.1, a state before the one stdout prints: consumed',
      prompt: "message.part.updated.1, a user message's part (the prompt): consumed",
      repeated: 'message.part.updated.1, a part already given: consumed',
      silent: 'message.part.updated.1, a part type stdout never prints: consumed',
      malformed: 'message.part.updated.1 without part.id and part.type, or of a type OpenCode has not: unknown',
    },
  },
  'message.part.removed.1': {
    handling: 'consumed (Kilo removes its transient snapshot part)',
    rules: { consumed: 'message.part.removed.1: consumed' },
  },
});

const rules = {
  session: sessionRecords['session.updated.1'].rules,
  message: sessionRecords['message.updated.1'].rules,
  part: sessionRecords['message.part.updated.1'].rules,
};

/** Part types `run --format json` never prints (OpenCode's MessageV2 part union). */
const SILENT_PARTS = new Set(['patch', 'file', 'agent', 'subtask', 'snapshot', 'retry', 'compaction']);
const FINISHED_TOOL = new Set(['completed', 'error']);

function sessionCorrelator(stdoutCorrelator: (run: RunContext) => Correlator): (run: RunContext) => Correlator {
  return (run) => {
    const stdout = stdoutCorrelator(run);
    // The parts (and errored messages) already handed on, and each message's role; bounded like every held id.
    const given = new BoundedMap<true>(run.limits);
    const roles = new BoundedMap<string>(run.limits);
    let turnFinished = false;

    function message(data: JsonObject): string {
      const info = isObject(data.info) ? data.info : undefined;
      if (info === undefined || typeof info.id !== 'string' || typeof info.role !== 'string') {
        run.emit({ type: 'unknown', raw: data });
        return rules.message.malformed;
      }
      roles.set(info.id, info.role);
      if (info.role === 'assistant' && info.error !== undefined && !given.has(`error ${info.id}`)) {
        given.set(`error ${info.id}`, true);
        stdout.record({ type: 'error', sessionID: data.sessionID, error: info.error });
        turnFinished = true;
        return rules.message.error;
      }
      const time = isObject(info.time) ? info.time : {};
      if (info.role === 'assistant' && time.completed !== undefined && typeof info.finish === 'string') {
        turnFinished = info.finish !== 'tool-calls';
        if (turnFinished) return rules.message.finished;
      }
      return turnFinished ? rules.message.idle : rules.message.consumed;
    }

    function part(data: JsonObject): string {
      const value = isObject(data.part) ? data.part : undefined;
      const kind = value?.type;
      if (value === undefined || typeof value.id !== 'string' || typeof kind !== 'string') {
        run.emit({ type: 'unknown', raw: data });
        return rules.part.malformed;
      }
      turnFinished = false;
      if (typeof value.messageID === 'string' && roles.get(value.messageID) === 'user') return rules.part.prompt;
      if (SILENT_PARTS.has(kind)) return rules.part.silent;
      const printer = KINDS.get(kind);
      if (printer === undefined) {
        run.emit({ type: 'unknown', raw: data });
        return rules.part.malformed;
      }
      const printed = printer(value);
      if (printed === undefined) return rules.part.partial;
      if (given.has(value.id)) return rules.part.repeated;
      given.set(value.id, true);
      // The row's `time` is when it was written: stdout's `timestamp` (the trace's harness time).
      stdout.record({
        type: printed.record,
        timestamp: data.time,
        sessionID: data.sessionID ?? value.sessionID,
        part: value,
      });
      return printed.rule;
    }

    return {
      record: recordTable<typeof sessionRecords>(
        run,
        {
          'session.created.1': (record) => {
            const data = isObject(record.data) ? record.data : {};
            const info = isObject(data.info) ? data.info : {};
            run.reportCwd(info.directory);
            run.trace?.began(isObject(info.time) ? info.time.created : undefined);
            return sessionRecords['session.created.1'].rules.consumed;
          },
          'session.updated.1': () => (turnFinished ? rules.session.idle : rules.session.consumed),
          'message.updated.1': (record) => message(isObject(record.data) ? record.data : {}),
          'message.part.updated.1': (record) => part(isObject(record.data) ? record.data : {}),
          'message.part.removed.1': () => sessionRecords['message.part.removed.1'].rules.consumed,
        },
        (record) => {
          const data = record !== undefined && isObject(record.data) ? record.data : undefined;
          run.reportSession(data?.sessionID);
        },
      ),
      end: () => stdout.end(),
      flush: () => stdout.flush?.(),
    };
  };
}

/** The part types stdout prints, and the state in which it prints each. */
const KINDS = new Map<string, (part: JsonObject) => { record: string; rule: string } | undefined>([
  ['step-start', () => ({ record: 'step_start', rule: rules.part.step_start })],
  ['step-finish', () => ({ record: 'step_finish', rule: rules.part.step_finish })],
  ['text', (part) => (ended(part) ? { record: 'text', rule: rules.part.text } : undefined)],
  ['reasoning', (part) => (ended(part) ? { record: 'reasoning', rule: rules.part.reasoning } : undefined)],
  [
    'tool',
    (part) =>
      isObject(part.state) && FINISHED_TOOL.has(part.state.status as string)
        ? { record: 'tool_use', rule: rules.part.tool }
        : undefined,
  ],
]);

const ended = (part: JsonObject) => isObject(part.time) && part.time.end !== undefined;

/** The session format of OpenCode or a fork that keeps OpenCode's store (Kilo). */
export function openCodeSessions(options: {
  harness: string;
  layout: StoreLayout;
  stdoutCorrelator: (run: RunContext) => Correlator;
  tools: ToolTable;
}): SessionFormat {
  const { harness, layout } = options;
  const reader: Harness = {
    name: harness,
    correlator: sessionCorrelator(options.stdoutCorrelator),
    records: sessionRecords,
    tools: options.tools,
    toolKey: (name) => name.toLowerCase(),
  };
  return {
    harness,
    where: `.local/share/${layout.dir}/${layout.dir}.db#<session id>`,
    reader,
    env: ['XDG_DATA_HOME', layout.dbEnv],
    async *find(home, env) {
      yield* readableSessions(await databases(layout, home, env));
    },
    async drift(home, env) {
      return storeDrift(harness, await databases(layout, home, env));
    },
    locate,
    // A subagent is a session of its own (its own messages and usage); stdout printed only its task call.
    mergesSubagents: false,
    facts(record) {
      const data = isObject(record) && isObject(record.data) ? record.data : {};
      return { id: typeof data.sessionID === 'string' ? data.sessionID : undefined };
    },
    endRules: new Set([rules.message.finished, rules.message.idle, rules.message.error, rules.session.idle]),
    store,
  };
}

export const session = openCodeSessions({
  harness: 'opencode',
  layout: { dir: 'opencode', names: /^opencode(-[\w.-]+)?\.db$/, dbEnv: 'OPENCODE_DB' },
  stdoutCorrelator: openCodeCorrelator('OpenCode'),
  tools,
});
