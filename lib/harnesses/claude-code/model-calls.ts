/**
 * Claude Code's model calls, for the trace (docs/harnesses/claude-code.md "Trace"): one per API message, its
 * `message.id`, ended at its last line's `timestamp`. Its tokens: on stdout only with `--include-partial-messages`
 * (`message_start`'s usage updated by `message_delta`'s; the `assistant` lines repeat message_start's, output 1), in a
 * session file the final usage every line carries. Its start: the session file's `api-request` record its lines name
 * (`requestRef`); on stdout, when the library read its `message_start` (partial messages only). A message ends at its
 * `message_stop`, else at the first `user` or other message's `assistant` line, else at the end of input.
 */
import { BoundedMap } from '../../kernel/bounded-map.js';
import { now } from '../../kernel/clock.js';
import type { Limits } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import type { RunTrace } from '../../kernel/trace.js';
import { claudeTokens } from './tokens.js';

/** An API message whose lines are still coming. */
interface Message {
  id: string;
  agent_id: string | undefined;
  model?: string;
  /** Its last line's time. */
  at?: unknown;
  /** Its request's time (a session file's `api-request`). */
  started_at?: unknown;
  /** When its stream's `message_start` was read (stdout with partial messages: it has no time of its own). */
  started_observed?: string;
  usage?: JsonObject;
}

export interface ModelCalls {
  /** Each record, before the agent it belongs to becomes the trace's current one. */
  record(record: JsonObject | undefined): void;
  /** End of input: the messages still open end. */
  end(): void;
}

/** The model calls of the records read; `finalUsage`: the lines carry the message's final usage (session files). */
export function modelCalls(
  trace: RunTrace,
  limits: Pick<Limits, 'maxPendingTools' | 'maxPendingBytes'>,
  agentOf: (record: JsonObject) => string | undefined,
  finalUsage: boolean,
): ModelCalls {
  const open = new BoundedMap<Message>(limits, ended);
  // Messages already ended (a late line of one adds nothing) and the session's requests' times, by id.
  const done = new BoundedMap<true>(limits);
  const requests = new BoundedMap<unknown>(limits);

  // The messages open that only another record can end (no message_stop will come).
  const unstreamed = new Set<string>();

  function ended(message: Message): void {
    unstreamed.delete(message.id);
    done.set(message.id, true);
    // A model call belongs to its own agent, whichever record ended it.
    trace.agent(message.agent_id);
    trace.modelCall({
      model_call_id: message.id,
      model: message.model,
      tokens: message.usage && claudeTokens(message.usage),
      started_at: message.started_at,
      started_observed: message.started_observed,
      at: message.at,
    });
  }

  function end(id: string): void {
    const message = open.take(id);
    if (message) ended(message);
  }

  /** A `user` line or another message's line: the messages not streamed end (a stream's end at its message_stop). */
  function endUnstreamed(except: string | undefined): void {
    for (const id of unstreamed) if (id !== except) end(id);
  }

  function stream(record: JsonObject): void {
    const event = isObject(record.event) ? record.event : undefined;
    const message = event && isObject(event.message) ? event.message : undefined;
    const id = typeof record.api_message_id === 'string' ? record.api_message_id : message?.id;
    if (typeof id !== 'string' || event === undefined) return;
    if (event.type === 'message_start' && !open.has(id) && !done.has(id)) {
      const usage = isObject(message?.usage) ? { ...message.usage } : undefined;
      const model = typeof message?.model === 'string' ? message.model : undefined;
      open.set(id, { id, agent_id: agentOf(record), model, usage, started_observed: now() });
    } else if (event.type === 'message_delta' && isObject(event.usage)) {
      const open_ = open.get(id);
      if (open_) open_.usage = { ...open_.usage, ...event.usage };
    } else if (event.type === 'message_stop') end(id);
  }

  function line(record: JsonObject): void {
    const message = isObject(record.message) ? record.message : {};
    const id = message.id;
    // The CLI's own replies (an API error, a local command) are no request.
    if (typeof id !== 'string' || message.model === '<synthetic>') return endUnstreamed(undefined);
    endUnstreamed(id);
    if (done.has(id)) return;
    let call = open.get(id);
    if (call === undefined) {
      call = { id, agent_id: agentOf(record) };
      unstreamed.add(id);
      open.set(id, call);
    }
    if (typeof message.model === 'string') call.model = message.model;
    call.at = record.timestamp;
    if (finalUsage && isObject(message.usage)) call.usage = message.usage;
    if (call.started_at === undefined && typeof record.requestRef === 'string') {
      call.started_at = requests.take(record.requestRef);
    }
  }

  return {
    record(record) {
      if (record === undefined) return;
      if (record.type === 'stream_event') stream(record);
      else if (record.type === 'assistant') line(record);
      else if (record.type === 'user') endUnstreamed(undefined);
      else if (record.type === 'api-request' && typeof record.id === 'string') {
        requests.set(record.id, record.timestamp);
      }
    },
    end() {
      open.evictAll();
    },
  };
}
