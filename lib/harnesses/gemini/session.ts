/**
 * Gemini CLI's chat files, `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` (docs/harnesses/gemini.md
 * "Session files"): a metadata line, message records, `$set` patches and `$rewindTo`, told apart by their keys as the
 * CLI's own reader does. The file is append-only but says things more than once: a response is written again under
 * its `id` once its tool calls ran, a `$set.messages` replaces the whole message list (the history restated on
 * resume). Each message therefore gives only what is new since its id was last read (seen.ts). A response's tool
 * calls are restated as stdout's `tool_use` + `tool_result` and read by the stdout correlator and tool table; its
 * thoughts and usage, which stdout never has, are reasoning and usage events.
 */
import type { Correlator, Harness, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, tokenCount } from '../../kernel/metrics.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { recordRows, recordTable } from '../../kernel/record-table.js';
import type { SessionFormat } from '../../kernel/session.js';
import { announce, correlator as stdoutCorrelator, geminiTokens } from './correlate.js';
import { digest, newText, SeenMessages, type Seen } from './seen.js';
import { findGeminiSessions, locateGeminiSession, projectRootOf } from './session-files.js';
import { tools } from './tools.js';

/** docs/harnesses/gemini.md "Session files", one row per record kind (by its keys, as the CLI tells them apart). */
const sessionRecords = recordRows({
  metadata: {
    handling:
      'the line with `sessionId` and `projectHash` (first, and again when a resumed run starts): the session id; ' +
      'no event',
    rules: { header: 'metadata: session id' },
  },
  gemini: {
    handling:
      'a model response (a message record, `type: "gemini"`), read for what is new since its `id` was last read, ' +
      'in this order: each new `thoughts` entry a reasoning event (`**subject** description`, as the CLI restates ' +
      "a thought; the description alone when the subject is empty; a message without `thoughts` has its content's " +
      'thought parts as its thoughts); text beyond the text read an agent event (a text that is not ' +
      'the one read plus more: a warning, code `message_rewritten`, then the whole new text); the first `tokens` ' +
      'a usage event (`input` less `cached` as input, `cached` as cache_read, `output`, the rest of `total` as ' +
      'reasoning), added to the metrics; each `toolCalls` entry with a final status (`success`, `error`, ' +
      "`cancelled`) not read before, restated as stdout's `tool_use` + `tool_result` (`resultDisplay` as " +
      '`output` when it is a string) and read by the stdout table (the tool table). A call with another status ' +
      'waits for the rewrite that finishes it; at the end of input it is read with its outcome unset',
    rules: {
      response: 'gemini: what is new',
      rewrite: 'gemini, id already read: what is new',
      malformed: 'gemini without string or text-parts content: unknown',
    },
  },
  user: {
    handling:
      'a message record with `type: "user"`: the prompt, the injected `<session_context>`, or the function ' +
      "responses sent back to the model (the calls' results are read from the response's `toolCalls`): consumed",
    rules: { consumed: 'user: consumed' },
  },
  $set: {
    handling:
      'a metadata patch. `messages` (the whole message list, replaced) has each of its messages read as a record of ' +
      'its own, so only what is new gives events (a message it drops keeps the events it gave); `sessionId` is ' +
      'the session id; the rest (`lastUpdated`, `summary`, ...) is consumed',
    rules: {
      messages: '$set with messages: each message read',
      patch: '$set: consumed',
      malformed: '$set not an object, or messages not an array: unknown',
    },
  },
  $rewindTo: {
    handling:
      'the message with that id and every later one are dropped: they are forgotten, so a record with one of their ' +
      'ids reads as new; the events they gave stay',
    rules: { rewind: '$rewindTo: messages forgotten', malformed: '$rewindTo not a string: unknown' },
  },
});

/** The row of a record, by the keys the CLI's reader goes by; another message type has no row (unknown). */
function rowOf(record: JsonObject): string | undefined {
  if ('$set' in record) return '$set';
  if ('$rewindTo' in record) return '$rewindTo';
  if (typeof record.id === 'string' && typeof record.type === 'string')
    return record.type === 'user' || record.type === 'gemini' ? record.type : `message ${record.type}`;
  if (typeof record.sessionId === 'string' && typeof record.projectHash === 'string') return 'metadata';
  return undefined;
}

