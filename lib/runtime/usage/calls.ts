/**
 * The model calls of one run's trace or events (docs/usage.md "Counted once"): each trace `model_call` with tokens or
 * a cost is a call; a `usage` event is one only where no model call stands for it (it names none, and its run has
 * no `model_call` with tokens: Codex's running-total shares, stdout sources without the trace). Which subagent and
 * skill a call belongs to is read from the same records. A run whose `run_ended` gives its own total, beyond what its
 * calls add up to, has the rest accounted as tokens no call itemizes (unitemized.ts).
 */
import type { HarnessEvent, Tokens } from '../../kernel/events.js';
import type { TraceRecord, TraceRecordOf } from '../../kernel/trace.js';
import type { UsageCall } from './call.js';
import type { CallHint } from './hints.js';
import { unitemized, type ReportedTotal } from './unitemized.js';
import { addTokens } from '../../kernel/metrics.js';

/** What a run's records do not say: set by the reader of a session, or by the caller for a stream. */
export interface RunContext {
  /** The harness, until a `run_started` names it. */
  harness?: string;
  session?: string;
  project?: string;
  /** The agent every call of the run belongs to (a subagent's own file). */
  agent?: string;
  /** That agent's name or type, where another file gave it (its parent's). */
  agentName?: string;
  /** Told each subagent's name or type the records give. */
  named?: (agent: string, name: string) => void;
  /** What the session's records say of a call (the session that made it, its model), by model call id. */
  hint?: (model_call_id: string) => CallHint | undefined;
  /** The time of the record read last, for a call whose record has no time of its own (a session's usage event). */
  time?: () => string | undefined;
  /**
   * Told of a run whose stdout does not carry each call (docs/usage.md "From stdout"): one that counted no call, and
   * one whose own total has tokens beyond its calls.
   */
  warn?: (message: string) => void;
}

/**
 * Harnesses whose stdout gives the run's total and no call's usage (docs/usage.md "From stdout"): a run of theirs
 * counts no call, which is said, never a silent zero.
 */
const TOTALS_ONLY: Readonly<Record<string, string>> = {
  gemini: "its stdout gives only the run's total (result.stats: the run's metrics)",
  goose: "its stdout gives only the session's total (complete: the run's metrics)",
};

/**
 * Harnesses whose stdout leaves a subagent's calls out (docs/usage.md "From stdout"): a run that started one is short
 * of them, which is said; where the run's own total has them, they are accounted as unitemized tokens.
 */
const SUBAGENTS_OFF_STDOUT: Readonly<Record<string, string>> = {
  'claude-code': "its subagents' calls are not on stdout",
  qwen: "a subagent's calls are not on its stdout (its messages carry zero usage)",
  opencode: 'a subagent is a child session whose calls are not on its stdout',
  kilo: 'a subagent is a child session whose calls are not on its stdout',
};

/** What a harness's model calls without tokens mean, where they are said (Claude Code's can carry them). */
const UNTOKENED: Readonly<Record<string, string>> = {
  'claude-code': 'its model calls carry no tokens on stdout without --include-partial-messages',
  copilot: 'its model calls carry no tokens on stdout (model.call_finished has none)',
};

/** Either kind of input: trace records, or plain events. */
export type UsageRecord = TraceRecord | HarnessEvent;

const MAIN = '';

