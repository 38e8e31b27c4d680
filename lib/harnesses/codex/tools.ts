/**
 * Codex's item table: docs/harnesses/codex.md "Items", one row per `item.type`. The correlator hands every
 * finished item to the classifier as a tool call named by its type, with the item as input.
 * An item type not listed here (`mcp_tool_call`, `web_search`, ...) becomes `unknown`.
 */
import type { EventBody } from '../../kernel/events.js';
import { isObject } from '../../kernel/json.js';
import { unwrapShellCommand } from '../../kernel/shell/index.js';
import { rule, shell, silent, stringField, toolTable, write } from '../../kernel/tool-rules.js';

const shellCommand = shell('command');
const writeChange = write('path');

/** `command` is the agent's script inside Codex's `/bin/bash -lc '…'`: the script is what is classified. */
const commandExecution = rule(
  "command, or recognized file operations (the shell rules), of the script inside Codex's `/bin/bash -lc` wrapper; " +
    '`exit_code` when not null',
  (call) => {
    const command = stringField(call.input, 'command');
    if (command === undefined) return null;
    return shellCommand(call.withInput({ command: unwrapShellCommand(command) }));
  },
);

/** One write per entry of `changes`, whatever its kind; an entry without a path makes the item unknown. */
const fileChange = rule(
  "one write per entry of `changes` (`add`, `update`, `delete` alike), success from the item's status",
  (call) => {
    const changes = isObject(call.input) ? call.input.changes : undefined;
    if (!Array.isArray(changes) || changes.length === 0) return null;
    const events: EventBody[] = [];
    for (const change of changes) {
      const written = writeChange(call.withInput(change));
      if (written === null) return null;
      events.push(...written);
    }
    return events;
  },
);

type SubagentEnd = 'subagent_completed' | 'subagent_failed';

const subagentEnds = new Map<string, SubagentEnd>([
  ['completed', 'subagent_completed'],
  ['errored', 'subagent_failed'],
  ['failed', 'subagent_failed'],
]);

/** A subagent's state in `agents_states`, when it is an end to report; `shutdown` counts only with an error message. */
export function subagentEnd(state: unknown): SubagentEnd | undefined {
  if (!isObject(state)) return undefined;
  if (state.status === 'shutdown') return stringField(state, 'message') === undefined ? undefined : 'subagent_failed';
  return typeof state.status === 'string' ? subagentEnds.get(state.status) : undefined;
}

/**
 * `spawn_agent` starts each of `receiver_thread_ids`; any call may carry a subagent's end in
 * `agents_states`. The correlator passes only the ends not reported yet, so each is reported once.
 */
const collabToolCall = rule(
  'orchestration: `spawn_agent` -> subagent_started per `receiver_thread_ids`; a terminal state in `agents_states` ' +
    '-> subagent_completed / subagent_failed, once per subagent',
  (call) => {
    const item = call.input;
    if (!isObject(item) || typeof item.tool !== 'string') return null;
    const events: EventBody[] = [];
    if (item.tool === 'spawn_agent') {
      const ids = item.receiver_thread_ids;
      if (!Array.isArray(ids)) return null;
      for (const id of ids) {
        if (typeof id !== 'string' || id === '') return null;
        events.push({
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: id,
          is_success: call.is_success,
        });
      }
    }
    if (isObject(item.agents_states)) {
      for (const [id, state] of Object.entries(item.agents_states)) {
        const action = subagentEnd(state);
        if (action !== undefined)
          events.push({ type: 'orchestration', action, subagent_id: id, is_success: action === 'subagent_completed' });
      }
    }
    return events;
  },
);

/** An item's `text`, empty or not (stringField would treat empty as missing). */
function textOf(item: unknown): string | undefined {
  return isObject(item) && typeof item.text === 'string' ? item.text : undefined;
}

export const tools = toolTable({
  agent_message: rule('agent, with `text`', (call) => {
    const text = textOf(call.input);
    return text === undefined ? null : [{ type: 'agent', message: text }];
  }),
  reasoning: rule('reasoning, when `text` is not empty', (call) => {
    const text = textOf(call.input);
    if (text === undefined) return null;
    // Codex suppresses empty summary parts; an empty text has nothing to report.
    return text === '' ? [] : [{ type: 'reasoning', message: text }];
  }),
  command_execution: commandExecution,
  file_change: fileChange,
  collab_tool_call: collabToolCall,
  // Internal session state: the plan the agent keeps for itself.
  todo_list: silent,
  plan: silent,
  // Codex's non-fatal notices (config warnings, model reroutes).
  error: rule('warning, with `message` (config warnings, model reroutes)', (call) => {
    const message = stringField(call.input, 'message');
    return message === undefined ? null : [{ type: 'warning', message }];
  }),
});
