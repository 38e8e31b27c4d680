/**
 * Qwen Code's tool table: docs/harnesses/qwen.md "Tools", one row per tool, legacy names beside the current
 * ones. A tool not listed here (`todo_write`, `web_fetch`, `web_search`, `save_memory`, goals,
 * cron, MCP `mcp__*`, ...) becomes `unknown`. Paths are absolute on the wire (Qwen requires them).
 *
 * Claude Code's table is ../claude-code/tools.ts; the calls reach both the same way (the
 * dialect's tool pairing), with `output` the tool_result's content and `id` the tool-use id.
 */
import { isObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import {
  list,
  namedSkill,
  offsetLimitRange,
  rule,
  search,
  shell,
  silent,
  stringField,
  successOf,
  toolTable,
  write,
} from '../../kernel/tool-rules.js';
import { resultText } from '../claude-code/dialect.js';

/** `input[key]` when it is an integer of at least `min`. */
function integerField(input: unknown, key: string, min: number): number | undefined {
  const value = isObject(input) ? input[key] : undefined;
  return Number.isSafeInteger(value) && (value as number) >= min ? (value as number) : undefined;
}

/** Difference 1: `offset` is the 0-based first line, `limit` the count. */
const readFile = rule(
  'read, `path` = `file_path`; `start_line` = `offset` + 1, `end_line` = `offset` + `limit` (`offset` is 0-based); ' +
    '`offset` alone gives only `start_line`, `limit` alone 1..`limit`, neither no range',
  (call) => {
    const path = stringField(call.input, 'file_path');
    if (path === undefined) return null;
    const offset = integerField(call.input, 'offset', 0);
    const range = offsetLimitRange(offset === undefined ? undefined : offset + 1, integerField(call.input, 'limit', 1));
    return [{ type: 'read', path: resolvePath(path, call.cwd, call.home), ...range, is_success: successOf(call) }];
  },
);

/**
 * Difference 8: the exit code in the shell tool's own summary block (`Command: ...` up to
 * `Exit Code: N`, `Signal: ...`), which it writes for every failure and some empty-output
 * successes. Only a result that is that block counts, and its last `Exit Code:` line (the
 * command's output, which comes before it, may contain one of its own); `(none)` gives none.
 * Otherwise a last line `Command exited with code: N`, which Qwen writes for some non-zero
 * exits with `is_error: false` (`test -e missing`, a `grep` without a match).
 */
function exitCodeOf(output: unknown): number | undefined {
  const text = resultText(output);
  if (text === undefined) return undefined;
  if (!text.startsWith('Command: ')) return exitedWith(text);
  const at = text.lastIndexOf('\nExit Code: ');
  if (at < 0) return undefined;
  const end = text.indexOf('\n', at + 1);
  const value = text.slice(at + '\nExit Code: '.length, end < 0 ? undefined : end).trimEnd();
  return /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}

const EXITED = /(?:^|\n)Command exited with code: (\d{1,9})\s*$/;

function exitedWith(text: string): number | undefined {
  const code = EXITED.exec(text)?.[1];
  return code === undefined ? undefined : Number(code);
}

const shellCommand = shell('command');

const runShellCommand = rule(
  `${shellCommand.doc}; \`working_directory\` = the run's cwd; \`exit_code\` from the result's \`Exit Code: N\` ` +
    'line, else a last line `Command exited with code: N`',
  (call) => shellCommand(call.with({ exit_code: exitCodeOf(call.output), working_directory: call.cwd })),
);

/** Difference 10: a background command, reported at its result, never reclassified, with no exit code. */
const monitor = rule(
  "command, `command` = `input.command`, working directory = the run's cwd, success `!is_error`, no exit code; its " +
    'task records and injected user texts are consumed',
  (call) => {
    const command = stringField(call.input, 'command');
    if (command === undefined) return null;
    return [{ type: 'command', command, working_directory: call.cwd, is_success: call.is_success }];
  },
);

/**
 * Difference 5, for the calls that reach the table: a foreground agent (a background one's call
 * and result are consumed by the correlator, its task_started and task_notification report it).
 * Its result is its end; a call whose result never came is reported as started.
 */
const agent = rule(
  'orchestration: the result of a foreground agent is `subagent_completed` (`subagent_failed` when `is_error`), ' +
    '`subagent_id` = the tool-use id, `subagent_name` = `subagent_type`, else `general-purpose`; a background ' +
    'agent (its `task_started` seen before its result) is reported by `task_started` and `task_notification`, its ' +
    'call and "launched" result consumed',
  (call) => {
    if (call.id === undefined) return null;
    const is_success = call.is_success;
    const action =
      is_success === undefined ? 'subagent_started' : is_success ? 'subagent_completed' : 'subagent_failed';
    return [
      {
        type: 'orchestration',
        action,
        subagent_id: call.id,
        subagent_name: stringField(call.input, 'subagent_type') ?? 'general-purpose',
        is_success,
      },
    ];
  },
);

/**
 * A deferred tool, called through `tool_call`: the named tool's row, given `arguments` (a `tool_call` in a `tool_call`
 * is not followed).
 */
const toolCall = rule('classified as the tool named by `input.name`, with `input.arguments` as its input', (call) => {
  const name = stringField(call.input, 'name');
  const row = name === undefined || name === 'tool_call' ? undefined : tools.get(name);
  return row === undefined ? null : row(call.withInput((call.input as Record<string, unknown>).arguments));
});

const fileWrite = write('file_path');
const patternSearch = search({ query: 'pattern', path: 'path' });

export const tools = toolTable({
  read_file: readFile,
  write_file: fileWrite,
  edit: fileWrite,
  replace: fileWrite,
  notebook_edit: write('notebook_path'),
  glob: patternSearch,
  grep_search: patternSearch,
  search_file_content: patternSearch,
  list_directory: list('path'),
  run_shell_command: runShellCommand,
  monitor,
  skill: namedSkill('skill'),
  agent,
  task: agent,
  tool_call: toolCall,
  // Native delivery of --json-schema output, like Claude Code's StructuredOutput.
  structured_output: silent,
});
