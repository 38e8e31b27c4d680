/**
 * Claude Code's stream-json dialect, as Claude Code writes it and Qwen Code writes it too:
 * `assistant` and `user` records carrying Anthropic content blocks, `system` records told apart
 * by `subtype`, and a `result` that ends the run. This is what the two harnesses share; each
 * keeps its own records table, system subtypes, result handling and tool table
 * (lib/harnesses/claude-code/correlate.ts, lib/harnesses/qwen/correlate.ts) and says here, through
 * `DialectOptions`, where it differs.
 *
 * Stateful in two ways. Text and thinking blocks wait in a span until something else arrives, so
 * blocks of one message (Claude) or one record (Qwen) become one event. A `tool_use` waits, by its
 * id, for the `tool_result` that says how it went; only then is it classified (the tool table).
 */
import type { EventBody } from '../../kernel/events.js';
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { isObject, safeStringify, type JsonObject } from '../../kernel/json.js';
import { amount, tokenCount } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordTable, type RecordHandlers, type RecordRows, type RecordRule } from '../../kernel/record-table.js';
import type { Directory } from '../../kernel/shell/directory.js';
import type { ModelCalls } from './model-calls.js';
import type { ShellDirectories } from './shell-directory.js';

/** The rows of a harness's records table this module applies, under the harness's own rule names. */
export interface DialectRows {
  readonly assistant: { readonly rules: { readonly blocks: string; readonly malformed: string } };
  readonly user: { readonly rules: { readonly blocks: string; readonly text: string; readonly malformed: string } };
}

/** Where a harness writing the dialect differs from Claude Code. */
interface DialectOptions {
  /**
   * What one agent (or reasoning) event joins: the text blocks of one `message.id`, which Claude
   * Code spreads over several records, or those of one record (Qwen Code: one block type per record).
   */
  joinText: 'message' | 'record';
  /** The event a text block is instead of agent text, if any (Qwen Code's `[API Error: ...]`). */
  textEvent?(text: string): EventBody | undefined;
  /** Accounts for a tool result whose call was never recorded (true); otherwise it is unknown. */
  unpaired?(block: JsonObject, record: JsonObject, is_success: boolean): boolean;
  /** Where each call runs, when the harness moves it (Claude Code's shell directory). */
  directories?: ShellDirectories;
  /** For the trace: the agent whose record this is; default its `parent_tool_use_id` (absent: the root agent). */
  agentOf?(record: JsonObject | undefined): string | undefined;
  /** For the trace, when it is on: the model calls, told of each record before its agent becomes current. */
  modelCalls?: ModelCalls;
  /** For the trace: the first record's `timestamp` is the run's start (a session file's). */
  begins?: boolean;
}

export interface Dialect {
  readonly assistant: RecordRule;
  readonly user: RecordRule;
  /** Forgets a call waiting for its result: its result, if it comes, is unpaired. Returns its tool's name. */
  dropCall(id: string): string | undefined;
  /** The harness's correlator: its records table dispatched, text flushed and session ids captured first. */
  correlator<Rows extends RecordRows>(handlers: RecordHandlers<Rows>): Correlator;
}

type BlockRule = (block: JsonObject, record: JsonObject, messageId: string | null) => void;

/** A tool_use waiting for its result. Different uses under one id make it ambiguous. */
interface Pending {
  uses: JsonObject[];
  /** The uses' name and input, serialized, to tell a restated use from a different one; made when an id repeats. */
  seen?: Set<string>;
  /** The directory the call runs in, with `DialectOptions.directories`. */
  directory?: Directory;
}

