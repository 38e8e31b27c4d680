/**
 * Goose, `goose run --output-format stream-json`: docs/harnesses/goose.md's "Raw event stream" and
 * "Normalized mapping" tables, as tables. Wire shapes: Goose's serde types (test/fixtures/goose/SOURCES.md).
 *
 * Stateful in two ways. Goose streams text and thinking as one `message` record per provider
 * chunk, usually deltas sharing the provider response's id (sometimes `null`), so fragments of
 * one kind and id wait in a span (cumulative: a restatement replaces it) until something else
 * arrives. A `toolRequest` waits, by its id, for the `toolResponse` that says how it went; only
 * then is it classified (tools.ts). Goose reports no session id, so none is captured.
 */
import type { Correlator, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { recordTable, recordRows } from '../../kernel/record-table.js';
import { tokenCount, tokensOf } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { SpanKind } from '../../kernel/text-span.js';

type BlockRule = (block: JsonObject, id: string | null) => void;

/** A toolRequest waiting for its toolResponse. */
interface Pending {
  name: string;
  input: unknown;
  request: JsonObject;
}

/** docs/harnesses/goose.md "Raw event stream", one row per top-level `type`, with the rules that apply it. */
export const records = recordRows({
  message: {
    handling:
      'content blocks in order: text -> agent and thinking -> reasoning (accumulated across same-id fragments), ' +
      'toolRequest recorded until its toolResponse; user text and redactedThinking consumed',
    rules: {
      assistant: 'message/assistant: blocks in order',
      user: 'message/user: blocks in order',
      other: 'message, other role or malformed: unknown',
    },
  },
  notification: { handling: 'unknown, verbatim', rules: { unknown: 'notification: unknown' } },
  error: { handling: 'error', rules: { error: 'error: error', malformed: 'error, malformed: unknown' } },
  complete: {
    handling: 'the run boundary: usage to the metrics; flushes pending text; no event',
    rules: { consumed: 'complete: consumed' },
  },
});

export function correlator(run: RunContext): Correlator {
  const span = run.textSpan({ cumulative: true });
  const pending = new BoundedMap<Pending>(run.limits, settle);
  // The `created` time (unix seconds) of the message being read, for the trace.
  let created: unknown;

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  // Content blocks both roles share: tool calls pair by id whatever message carries them.
  const toolBlocks: [string, BlockRule][] = [
    ['toolRequest', recordToolRequest],
    ['toolResponse', resolveToolResponse],
  ];

  // Assistant content (docs/harnesses/goose.md "Normalized mapping"); `reasoning` is the legacy form of `thinking`.
  const assistantBlocks = new Map<string, BlockRule>([
    ['text', (block, id) => spanText(block, 'text', 'agent', id)],
    ['thinking', (block, id) => spanText(block, 'thinking', 'reasoning', id)],
    ['reasoning', (block, id) => spanText(block, 'text', 'reasoning', id)],
    // No readable text.
    ['redactedThinking', () => {}],
    ...toolBlocks,
  ]);

  // User content: tool responses; text is an echoed prompt or agent-only context.
  const userBlocks = new Map<string, BlockRule>([['text', () => {}], ['redactedThinking', () => {}], ...toolBlocks]);

  const roles = new Map<string, [Map<string, BlockRule>, string]>([
    ['assistant', [assistantBlocks, records.message.rules.assistant]],
    ['user', [userBlocks, records.message.rules.user]],
  ]);

  function message(record: JsonObject): string {
    const msg = isObject(record.message) ? record.message : {};
    const role = typeof msg.role === 'string' ? roles.get(msg.role) : undefined;
    if (!role || !Array.isArray(msg.content)) {
      unknown(record);
      return records.message.rules.other;
    }
    const [blocks, rule] = role;
    // A non-string id cannot key a span; it joins the null-id fragments.
    const id = typeof msg.id === 'string' ? msg.id : null;
    created = msg.created;
    for (const block of msg.content as unknown[]) {
      const handle = isObject(block) && typeof block.type === 'string' ? blocks.get(block.type) : undefined;
      if (handle) handle(block as JsonObject, id);
      else unknown(block);
    }
    return rule;
  }

  function spanText(block: JsonObject, field: string, kind: SpanKind, id: string | null): void {
    if (!span.addBlock(kind, id, block, field)) unknown(block);
  }

  function recordToolRequest(block: JsonObject): void {
    // A tool request ends the text before it, even one that is not waited for.
    span.flush();
    const { id, toolCall } = block;
    // An unparseable call (`toolCall.status: "error"`) gets no response from Goose: nothing to wait for.
    const value = isObject(toolCall) && toolCall.status === 'success' && isObject(toolCall.value) ? toolCall.value : {};
    const name = typeof value.name === 'string' && value.name !== '' ? value.name : undefined;
    // A second request under an id still waiting cannot be told apart from the first by its response.
    if (typeof id !== 'string' || id === '' || name === undefined || pending.get(id)) return unknown(block);
    pending.set(id, { name, input: value.arguments, request: block });
    run.trace?.callStarted({ call_id: id, tool: name, at: created });
  }

  function resolveToolResponse(block: JsonObject): void {
    const call = typeof block.id === 'string' ? pending.take(block.id) : undefined;
    if (!call) return unknown(block);
    const result = isObject(block.toolResult) ? block.toolResult : {};
    const value = isObject(result.value) ? result.value : {};
    const structured = isObject(value.structuredContent) ? value.structuredContent : {};
    const exitCode = structured.exit_code;
    run.tool({
      id: block.id as string,
      name: call.name,
      input: call.input,
      is_success: outcome(result, value),
      exit_code: Number.isInteger(exitCode) ? (exitCode as number) : undefined,
      raw: { tool_request: call.request, tool_response: block },
      ended_at: created,
    });
  }

  /** A call whose response never came: classified with its outcome unset (docs/contract.md). */
  function settle(call: Pending): void {
    run.tool({
      id: call.request.id as string,
      name: call.name,
      input: call.input,
      raw: { tool_request: call.request },
    });
  }

  function error(record: JsonObject): string {
    if (typeof record.error !== 'string' || record.error === '') {
      unknown(record);
      return records.error.rules.malformed;
    }
    run.metrics.is_error = true;
    run.emit({ type: 'error', message: record.error });
    return records.error.rules.error;
  }

  function complete(record: JsonObject): string {
    const { metrics } = run;
    metrics.ended = true;
    // Newer Goose reports session totals here, not per-run deltas: the latest report stands.
    const tokens = tokensOf({ input: record.input_tokens, output: record.output_tokens });
    Object.assign(metrics.tokens, tokens);
    // The session's accumulated input and output (the CLIs that give them, docs/harnesses/goose.md): the run's own
    // only in a session the run started. A bare `total_tokens` was the last turn's context size in older CLIs.
    if (tokens.input !== undefined && tokens.output !== undefined) run.trace?.runTotal({ tokens, scope: 'session' });
    const total = tokenCount(record.total_tokens);
    if (total !== undefined) metrics.total_tokens = total;
    return records.complete.rules.consumed;
  }

  return {
    // Any record but a message ends the pending span (complete included). A type not in the
    // table (model_change, Goose 1.17–1.2x, and anything newer) is unknown.
    record: recordTable<typeof records>(
      run,
      { message, notification: (record) => (unknown(record), records.notification.rules.unknown), error, complete },
      (record) => {
        if (record?.type !== 'message') span.flush();
      },
    ),
    end() {
      span.flush();
      pending.evictAll();
    },
    flush: () => span.flush(),
  };
}

/**
 * `status: "error"` is a dispatch failure; `status: "success"` is a tool that ran, and failed
 * only if its result says `isError: true` (docs/contract.md). Any other status reports no outcome.
 */
function outcome(result: JsonObject, value: JsonObject): boolean | undefined {
  if (result.status === 'error') return false;
  if (result.status === 'success') return value.isError !== true;
  return undefined;
}
