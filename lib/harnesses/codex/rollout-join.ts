/**
 * The rollout beside a live `codex exec --json` (docs/harnesses/codex.md "Runs: stdout and the rollout"): stdout
 * leads, and from the rollout, followed as Codex writes it, come the calls no item reports (raw-calls.ts), which
 * stdout lacks too (Codex core loses the item for every surface alike), and the directory of each command stdout
 * reports (command-join.ts). The refusals are not said again: the router's stderr line already made each one a
 * `permission_denied` warning. Each response's usage is the trace's model call; the run's usage events stay stdout's.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Companion, Correlator, RunContext } from '../../kernel/harness.js';
import { commandJoin, type CommandJoin } from './command-join.js';
import { shellJoin } from './shell-join.js';
import { subagentRollout } from './session.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { recordRows, recordTable } from '../../kernel/record-table.js';
import { correlator as stdoutCorrelator } from './correlate.js';
import { commandDirectories } from './directories.js';
import { rawCalls } from './raw-calls.js';
import { responseUsage, turnModel } from './response-usage.js';
import { tools } from './tools.js';

const records = recordRows({
  session_meta: { handling: "the thread's id: the joined events'", rules: { session: 'session_meta: session id' } },
  turn_context: { handling: "the turn's `cwd` and model", rules: { cwd: 'turn_context: cwd and model kept' } },
  response_item: {
    handling: 'a call no item reports: its events at its output; else consumed',
    rules: { consumed: 'response_item: consumed', call: 'response_item, a call no item reported: its events' },
  },
  event_msg: {
    handling:
      "an item's id marks its call as reported (stdout has the item); a command's directory joins stdout's " +
      'item of it (one event); the rest consumed',
    rules: { consumed: 'event_msg: consumed' },
  },
  token_usage_record: {
    handling: "one response's usage: the trace's model call (stdout's usage is per turn)",
    rules: { call: 'token_usage_record: model call' },
  },
  '*': { handling: 'consumed (stdout says it)', rules: { consumed: 'any other rollout line: consumed' } },
});

const payloadOf = (line: JsonObject): JsonObject => (isObject(line.payload) ? line.payload : {});

function joinCorrelator(run: RunContext, join: CommandJoin): Correlator {
  const stdout = stdoutCorrelator(run);
  const directories = commandDirectories(run);
  const raw = rawCalls(run, directories, (item) => stdout.record({ type: 'item.completed', item }), false);
  const settle = (record: JsonObject) => void stdout.record(record);
  // The model the turn runs (its turn_context), for the trace's model calls.
  let model: string | undefined;
  return {
    record: recordTable(run, {
      session_meta: (line) => (run.reportSession(payloadOf(line).id), records.session_meta.rules.session),
      turn_context(line) {
        directories.turn(payloadOf(line));
        model = turnModel(payloadOf(line));
        return records.turn_context.rules.cwd;
      },
      response_item(line) {
        directories.call(payloadOf(line));
        return raw.response(payloadOf(line)) ? records.response_item.rules.call : records.response_item.rules.consumed;
      },
      event_msg(line) {
        const payload = payloadOf(line);
        const item = payload.type === 'item_completed' && isObject(payload.item) ? payload.item : undefined;
        if (item !== undefined) raw.item(item.id);
        if (item?.type === 'CommandExecution') {
          const command = Array.isArray(item.command) ? shellJoin(item.command) : item.command;
          if (typeof command === 'string') join.rollout(command, directories.of(item), run.limits, settle);
        }
        return records.event_msg.rules.consumed;
      },
      token_usage_record: (line) => (responseUsage(run.trace, line, model), records.token_usage_record.rules.call),
      '*': () => records['*'].rules.consumed,
    }),
    end() {
      raw.end();
      // Stdout's commands still held: the rollout never said where they ran (or was never found).
      run.reportSession(join.session);
      join.release(settle);
      stdout.end();
    },
  };
}

/** `$CODEX_HOME/sessions/YYYY/MM/DD/`, for the dates a run started just now may have used (local and UTC). */
function dayDirs(root: string): string[] {
  const days = new Set<string>();
  for (const offset of [0, -86_400_000]) {
    const date = new Date(Date.now() + offset);
    const pad = (value: number) => String(value).padStart(2, '0');
    days.add(join(String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate())));
    days.add(join(String(date.getUTCFullYear()), pad(date.getUTCMonth() + 1), pad(date.getUTCDate())));
  }
  return [...days].map((day) => join(root, 'sessions', day));
}

export const rollout: Companion = {
  what: 'rollout',
  join(harness) {
    const join = commandJoin();
    return {
      stdout: { ...harness, correlator: (run) => stdoutCorrelator(run, undefined, join) },
      file: { name: 'codex', correlator: (run) => joinCorrelator(run, join), records, tools },
      unheld: () => join.unhold(),
      related: subagentRollout,
    };
  },
  // A sub-agent's thread (`spawn_agent`'s receivers): its own rollout holds its calls, which stdout never shows.
  related(record) {
    const item = isObject(record) && record.type === 'item.completed' && isObject(record.item) ? record.item : {};
    if (item.type !== 'collab_tool_call' || item.tool !== 'spawn_agent' || !Array.isArray(item.receiver_thread_ids))
      return [];
    return item.receiver_thread_ids.filter((id): id is string => typeof id === 'string' && id !== '');
  },
  id(record) {
    return isObject(record) && record.type === 'thread.started' && typeof record.thread_id === 'string'
      ? record.thread_id
      : undefined;
  },
  async find(id, env) {
    const root = env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
    for (const dir of dayDirs(root)) {
      const name = (await readdir(dir).catch(() => [] as string[])).find((file) => file.endsWith(`-${id}.jsonl`));
      if (name !== undefined) return join(dir, name);
    }
    return undefined;
  },
};