export function dialect(run: RunContext, rows: DialectRows, options: DialectOptions): Dialect {
  const span = run.textSpan();
  const agentOf = options.agentOf ?? parentToolUse;
  let begun = options.begins !== true;
  // Ambiguous uses are held too: the bound counts uses, not ids, so one id repeated cannot escape it.
  let heldUses = 0;
  const pending = new BoundedMap<Pending>(run.limits, settle);

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  // Assistant content blocks (docs/harnesses/claude-code.md "Normalized mapping").
  const assistantBlocks = new Map<string, BlockRule>([
    ['text', textBlock],
    ['thinking', (block, _record, id) => spanText(block, 'thinking', 'reasoning', id)],
    // No readable text.
    ['redacted_thinking', () => {}],
    ['tool_use', recordToolUse],
  ]);

  // User content blocks: tool results resolve a recorded call; text is the echoed prompt or injected context.
  const userBlocks = new Map<string, BlockRule>([
    ['tool_result', resolveToolResult],
    ['text', () => {}],
  ]);

  function assistant(record: JsonObject): string {
    const message = record.message;
    if (!isObject(message) || !Array.isArray(message.content)) {
      unknown(record);
      return rows.assistant.rules.malformed;
    }
    const id = typeof message.id === 'string' ? message.id : null;
    for (const block of message.content) eachBlock(assistantBlocks, block, record, id);
    if (options.joinText === 'record') span.flush();
    return rows.assistant.rules.blocks;
  }

  function user(record: JsonObject): string {
    const message = record.message;
    const content = isObject(message) ? message.content : undefined;
    if (typeof content === 'string') return rows.user.rules.text;
    if (!Array.isArray(content)) {
      unknown(record);
      return rows.user.rules.malformed;
    }
    for (const block of content) eachBlock(userBlocks, block, record, null);
    return rows.user.rules.blocks;
  }

  function eachBlock(rules: Map<string, BlockRule>, block: unknown, record: JsonObject, id: string | null): void {
    const rule = isObject(block) && typeof block.type === 'string' ? rules.get(block.type) : undefined;
    if (rule) return rule(block as JsonObject, record, id);
    unknown(block);
  }

  function textBlock(block: JsonObject, _record: JsonObject, id: string | null): void {
    const instead = typeof block.text === 'string' ? options.textEvent?.(block.text) : undefined;
    if (instead === undefined) return spanText(block, 'text', 'agent', id);
    run.emit(instead);
  }

  function spanText(block: JsonObject, field: string, kind: 'agent' | 'reasoning', id: string | null): void {
    // Claude 2.1.x sends thinking blocks with only a signature: empty text, nothing to report.
    if (!span.addBlock(kind, id, block, field)) unknown(block);
  }

  function recordToolUse(block: JsonObject, record: JsonObject): void {
    // A tool use ends the text before it, even one that restates an earlier use and sends nothing.
    span.flush();
    const { id, name } = block;
    if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') return unknown(block);
    const waiting = pending.get(id);
    if (!waiting) {
      heldUses++;
      run.trace?.callStarted({ call_id: id, tool: name, at: record.timestamp });
      const directories = options.directories;
      return pending.set(
        id,
        directories ? { uses: [block], directory: directories.start(block, record) } : { uses: [block] },
      );
    }
    // The same call restated is not a second call; a different one under the same id is ambiguous.
    waiting.seen ??= new Set([callKey(waiting.uses[0]!)]);
    const key = callKey(block);
    if (waiting.seen.has(key)) return;
    waiting.uses.push(block);
    waiting.seen.add(key);
    if (++heldUses > run.limits.maxPendingTools) pending.evictOldest();
  }

  function take(id: string): Pending | undefined {
    const waiting = pending.take(id);
    if (waiting) heldUses -= waiting.uses.length;
    return waiting;
  }

  function resolveToolResult(block: JsonObject, record: JsonObject): void {
    const meta = record.tool_use_result;
    const interrupted = isObject(meta) && meta.interrupted === true;
    const is_success = block.is_error !== true && !interrupted;
    const waiting = typeof block.tool_use_id === 'string' ? take(block.tool_use_id) : undefined;
    if (waiting?.uses.length === 1) {
      const use = waiting.uses[0]!;
      options.directories?.end(use, waiting.directory ?? null, is_success, block.content, record);
      return run.tool({
        id: use.id as string,
        name: use.name as string,
        input: use.input,
        is_success,
        result: meta,
        output: block.content,
        raw: { tool_use: use, tool_result: block },
        ended_at: record.timestamp,
        ...placed(waiting),
      });
    }
    if (waiting) return unknown({ tool_use: waiting.uses, tool_result: block });
    if (!options.unpaired?.(block, record, is_success)) unknown(block);
  }

  /** A call whose result never came: classified with its outcome unset (docs/contract.md). */
  function settle(call: Pending): void {
    heldUses -= call.uses.length;
    if (call.uses.length > 1) return unknown({ tool_use: call.uses });
    const use = call.uses[0]!;
    run.tool({
      id: use.id as string,
      name: use.name as string,
      input: use.input,
      raw: { tool_use: use },
      ...placed(call),
    });
  }

  /** Where a call ran, when the harness moves it: its paths resolve there, and a command reports it. */
  function placed(call: Pending): { directory?: Directory; working_directory?: string } {
    if (!options.directories) return {};
    const directory = call.directory ?? null;
    return directory === null ? { directory } : { directory, working_directory: directory };
  }

  return {
    assistant,
    user,
    dropCall: (id) => take(id)?.uses[0]?.name as string | undefined,
    correlator: (handlers) => ({
      // Text waits only for more assistant lines of its message; anything else ends it.
      record: recordTable(run, handlers, (record) => {
        if (record?.type !== 'assistant') span.flush();
        run.reportSession(record?.session_id);
        if (!begun && typeof record?.timestamp === 'string') {
          begun = true;
          run.trace?.began(record.timestamp);
        }
        options.modelCalls?.record(record);
        run.trace?.agent(agentOf(record));
      }),
      end() {
        span.flush();
        options.modelCalls?.end();
        pending.evictAll();
      },
      flush: () => span.flush(),
    }),
  };
}

