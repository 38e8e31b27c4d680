/**
 * OpenCode, `opencode run --format json`: docs/harnesses/opencode.md's "Raw event stream" and "Normalized
 * mapping" tables, as tables.
 *
 * Almost stateless. Every record is complete when it arrives: text and reasoning parts are
 * printed once finished, and a `tool_use` carries its input and its outcome together, so it
 * goes straight to the tool table (tools.ts). The one state kept is the ids of the tool parts
 * already seen, because compaction re-prints a finished part (OpenCode's `run` command).
 * There is no terminal record: the stream just ends, possibly mid-step.
 */
import type { Tokens } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import type { RunTrace } from '../../kernel/trace.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { isObject, safeStringify, type JsonObject } from '../../kernel/json.js';
import { recordTable, recordRows } from '../../kernel/record-table.js';
import { addTokens, amount, tokensOf } from '../../kernel/metrics.js';
import { resolvePath } from '../../kernel/paths.js';
import { permissionDenied, type Refusal } from '../../kernel/permission-denied.js';
import { stringField } from '../../kernel/tool-rules.js';

/** Where OpenCode's session id may sit at the top level of a record, in the order they are tried. */
const SESSION_FIELDS = ['sessionID', 'session_id', 'sessionId'] as const;

/** `state.status` values (docs/harnesses/opencode.md "Raw event stream"); any other leaves success unset. */
const STATUS_SUCCESS = new Map<string, boolean>([
  ['completed', true],
  ['success', true],
  ['done', true],
  ['ok', true],
  ['error', false],
  ['failed', false],
  ['failure', false],
  ['cancelled', false],
  ['canceled', false],
]);

/** docs/harnesses/opencode.md "Normalized mapping", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  step_start: { handling: 'consumed', rules: { consumed: 'step_start: consumed' } },
  step_finish: {
    handling: "consumed; this step's token usage is a usage event, summed into the run's metrics",
    rules: { usage: 'step_finish: usage', noTokens: 'step_finish without tokens: unknown' },
  },
  reasoning: {
    handling: 'reasoning when it carries text, otherwise consumed',
    rules: {
      event: 'reasoning: reasoning',
      empty: 'reasoning, empty: consumed',
      noText: 'reasoning without text: unknown',
    },
  },
  text: {
    handling: 'agent message when it carries text, otherwise consumed',
    rules: { event: 'text: agent', empty: 'text, empty: consumed', noText: 'text without text: unknown' },
  },
  tool_use: {
    handling:
      'the events its tool classifies to (the tool table), then, for a call the permission config refused, a ' +
      '`permission_denied` warning; a part id already seen is consumed',
    rules: {
      tool: 'tool_use: tool mapping',
      refused: 'tool_use refused by a permission: tool mapping, warning',
      repeated: 'tool_use, repeated part id: consumed',
      malformed: 'tool_use, malformed: unknown',
    },
  },
  error: { handling: 'error', rules: { error: 'error: error' } },
});

/**
 * OpenCode's correlator for a stream written by `name`'s `run --format json`: OpenCode itself,
 * or a fork that writes the same records (Kilo). Only messages name the harness.
 */
export function openCodeCorrelator(name: string): (run: RunContext) => Correlator {
  return (run) => correlate(run, name);
}

export const correlator = openCodeCorrelator('OpenCode');