/** The statuses after which a call's record no longer changes (the CLI's scheduler). */
const FINAL = new Set(['success', 'error', 'cancelled']);

/** A thought as the CLI restates it in a restored history's thought parts: the bold subject, then the description. */
function thoughtText(thought: unknown): string {
  if (!isObject(thought)) return '';
  const subject = typeof thought.subject === 'string' ? thought.subject : '';
  const description = typeof thought.description === 'string' ? thought.description : '';
  return [subject === '' ? '' : `**${subject}**`, description].filter((part) => part !== '').join(' ');
}

const isThought = (part: unknown): boolean => isObject(part) && part.thought === true;

/** A response's text: its `content` string, or the text of its parts but the thought parts. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((part) => (isObject(part) && !isThought(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/**
 * A response's thoughts: its `thoughts`, else (a history restored on resume) its content's thought parts, which
 * restate them one part each.
 */
function thoughtsOf(record: JsonObject): string[] {
  if (Array.isArray(record.thoughts)) return record.thoughts.map(thoughtText);
  if (!Array.isArray(record.content)) return [];
  return record.content.filter(isThought).map((part) => String((part as JsonObject).text ?? ''));
}

/** A response's `tokens` in stdout's `result.stats` names, read as stdout's totals are. */
function responseTokens(tokens: JsonObject) {
  const input = tokenCount(tokens.input);
  const cached = tokenCount(tokens.cached) ?? 0;
  return geminiTokens({
    input_tokens: tokens.input,
    output_tokens: tokens.output,
    total_tokens: tokens.total,
    cached: tokens.cached,
    input: input === undefined ? undefined : Math.max(0, input - cached),
  });
}

/** A call as stdout prints it. */
function toolUse(call: JsonObject): JsonObject {
  return { type: 'tool_use', timestamp: call.timestamp, tool_name: call.name, tool_id: call.id, parameters: call.args };
}

