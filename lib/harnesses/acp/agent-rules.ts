/**
 * What the tool table gets of an ACP tool call record: its row (a kind, or a row some calls take
 * whatever their kind), and the agents' quirks (docs/harnesses/acp.md "Per-agent quirks").
 */
import { isObject, type JsonObject } from '../../kernel/json.js';

/** A tool call record: the merged fields of its `tool_call` and `tool_call_update` messages. */
export type ToolRecord = JsonObject & { toolCallId: string };

/** The tool-table row of OpenCode's and Kilo's `todowrite`: a `kind: other` call with `rawInput.todos`. */
export const TODO_LIST = 'todo list';
/** The tool-table row of a codex-acp call carrying Codex's own summary, `rawInput.parsed_cmd`. */
export const CODEX_COMMAND = 'codex command';
/** The tool-table row of a call whose `_meta.toolName` is `list_directory` (Qwen Code's listing), whatever its kind. */
export const LIST_DIRECTORY = 'list_directory';

interface AgentRule {
  input?(record: ToolRecord): ToolRecord;
  success?(record: ToolRecord, success: boolean | undefined): boolean | undefined;
  /** The tool-table row, when it is not the record's kind. */
  row?(record: ToolRecord): string | undefined;
}

/** OpenCode's and Kilo's task list (their `todowrite`): consumed like the todo tools elsewhere. */
const todoList: AgentRule = {
  row: (record) =>
    record.kind === 'other' && isObject(record.rawInput) && Array.isArray(record.rawInput.todos)
      ? TODO_LIST
      : undefined,
};

/**
 * docs/harnesses/acp.md "Per-agent quirks": the rules that look at the agent's name (`agentInfo.name`).
 * Each adjusts what the tool table gets: the record it reads, the call's success, or the row.
 */
export const agentRules: ReadonlyMap<string, AgentRule> = new Map([
  // Qwen's read_file `offset` is 0-based: its first line is offset + 1.
  [
    'qwen-code',
    {
      input: (record) => {
        const input = record.rawInput;
        if (record.kind !== 'read' || !isObject(input) || !Number.isSafeInteger(input.offset)) return record;
        return { ...record, rawInput: { ...input, offset: (input.offset as number) + 1 } };
      },
    },
  ],
  // Gemini CLI reports every shell command that ran as completed, whatever its exit status, with no exit code.
  [
    'gemini-cli',
    {
      success: (record, success) => (record.kind === 'execute' && record.status === 'completed' ? undefined : success),
    },
  ],
  ['OpenCode', todoList],
  ['Kilo', todoList],
]);

/** A record's row: a Codex command whatever its kind, an agent's own, else its kind (`other` without one). */
export function rowOf(record: ToolRecord, rules: AgentRule | undefined): string {
  const input = record.rawInput;
  if (isObject(input) && Array.isArray(input.parsed_cmd) && input.parsed_cmd.length > 0) return CODEX_COMMAND;
  const own = rules?.row?.(record);
  if (own !== undefined) return own;
  const { kind } = record;
  return typeof kind === 'string' ? kind : kind === undefined ? 'other' : JSON.stringify(kind);
}