function correlate(run: RunContext, harness: string): Correlator {
  // Ids of the tool parts already seen; one re-printed after more than the limit of newer ones is classified again.
  const seenToolParts = new BoundedMap<true>(run.limits);

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  // When the step being read started (its `step_start` record's time), for its model call.
  let stepStarted: unknown;

  /** One step's usage: a per-turn event, and the same tokens and cost added to the run's metrics. */
  function stepFinish(record: JsonObject): string {
    const { metrics } = run;
    metrics.turns = (metrics.turns ?? 0) + 1;
    const part = isObject(record.part) ? record.part : undefined;
    if (!part || !isObject(part.tokens)) {
      unknown(record);
      return records.step_finish.rules.noTokens;
    }
    const tokens = opencodeTokens(part.tokens);
    const cost = amount(part.cost);
    addTokens(metrics.tokens, tokens);
    if (cost !== undefined) metrics.cost = (metrics.cost ?? 0) + cost;
    const model_call_id = typeof part.messageID === 'string' && part.messageID !== '' ? part.messageID : undefined;
    if (run.trace !== undefined) {
      // Kilo's step-finish carries the step's own `time`; OpenCode's only the records' print times.
      const time = isObject(part.time) ? part.time : {};
      const started_at = time.start ?? stepStarted;
      run.trace.modelCall({ model_call_id, tokens, cost, started_at, at: time.end ?? record.timestamp });
    }
    stepStarted = undefined;
    run.emit({ type: 'usage', tokens, cost }, run.trace && { model_call_id });
    return records.step_finish.rules.usage;
  }

  function textPart(record: JsonObject, kind: 'agent' | 'reasoning'): string {
    const { rules } = kind === 'agent' ? records.text : records.reasoning;
    const text = isObject(record.part) ? record.part.text : undefined;
    if (typeof text !== 'string') {
      unknown(record);
      return rules.noText;
    }
    // Real OpenCode prints empty parts (hidden reasoning, an empty text block): nothing to report.
    if (text === '') return rules.empty;
    run.emit({ type: kind, message: text });
    if (kind === 'agent') run.metrics.final_output = text;
    return rules.event;
  }

  function toolUse(record: JsonObject): string {
    const part = record.part;
    if (!isObject(part) || typeof part.tool !== 'string' || part.tool === '' || !isObject(part.state)) {
      unknown(record);
      return records.tool_use.rules.malformed;
    }
    if (typeof part.id === 'string' && part.id !== '') {
      if (seenToolParts.has(part.id)) return records.tool_use.rules.repeated;
      seenToolParts.set(part.id, true);
    }
    const { state } = part;
    const metadata = isObject(state.metadata) ? state.metadata : undefined;
    const exit = metadata?.exit;
    const workdir = stringField(state.input, 'workdir');
    const call_id = typeof part.callID === 'string' && part.callID !== '' ? part.callID : undefined;
    // The part is printed once the call has finished: its `state.time` holds both harness times.
    const time = isObject(state.time) ? state.time : {};
    run.tool({
      id: call_id,
      name: part.tool,
      input: state.input,
      is_success: typeof state.status === 'string' ? STATUS_SUCCESS.get(state.status) : undefined,
      exit_code: typeof exit === 'number' && Number.isInteger(exit) ? exit : undefined,
      // Where bash ran: its `workdir`, else the run's directory (docs/harnesses/opencode.md, bash's `workdir`).
      working_directory:
        workdir !== undefined ? resolvePath(workdir, run.cwd) : part.tool === 'bash' ? run.cwd : undefined,
      result: state.metadata,
      output: state.output,
      raw: part,
      started_at: time.start,
      ended_at: time.end,
    });
    if (run.trace !== undefined && call_id !== undefined) childSession(run.trace, part.tool, call_id, state);
    const refusal = refusalOf(part.tool, state);
    if (refusal === undefined) return records.tool_use.rules.tool;
    permissionDenied(run, refusal);
    return records.tool_use.rules.refused;
  }

  function error(record: JsonObject): string {
    const { error } = record;
    const name = stringField(error, 'name');
    const data = isObject(error) ? error.data : undefined;
    // 1.18 exits 1 once the root session reported an error.
    run.metrics.is_error = true;
    run.emit({
      type: 'error',
      message: stringField(data, 'message') ?? name ?? describeError(error, harness),
      code: name,
    });
    return records.error.rules.error;
  }

  return {
    record: recordTable<typeof records>(
      run,
      {
        step_start: (record) => {
          stepStarted = record.timestamp;
          return records.step_start.rules.consumed;
        },
        step_finish: stepFinish,
        reasoning: (record) => textPart(record, 'reasoning'),
        text: (record) => textPart(record, 'agent'),
        tool_use: toolUse,
        error,
      },
      (record) => {
        if (record) for (const field of SESSION_FIELDS) run.reportSession(record[field]);
      },
    ),
    // Nothing is held: every record was handled as it came.
    end() {},
  };
}

/**
 * The shared token mapping (docs/contract.md): OpenCode's `input` already excludes cache reads and
 * writes, and `output` excludes reasoning, so each class maps one to one; `total` is not a class.
 */
function opencodeTokens(tokens: JsonObject): Tokens {
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  return tokensOf({
    input: tokens.input,
    output: tokens.output,
    reasoning: tokens.reasoning,
    cache_read: cache.read,
    cache_write: cache.write,
  });
}

/** The tools whose call runs a child session: its subagent (tools.ts's orchestration rows). */
const SUBAGENT_TOOLS = new Set(['task', 'agent_manager']);

/**
 * A finished call that ran a child session in the foreground: the subagent's start and end are the call's (the
 * orchestration event says only that it completed). A backgrounded one's agent starts with its `subagent_started`.
 */
function childSession(trace: RunTrace, tool: string, call_id: string, state: JsonObject): void {
  const agent_id = stringField(state.metadata, 'sessionId');
  const background = isObject(state.metadata) && state.metadata.background === true;
  if (!SUBAGENT_TOOLS.has(tool.toLowerCase()) || agent_id === undefined || background) return;
  const time = isObject(state.time) ? state.time : {};
  trace.agentStarted({ agent_id, call_id, name: stringField(state.input, 'subagent_type'), at: time.start });
  trace.agentEnded(agent_id, STATUS_SUCCESS.get(state.status as string) === false ? 'failed' : 'completed', time.end);
}

/** What `run` writes for a call it auto-rejected (docs/harnesses/opencode.md "Refused calls"). */
const REJECTED = 'The user rejected permission to use this specific tool call.';

/**
 * A refused call: its error is the rejection. Without feedback, OpenCode halts the session at it (the run ends);
 * with feedback (`... with the following feedback: ...`) it goes on.
 */
function refusalOf(tool: string, state: JsonObject): Refusal | undefined {
  const error = state.error;
  if (state.status !== 'error' || typeof error !== 'string' || !error.startsWith(REJECTED.slice(0, -1)))
    return undefined;
  return { tool, reason: error, stopped: error === REJECTED };
}

/**
 * An error record with neither `data.message` nor `name`: a failed prompt call prints its HTTP error body, whatever it
 * is.
 */
function describeError(error: unknown, harness: string): string {
  if (typeof error === 'string' && error !== '') return error;
  if (error === undefined) return `${harness} reported an error without details`;
  return `${harness} reported an error: ${safeStringify(error) ?? 'an error record nested too deep to show'}`;
}