function sessionCorrelator(run: RunContext): Correlator {
  const stdout = stdoutCorrelator(run);
  const thoughts = run.textSpan();
  let warned = false;
  const seen = new SeenMessages(run.limits, () => {
    if (warned) return;
    warned = true;
    run.emit({
      type: 'warning',
      code: 'messages_forgotten',
      message:
        'Gemini session: more messages than maxPendingTools / maxPendingBytes hold; the oldest are forgotten, and a ' +
        'later rewrite of one gives its events again',
    });
  });
  // Calls written before they finished, by id, with the message that holds them.
  const waiting = new BoundedMap<{ message: string; call: JsonObject }>(run.limits, ({ message, call }) => {
    stdout.record(toolUse(call));
    given(message, call.id as string);
  });

  function unknown(raw: unknown): void {
    run.emit({ type: 'unknown', raw });
  }

  function given(message: string, call: string): void {
    const state = seen.get(message);
    state.calls.push(call);
    seen.update(message, state);
  }

  /** A response's calls; `at`: the response's time, when its calls start (a call's own `timestamp` is its end). */
  function calls(id: string, state: Seen, list: unknown[], at: unknown): void {
    list.forEach((call, index) => {
      const key = isObject(call) && typeof call.id === 'string' ? call.id : `#${index}`;
      if (state.calls.includes(key)) return;
      if (!isObject(call) || key.startsWith('#') || typeof call.name !== 'string') {
        state.calls.push(key);
        return unknown(call);
      }
      if (run.trace !== undefined) announce(run.trace, key, call.name, call.args, at, call.agentId);
      if (!FINAL.has(call.status as string)) {
        waiting.take(key);
        return waiting.set(key, { message: id, call });
      }
      waiting.take(key);
      state.calls.push(key);
      stdout.record(toolUse(call));
      const output = typeof call.resultDisplay === 'string' ? call.resultDisplay : undefined;
      stdout.record({ type: 'tool_result', timestamp: call.timestamp, tool_id: key, status: call.status, output });
    });
  }

  function response(record: JsonObject): string {
    const id = record.id as string;
    const text = contentText(record.content);
    if (text === undefined) {
      unknown(record);
      return sessionRecords.gemini.rules.malformed;
    }
    const rewrite = seen.has(id);
    const state = seen.get(id);
    const list = thoughtsOf(record);
    for (const thought of list.slice(state.thoughts)) {
      thoughts.add('reasoning', id, thought);
      thoughts.flush();
    }
    state.thoughts = Math.max(state.thoughts, list.length);
    const added = newText(state, text);
    if (added !== undefined) {
      if (added.rewritten)
        run.emit({
          type: 'warning',
          code: 'message_rewritten',
          message: `Gemini session: the text of message ${id} was rewritten; its new text follows whole`,
        });
      stdout.record({ type: 'message', role: 'assistant', content: added.text });
      stdout.flush?.();
      state.textLength = text.length;
      state.textDigest = digest(text);
    }
    if (!state.usage && isObject(record.tokens)) {
      state.usage = true;
      const tokens = responseTokens(record.tokens);
      // The response is a model call: its end is the message's time; no record marks its start.
      const model = typeof record.model === 'string' && record.model !== '' ? record.model : undefined;
      run.trace?.modelCall({ model_call_id: id, model, tokens, at: record.timestamp });
      run.emit({ type: 'usage', tokens }, run.trace && { model_call_id: id });
      addTokens(run.metrics.tokens, tokens);
    }
    if (Array.isArray(record.toolCalls)) calls(id, state, record.toolCalls, record.timestamp);
    seen.update(id, state);
    return rewrite ? sessionRecords.gemini.rules.rewrite : sessionRecords.gemini.rules.response;
  }

  /** A message of a `$set.messages` list, read as the record it restates. */
  function listed(message: unknown): void {
    const row = isObject(message) ? rowOf(message) : undefined;
    if (row === 'gemini') response(message as JsonObject);
    else if (row !== 'user') unknown(message);
  }

  function set(record: JsonObject): string {
    const patch = record.$set;
    if (!isObject(patch) || (patch.messages !== undefined && !Array.isArray(patch.messages))) {
      unknown(record);
      return sessionRecords.$set.rules.malformed;
    }
    run.reportSession(patch.sessionId);
    if (!Array.isArray(patch.messages)) return sessionRecords.$set.rules.patch;
    patch.messages.forEach(listed);
    return sessionRecords.$set.rules.messages;
  }

  function rewindTo(record: JsonObject): string {
    if (typeof record.$rewindTo !== 'string') {
      unknown(record);
      return sessionRecords.$rewindTo.rules.malformed;
    }
    seen.rewind(record.$rewindTo);
    return sessionRecords.$rewindTo.rules.rewind;
  }

  return {
    record: recordTable<typeof sessionRecords>(
      run,
      {
        metadata(record) {
          // The first one starts the chat (a resumed run's own is later: the trace has begun by then).
          run.trace?.began(record.startTime);
          run.reportSession(record.sessionId);
          return sessionRecords.metadata.rules.header;
        },
        gemini: response,
        user: () => sessionRecords.user.rules.consumed,
        $set: set,
        $rewindTo: rewindTo,
      },
      undefined,
      rowOf,
    ),
    end() {
      thoughts.flush();
      waiting.evictAll();
      stdout.end();
    },
    flush() {
      thoughts.flush();
      stdout.flush?.();
    },
  };
}

const sessionReader: Harness = { name: 'gemini', correlator: sessionCorrelator, records: sessionRecords, tools };

export const session: SessionFormat = {
  harness: 'gemini',
  where:
    '.gemini/tmp/<project>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl (subagents: chats/<sessionId>/<agentId>.jsonl)',
  reader: sessionReader,
  // GEMINI_CLI_HOME replaces the home directory the CLI puts .gemini in (`homedir()` in its bundle).
  env: ['GEMINI_CLI_HOME'],
  find: findGeminiSessions,
  locate: locateGeminiSession,
  cwdOf: projectRootOf,
  // stdout reports a subagent as the parent's one invoke_agent call: its file is a conversation of its own.
  mergesSubagents: false,
  facts(record) {
    if (!isObject(record)) return {};
    const patch = isObject(record.$set) ? record.$set : undefined;
    const time = patch?.lastUpdated ?? record.timestamp ?? record.startTime;
    return {
      time: typeof time === 'string' ? time : undefined,
      id: rowOf(record) === 'metadata' ? (record.sessionId as string) : undefined,
    };
  },
  // Gemini CLI writes no end of a run to the file: follow ends on its quiet period.
  endRules: new Set(),
};