/** The subagent a stream-json line belongs to: the Agent (or Task) call it runs under. */
export function parentToolUse(record: JsonObject | undefined): string | undefined {
  const id = record?.parent_tool_use_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

let unserializable = 0;

/**
 * A use's name and input as one string; an input too deep to serialize makes a key of its own (it cannot be shown to
 * restate another).
 */
function callKey(use: JsonObject): string {
  const input = safeStringify(use.input);
  return input === undefined ? `\u0001${++unserializable}` : `${use.name as string}\0${input}`;
}

/** `system` records by `subtype`: a subtype the table lacks (or none) is unknown, under the `other` rule. */
export function bySubtype(run: RunContext, subtypes: ReadonlyMap<string, RecordRule>, other: string): RecordRule {
  return (record) => {
    const rule = typeof record.subtype === 'string' ? subtypes.get(record.subtype) : undefined;
    if (rule) return rule(record);
    run.emit({ type: 'unknown', raw: record });
    return other;
  };
}

/**
 * What every `result` says of the run, into the metrics: it ended; turns and duration add up over
 * repeated results (each reports its own query); the final output and `is_error` are the last
 * result's. Whether it reports an error: `is_error`, or an `error_*` subtype.
 */
export function endRun(run: RunContext, record: JsonObject): { failed: boolean; subtype: string } {
  const { metrics } = run;
  metrics.ended = true;
  const turns = tokenCount(record.num_turns);
  if (turns !== undefined) metrics.turns = (metrics.turns ?? 0) + turns;
  const duration = amount(record.duration_ms);
  if (duration !== undefined) metrics.duration_ms = (metrics.duration_ms ?? 0) + duration;
  if (typeof record.result === 'string') metrics.final_output = record.result;
  const subtype = typeof record.subtype === 'string' ? record.subtype : '';
  const failed = record.is_error === true || subtype.startsWith('error_');
  metrics.is_error = failed;
  return { failed, subtype };
}

/** An error result's message: `errors` joined, else the `result` text, else a sentence naming the harness. */
export function errorMessage(record: JsonObject, subtype: string, harness: string): string {
  const errors = Array.isArray(record.errors)
    ? record.errors.filter((e): e is string => typeof e === 'string' && e !== '')
    : [];
  if (errors.length > 0) return errors.join('; ');
  if (typeof record.result === 'string' && record.result !== '') return record.result;
  return `${harness} ended in error${subtype ? ` (${subtype})` : ''}`;
}

/** An error result's code: its `error_*` subtype, else `terminal_reason`. */
export function errorCode(record: JsonObject, subtype: string): string | undefined {
  if (subtype.startsWith('error_')) return subtype;
  return typeof record.terminal_reason === 'string' && record.terminal_reason !== ''
    ? record.terminal_reason
    : undefined;
}

/** A tool_result's content as text: a string, or its text blocks joined. */
export function resultText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  let text = '';
  for (const block of content) {
    if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
    text += block.text;
  }
  return text;
}
