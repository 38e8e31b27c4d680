/**
 * Cline CLI 3.x, `cline --json PROMPT`: docs/harnesses/cline.md's tables (records.ts) and the state
 * behind them.
 *
 * The stream is call-oriented: almost every line is an `agent_event` wrapping one event of the
 * agent loop. Text arrives as deltas and is restated whole by its `content_end`, so events come
 * from `content_end`; the deltas are kept only for a stream cut before it. A tool call is
 * announced by a `content_start` under its `toolCallId` and classified (tools.ts) at the
 * `content_end` with that id. A `spawn_agent` sub-agent's events come inside its call and are
 * mapped like the main agent's; a teammate's come wrapped in `team_event` lines.
 */
import { createHash } from 'node:crypto';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { addTokens } from '../../kernel/metrics.js';
import { recordTable } from '../../kernel/record-table.js';
import { stringField } from '../../kernel/tool-rules.js';
import { permissionDenied } from '../../kernel/permission-denied.js';
import { PendingText } from './pending-text.js';
import { agentEvents, consumedTeamTypes, records, teamEvents } from './records.js';
import { refusalOf } from './refusals.js';
import { usageEvent } from './usage.js';
import { clineTrace } from './trace.js';

export { agentEvents, records, teamEvents };

/** A call announced by its `content_start`: the line it came in (the whole `team_event` for a teammate's). */
interface Announced {
  line: JsonObject;
  id: string;
  name: string;
  input: unknown;
}

/**
 * How many error messages are remembered for the records that repeat one (`run_result`, stderr's `error`): as
 * digests, so a long message costs no more than a short one.
 */
const REMEMBERED_ERRORS = 64;
const digest = (message: string) => createHash('sha256').update(message).digest('base64');

/** Fills what `content_start`/`content_end` lack for a tool: its id and name. */
const toolOf = (event: JsonObject) => ({ id: stringField(event, 'toolCallId'), name: stringField(event, 'toolName') });

/** A call failed as a whole: a non-empty `error` on its `content_end`, or an `error` field in its output. */
function failedAsWhole(end: JsonObject): boolean {
  return (typeof end.error === 'string' && end.error !== '') || (isObject(end.output) && 'error' in end.output);
}

/** A finished call's success before its row reads the operations (tools.ts). */
function successOf(end: JsonObject): boolean {
  if (failedAsWhole(end)) return false;
  return isObject(end.output) && typeof end.output.success === 'boolean' ? end.output.success : true;
}