/** The calls of one run's records, in order. */
export async function* runCalls(records: AsyncIterable<UsageRecord>, context: RunContext): AsyncGenerator<UsageCall> {
  let harness = context.harness ?? 'unknown';
  const names = new Map<string, string>();
  const skills = new Map<string, string>();
  let traced = false;
  let held: UsageCall[] = [];
  let n = 0;
  // This run's calls counted, their tokens by model, and whether it had model calls without tokens (Claude Code
  // without partial messages); its start and its own total (`run_ended`).
  let counted = 0;
  const called = new Map<string | undefined, Tokens>();
  let untokened = false;
  let seen = false;
  // Whether the run had a subagent: any orchestration event (OpenCode, Kilo and Qwen Code print only its end).
  let delegated = false;
  let started: string | undefined;
  let total: (ReportedTotal & { at: string }) | undefined;
  // The run's latest time from the harness's own records: its unitemized tokens' time (a run read later is then
  // dated by its own records, not by when it was read).
  let latest: string | undefined;

  /** Counts a call of this run. */
  const counting = (found: UsageCall): UsageCall => {
    counted++;
    const sum = called.get(found.model) ?? {};
    addTokens(sum, found.tokens);
    called.set(found.model, sum);
    return found;
  };

  /**
   * The end of a run (another starts, or the input ends): its tokens no call itemizes, and, for one whose stdout
   * does not carry each call, a warning saying what was accounted.
   */
  const ended = (): UsageCall[] => {
    const rest = total === undefined ? [] : unitemized(total, called);
    const { session, project } = context;
    const at = latest ?? total?.at ?? '';
    // The same each time the same records are read: a run read again (a ledger) counts it once.
    const entries = rest.map(({ model, tokens }): UsageCall => {
      const id = `${harness}:${session ?? '-'}:${started ?? '-'}:${at}:unitemized:${model ?? ''}`;
      return defined({ id, harness, model, session, project, at, tokens, unitemized: true as const });
    });
    const why = untokened ? (UNTOKENED[harness] ?? 'its model calls carry no tokens') : TOTALS_ONLY[harness];
    const instead = 'accounted instead as tokens no call itemizes (unitemized)';
    if (seen && counted === 0 && why !== undefined)
      context.warn?.(
        `a ${harness} run gave no model call's usage: ${why}; ` +
          (entries.length > 0 ? `its own total was ${instead}; ` : '') +
          'its session files have each call',
      );
    else if (entries.length > 0)
      context.warn?.(
        `a ${harness} run's own total is beyond the calls its records give (${
          SUBAGENTS_OFF_STDOUT[harness] ?? 'some calls are not on them'
        }): the rest was ${instead}; its session files have each call`,
      );
    else if (delegated && SUBAGENTS_OFF_STDOUT[harness] !== undefined)
      context.warn?.(
        `a ${harness} run started a subagent and ${SUBAGENTS_OFF_STDOUT[harness]}: ` +
          "the account is short of the subagent's calls; its session files have each call",
      );
    [counted, untokened, seen, started, total, latest] = [0, false, false, undefined, undefined, undefined];
    delegated = false;
    called.clear();
    return entries;
  };

  /** A subagent's name: its own records' word for it, else its parent's (given for its own file), else its id. */
  const nameOf = (agent: string) => (agent === context.agent ? context.agentName : undefined) ?? agent;
  /** A subagent's name the records give. */
  const naming = (agent: string, name: string) => {
    names.set(agent, name);
    context.named?.(agent, name);
  };

  const call = (fields: Omit<UsageCall, 'id' | 'harness'>, agentKey: string): UsageCall => {
    const agent = agentKey === MAIN ? context.agent : agentKey;
    const { model_call_id } = fields;
    const hint = model_call_id === undefined ? undefined : context.hint?.(model_call_id);
    const session = hint?.session ?? context.session;
    const id =
      model_call_id === undefined
        ? `${harness}:${session ?? '-'}:${fields.at}:${++n}`
        : `${harness}:${hint?.key === undefined ? model_call_id : `${hint.key}:${tokensKey(fields.tokens)}`}`;
    return defined({
      id,
      harness,
      ...fields,
      model: fields.model ?? hint?.model,
      session,
      project: context.project,
      agent,
      subagent: agent === undefined ? undefined : (names.get(agent) ?? nameOf(agent)),
      skill: skills.get(agentKey),
    });
  };

  const event = (event: HarnessEvent, agentKey: string, model_call_id: string | undefined): UsageCall | undefined => {
    if (event.type === 'skill') skills.set(agentKey, event.skill_name ?? event.path);
    else if (event.type === 'agent') skills.delete(agentKey);
    else if (event.type === 'orchestration') {
      delegated = true;
      if (event.subagent_id !== undefined && event.subagent_name !== undefined)
        naming(event.subagent_id, event.subagent_name);
    }
    if (event.type !== 'usage' || model_call_id !== undefined || traced) return undefined;
    const at = context.time?.() ?? event.timestamp;
    return call({ at, tokens: event.tokens, reported_usd: event.cost }, agentKey);
  };

  const modelCall = (record: TraceRecordOf<'model_call'>): UsageCall | undefined => {
    if (record.tokens === undefined && record.cost === undefined) {
      untokened = true;
      return undefined;
    }
    if (record.tokens !== undefined) [traced, held] = [true, []];
    const at = record.at_source === 'harness' ? record.at : (context.time?.() ?? record.at);
    const fields = { model_call_id: record.model_call_id, model: record.model, at, tokens: record.tokens ?? {} };
    return call({ ...fields, reported_usd: record.cost }, record.agent_id ?? MAIN);
  };

  for await (const record of records) {
    const next = 'kind' in record && record.kind === 'run_started';
    if (!next) seen = true;
    if (!next && 'at_source' in record && record.at_source === 'harness' && !(record.at <= (latest ?? '')))
      latest = record.at;
    if ('type' in record) {
      // Plain events: no model call will stand for a usage event.
      const found = event(record, MAIN, undefined);
      if (found !== undefined) yield counting(found);
    } else if (record.kind === 'run_started') {
      // Another run of the same stream: what it says of agents and skills starts anew.
      yield* held.map(counting);
      yield* ended();
      [held, traced, harness, started] = [[], false, context.harness ?? record.harness, record.at];
      if (record.at_source === 'harness') latest = record.at;
      names.clear();
      skills.clear();
    } else if (record.kind === 'agent_started' && record.name !== undefined) naming(record.agent_id, record.name);
    else if (record.kind === 'model_call') {
      const made = modelCall(record);
      if (made !== undefined) yield counting(made);
    } else if (record.kind === 'event') {
      // A usage event waits for the run's end: a model call with tokens later in the run stands for it.
      const found = event(record.event, record.agent_id ?? MAIN, record.model_call_id);
      if (found !== undefined) held.push(found);
    } else if (record.kind === 'run_ended' && record.tokens !== undefined)
      total = { tokens: record.tokens, models: record.models, at: record.at };
  }
  yield* held.map(counting);
  yield* ended();
}

/** A call's tokens, every class in order: with a hint's `key`, what tells two calls made at once apart. */
const tokensKey = (tokens: Tokens) =>
  [tokens.input, tokens.output, tokens.cache_read, tokens.cache_write, tokens.reasoning].map((n) => n ?? 0).join('/');

/** The object without its undefined fields (a call's JSON has only what is known). */
function defined<T extends object>(value: T): T {
  for (const key in value) if (value[key] === undefined) delete value[key];
  return value;
}
