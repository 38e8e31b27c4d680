/**
 * pi's session files, `~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`: a header (stdout's
 * first line, byte for byte), then tree entries (docs/harnesses/pi.md "Session files"). Every
 * `message` entry is a message stdout ends with `message_end`; the file has no tool execution
 * events, so an assistant message's tool calls and their `toolResult` messages are restated as
 * stdout's `tool_execution_start` / `_end`, and the stdout correlator reads the result.
 */
import { basename, join } from 'node:path';
import type { Correlator, Harness, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { recordRows, recordTable, type RecordHandlers } from '../../kernel/record-table.js';
import { envDir, type SessionFormat } from '../../kernel/session.js';
import { filesIn, namesIn } from '../../files/session-dirs.js';
import { correlator as stdoutCorrelator } from './correlate.js';
import { tools } from './tools.js';

const consumed = (what: string) => ({ handling: `${what}: consumed`, rules: { consumed: `${what}: consumed` } });

/** docs/harnesses/pi.md "Session files", one row per entry `type`. */
const sessionRecords = recordRows({
  session: {
    handling: "the header, stdout's first line: the session id and cwd",
    rules: { header: 'session: header' },
  },
  message: {
    handling:
      "by role: an assistant message is stdout's `message_end`, each of its `toolCall` blocks a " +
      '`tool_execution_start`; a `toolResult` is `tool_execution_end` (success = `!isError`); an assistant message ' +
      'right after a failed one (`stopReason: "error"`) is pi\'s automatic retry: the failure is a warning ' +
      "(`auto_retry`), as stdout's `auto_retry_start` makes it; other roles are consumed",
    rules: {
      assistant: 'message assistant: message_end and tool calls',
      retry: 'message assistant after a failed one: auto_retry_start, then as assistant',
      toolResult: 'message toolResult: tool_execution_end',
      other: 'message, other role: consumed',
      malformed: 'message without a message object: unknown',
    },
  },
  model_change: consumed('the model chosen'),
  thinking_level_change: consumed('the thinking level chosen'),
  compaction: consumed('a compaction summary'),
  branch_summary: consumed('a summary of an abandoned branch'),
  custom: consumed("an extension's state"),
  custom_message: consumed("an extension's message to the model"),
  label: consumed('a bookmark'),
  session_info: consumed('the session name'),
});

function sessionCorrelator(run: RunContext): Correlator {
  // The entry being read: its `timestamp` (when pi wrote it) is the time of the stdout records it stands for.
  let entryTime: unknown;
  const stdout = stdoutCorrelator(run, () => entryTime);
  const { rules } = sessionRecords.message;
  // The last assistant message failed: the next assistant message is pi retrying it.
  let failed = false;

  function message(entry: JsonObject): string {
    entryTime = entry.timestamp;
    const message = entry.message;
    if (!isObject(message)) {
      run.emit({ type: 'unknown', raw: entry });
      return rules.malformed;
    }
    if (message.role === 'toolResult') {
      const result = { content: message.content, details: message.details };
      stdout.record({
        type: 'tool_execution_end',
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        result,
        isError: message.isError,
      });
      return rules.toolResult;
    }
    if (message.role !== 'assistant') {
      if (message.role === 'user') failed = false;
      stdout.record({ type: 'message_end', message });
      return rules.other;
    }
    const retried = failed;
    if (retried) stdout.record({ type: 'auto_retry_start', errorMessage: message.errorMessage });
    failed = message.stopReason === 'error';
    stdout.record({ type: 'message_end', message });
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (isObject(block) && block.type === 'toolCall')
        stdout.record({
          type: 'tool_execution_start',
          toolCallId: block.id,
          toolName: block.name,
          args: block.arguments,
        });
    }
    return retried ? rules.retry : rules.assistant;
  }

  const consume =
    <Row extends keyof typeof sessionRecords>(row: Row) =>
    () =>
      (sessionRecords[row].rules as { consumed: string }).consumed;

  const handlers: RecordHandlers<typeof sessionRecords> = {
    session: (entry) => (stdout.record(entry), sessionRecords.session.rules.header),
    message,
    model_change: consume('model_change'),
    thinking_level_change: consume('thinking_level_change'),
    compaction: consume('compaction'),
    branch_summary: consume('branch_summary'),
    custom: consume('custom'),
    custom_message: consume('custom_message'),
    label: consume('label'),
    session_info: consume('session_info'),
  };
  return { record: recordTable(run, handlers), end: () => stdout.end(), flush: () => stdout.flush?.() };
}

const sessionReader: Harness = { name: 'pi', correlator: sessionCorrelator, records: sessionRecords, tools };

const SESSION_FILE = /^.+_[0-9a-f-]{36}\.jsonl$/;

export const session: SessionFormat = {
  harness: 'pi',
  where: '.pi/agent/sessions/--<cwd>--/<time>_<sessionId>.jsonl',
  reader: sessionReader,
  // PI_CODING_AGENT_SESSION_DIR is the sessions directory itself, PI_CODING_AGENT_DIR moves ~/.pi/agent.
  env: ['PI_CODING_AGENT_SESSION_DIR', 'PI_CODING_AGENT_DIR'],
  async *find(home, env) {
    const agent = envDir(env, 'PI_CODING_AGENT_DIR') ?? join(home, '.pi', 'agent');
    const root = envDir(env, 'PI_CODING_AGENT_SESSION_DIR') ?? join(agent, 'sessions');
    // A session directory given by hand may hold the files themselves rather than one folder per project.
    for (const dir of [root, ...(await namesIn(root, 'dir')).map((project) => join(root, project))])
      for (const path of await filesIn(dir, SESSION_FILE))
        yield { id: basename(path, '.jsonl').slice(-36), path, subagents: [] };
  },
  locate: async (path) => ({ id: basename(path, '.jsonl').slice(-36), path, subagents: [] }),
  mergesSubagents: false,
  facts(record) {
    if (!isObject(record)) return {};
    const header = record.type === 'session';
    return {
      time: typeof record.timestamp === 'string' ? record.timestamp : undefined,
      cwd: header && typeof record.cwd === 'string' ? record.cwd : undefined,
      id: header && typeof record.id === 'string' ? record.id : undefined,
    };
  },
  // pi writes no end of a run to the file: follow ends on its quiet period.
  endRules: new Set(),
};