export function correlator(run: RunContext): Correlator {
  const calls = new BoundedMap<Announced>(run.limits, unresolved);
  const pending = new PendingText(run);
  const errors = new BoundedMap<true>(REMEMBERED_ERRORS);
  /** A call was refused: a `run_aborted` then is the refusal's doing. */
  let refused = false;
  const shutDown = new BoundedMap<true>(run.limits.maxPendingTools);
  const traced = run.trace && clineTrace(run.trace, run.limits);

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  function error(message: string, code?: string): void {
    const key = digest(message);
    errors.take(key);
    errors.set(key, true);
    run.metrics.is_error = true;
    run.emit({ type: 'error', message, code });
  }

  /** An error unless one with the same message went out already; true when it was emitted. */
  function errorOnce(message: string, code?: string): boolean {
    if (errors.has(digest(message))) return false;
    error(message, code);
    return true;
  }

  /** A call whose `content_end` never came: classified with its outcome unset; a sub-agent's adds nothing. */
  function unresolved(call: Announced): void {
    run.tool({
      id: call.id,
      name: call.name,
      input: call.input,
      raw: { content_start: call.line },
    });
  }

  function contentStart(line: JsonObject, event: JsonObject): string {
    const { rules } = agentEvents.content_start;
    const kind = event.contentType;
    if (kind === 'text' || kind === 'reasoning') {
      const delta = event[kind];
      if (typeof delta === 'string') {
        pending.add(kind === 'text' ? 'agent' : 'reasoning', delta);
        return rules.delta;
      }
    }
    const { id, name } = toolOf(event);
    if (kind !== 'tool' || id === undefined || name === undefined) {
      unknown(line);
      return rules.malformedStart;
    }
    // An id announced twice while the first waits: the first is given up on, as at the end of input.
    const earlier = calls.take(id);
    if (earlier) unresolved(earlier);
    // Sized by its line alone: the input is part of it.
    calls.set(id, { line, id, name, input: event.input }, line);
    run.trace?.callStarted({ call_id: id, tool: name, at: line.ts });
    if (name !== 'spawn_agent') return rules.tool;
    traced?.spawn(id, line);
    run.emit({ type: 'orchestration', action: 'subagent_started', subagent_id: id });
    return rules.subagent;
  }

  function contentEnd(line: JsonObject, event: JsonObject): string {
    const { rules } = agentEvents.content_end;
    const kind = event.contentType;
    if (kind === 'text' || kind === 'reasoning') {
      const text = event[kind];
      if (typeof text === 'string') {
        const type = kind === 'text' ? 'agent' : 'reasoning';
        pending.clear(type);
        if (text.trim() === '') return rules.blank;
        run.emit({ type, message: text });
        return kind === 'text' ? rules.agent : rules.reasoning;
      }
    }
    const { id } = toolOf(event);
    if (kind !== 'tool' || id === undefined) {
      unknown(line);
      return rules.malformedEnd;
    }
    const call = calls.take(id);
    if (call === undefined) {
      unknown(line);
      return rules.unannounced;
    }
    run.tool({
      id,
      name: call.name,
      input: call.input,
      is_success: successOf(event),
      output: event.output,
      raw: { content_start: call.line, content_end: line },
      ended_at: line.ts,
    });
    const refusal = refusalOf(call.name, event);
    if (refusal === undefined) return rules.toolEnd;
    refused = true;
    permissionDenied(run, refusal);
    return rules.refused;
  }

  function usage(line: JsonObject, event: JsonObject): string {
    const body = usageEvent(event);
    traced?.usage(line, body?.tokens, body?.cost);
    if (body === undefined) return agentEvents.usage.rules.zero;
    addTokens(run.metrics.tokens, body.tokens);
    if (body.cost !== undefined) run.metrics.cost = (run.metrics.cost ?? 0) + body.cost;
    run.emit(body);
    return agentEvents.usage.rules.usage;
  }

  function notice(line: JsonObject, event: JsonObject): string {
    const { rules } = agentEvents.notice;
    if (event.noticeType === 'status') return rules.status;
    const message = stringField(event, 'message');
    if ((event.noticeType !== 'recovery' && event.noticeType !== 'stop') || message === undefined) {
      unknown(line);
      return rules.otherNotice;
    }
    run.emit({ type: 'warning', message, code: stringField(event, 'reason') });
    return rules.noticeWarning;
  }

  function agentError(line: JsonObject, event: JsonObject): string {
    const { rules } = agentEvents.error;
    const message = isObject(event.error) ? stringField(event.error, 'message') : undefined;
    if (message === undefined || typeof event.recoverable !== 'boolean') {
      unknown(line);
      return rules.noMessage;
    }
    const code = stringField(event, 'errorClass');
    if (!event.recoverable) {
      error(message, code);
      return rules.fatal;
    }
    run.emit({ type: 'warning', message, code });
    return rules.recoverable;
  }

  /** One `AgentEvent`, from a top-level `agent_event` or a teammate's `team_event`; `line` is what carries it. */
  function agentEvent(line: JsonObject, event: JsonObject): string {
    switch (event.type) {
      case 'content_start':
        return contentStart(line, event);
      case 'content_update':
        return agentEvents.content_update.rules.consumed;
      case 'content_end':
        return contentEnd(line, event);
      case 'usage':
        return usage(line, event);
      case 'notice':
        return notice(line, event);
      case 'error':
        return agentError(line, event);
      case 'iteration_start':
        traced?.iterationStart(line);
        return agentEvents[event.type].rules.consumed;
      case 'done':
        traced?.done(line, event);
        return agentEvents[event.type].rules.consumed;
      case 'iteration_end':
        return agentEvents[event.type].rules.consumed;
      default:
        unknown(line);
        return agentEvents['any other event.type'].rules.unknown;
    }
  }

  const eventOf = (line: JsonObject) =>
    isObject(line.event) && typeof line.event.type === 'string' ? line.event : undefined;

  function topAgentEvent(line: JsonObject): string {
    const event = eventOf(line);
    if (event !== undefined) return agentEvent(line, event);
    unknown(line);
    return records.agent_event.rules.malformed;
  }

  function teamEvent(line: JsonObject): string {
    const event = eventOf(line);
    if (event === undefined) {
      unknown(line);
      return records.team_event.rules.malformed;
    }
    const type = event.type as string;
    const agentId = stringField(event, 'agentId');
    if (type === 'teammate_spawned') {
      if (agentId === undefined) return (unknown(line), teamEvents.teammate_spawned.rules.noAgent);
      run.emit({ type: 'orchestration', action: 'subagent_started', subagent_id: agentId });
      return teamEvents.teammate_spawned.rules.spawned;
    }
    if (type === 'teammate_shutdown') {
      const { rules } = teamEvents.teammate_shutdown;
      if (agentId === undefined) return (unknown(line), rules.noShutdownAgent);
      if (shutDown.has(agentId)) return rules.again;
      shutDown.set(agentId, true);
      run.emit({ type: 'orchestration', action: 'subagent_completed', subagent_id: agentId, is_success: true });
      return rules.shutdown;
    }
    if (type === 'agent_event') {
      const inner = eventOf(event);
      if (inner === undefined) return (unknown(line), teamEvents.agent_event.rules.noEvent);
      if (inner.type === 'usage') return teamEvents.agent_event.rules.teammateUsage;
      return agentEvent(line, inner);
    }
    if (consumedTeamTypes.has(type)) return teamEvents.consumed.rules.consumed;
    unknown(line);
    return teamEvents['any other team event'].rules.unknown;
  }

  function runResult(line: JsonObject): string {
    const { rules } = records.run_result;
    const { metrics } = run;
    metrics.ended = true;
    const finishReason = stringField(line, 'finishReason');
    const text = typeof line.text === 'string' ? line.text : undefined;
    if (text !== undefined) metrics.final_output = text;
    if (typeof line.iterations === 'number' && Number.isSafeInteger(line.iterations) && line.iterations >= 0)
      metrics.turns = line.iterations;
    if (typeof line.durationMs === 'number' && line.durationMs >= 0) metrics.duration_ms = line.durationMs;
    metrics.is_error = finishReason !== 'completed';
    if (finishReason === 'completed' || finishReason === 'aborted') return rules.consumed;
    const message = text || `run finished with ${finishReason ?? 'no finishReason'}`;
    return errorOnce(message, finishReason) ? rules.error : rules.repeated;
  }

  /** A record whose only content is a `message`: an error (or unknown without one). */
  function messageError(line: JsonObject, rules: { error: string; malformed: string }, code?: string): string {
    const message = stringField(line, 'message');
    if (message === undefined) return (unknown(line), rules.malformed);
    error(message, code);
    return rules.error;
  }

  function stderrError(line: JsonObject): string {
    const { rules } = records.error;
    const message = stringField(line, 'message');
    if (message === undefined) return (unknown(line), rules.malformed);
    return errorOnce(message) ? rules.error : rules.repeated;
  }

  return {
    record: recordTable<typeof records>(run, {
      agent_event: topAgentEvent,
      hook_event: (line) => (traced?.hook(line), records.hook_event.rules.consumed),
      team_event: teamEvent,
      run_start: (line) => (run.reportSession(line.sessionId), records.run_start.rules.consumed),
      run_result: runResult,
      run_aborted: (line) => {
        // Cline aborts the run at a refused call: the run was stopped by the permission setting.
        if (refused) run.metrics.stopped_by_permission = true;
        return messageError(line, records.run_aborted.rules, stringField(line, 'reason'));
      },
      run_abort_requested: (line) => {
        run.emit({
          type: 'warning',
          message: `abort requested: ${stringField(line, 'reason') ?? 'unknown reason'}`,
          code: 'abort_requested',
        });
        return records.run_abort_requested.rules.warning;
      },
      team_restored: () => records.team_restored.rules.consumed,
      zen_dispatched: (line) => (run.reportSession(line.sessionId), records.zen_dispatched.rules.consumed),
      error: stderrError,
      zen_error: (line) => messageError(line, records.zen_error.rules),
    }),
    end() {
      pending.flush();
      calls.evictAll();
    },
  };
}
