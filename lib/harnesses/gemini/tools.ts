/**
 * Gemini CLI's tool table: docs/harnesses/gemini.md "Tools", one row per tool (keyed by the name the model
 * called, so the legacy `search_file_content` has its own row). A tool not listed here
 * (`google_web_search`, `web_fetch`, `ask_user`, background processes, MCP tools, an
 * unregistered name, ...) becomes `unknown` carrying `{tool_use, tool_result}`.
 *
 * The correlator hands every row a call whose success is `status == "success"`, whose `output`
 * is the result's `output`, and whose `raw` is that pair of records (`tool_result` absent when
 * the input ended first). Parameter names: Gemini CLI's built-in tools; a leading `@` on a file tool's path
 * parameter is dropped, as the CLI drops it.
 */
import type { EventBody } from '../../kernel/events.js';
import type { ToolRule } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import { joinPath } from '../../kernel/shell/paths.js';
import {
  lineField,
  list,
  namedSkill,
  rule,
  search,
  shell,
  silent,
  skillEvent,
  stringField,
  successOf,
  toolTable,
  write,
  type LineRange,
} from '../../kernel/tool-rules.js';

/** The one key every `tracker_*` tool maps to (no tool name has a `*`). */
const TRACKER = 'tracker_*';

/** The table key of a Gemini tool name: the task tracker's tools share one row. */
export function geminiToolKey(name: string): string {
  return name.startsWith('tracker_') ? TRACKER : name;
}

/** A path parameter as the CLI reads it: a leading `@` dropped (docs/harnesses/gemini.md "Tools"). */
function geminiPath(path: string): string {
  return path.startsWith('@') ? path.slice(1) : path;
}

/** A row fed its `field` path parameter as the CLI reads it; the row's cell stays the reference's. */
function atDropped(field: string, row: ToolRule): ToolRule {
  return rule(row.doc, (call) => {
    const path = stringField(call.input, field);
    return row(path === undefined ? call : call.withInput({ ...(call.input as object), [field]: geminiPath(path) }));
  });
}

/** `start_line` / `end_line`, 1-based and inclusive, as given: end alone reads from line 1. */
function lineRange(input: unknown): LineRange {
  const start = lineField(input, 'start_line');
  const end = lineField(input, 'end_line');
  if (start === undefined) return end === undefined ? {} : { start_line: 1, end_line: end };
  return { start_line: start, end_line: end };
}

const readFile = rule(
  'read of `file_path`; line range from `start_line` / `end_line` (1-based, inclusive, as given): both give ' +
    'start..end, `start_line` alone only a start line, `end_line` alone 1..end_line, neither no range',
  (call) => {
    const path = stringField(call.input, 'file_path');
    if (path === undefined) return null;
    return [
      {
        type: 'read',
        path: resolvePath(path, call.cwd, call.home),
        ...lineRange(call.input),
        is_success: successOf(call),
      },
    ];
  },
);

/** The glob characters that make an `include` entry a pattern rather than a path. */
const GLOB = /[*?[{]/;

const readManyFiles = rule(
  'one event per entry of `include`: an entry without glob characters (`*`, `?`, `[`, `{`) is a read of that path; ' +
    'an entry with them is a search with the entry as query and no path. Success from the result, on every event',
  (call) => {
    const include = isObject(call.input) ? call.input.include : undefined;
    if (!Array.isArray(include) || include.length === 0) return null;
    const is_success = successOf(call);
    const events: EventBody[] = [];
    for (const entry of include) {
      if (typeof entry !== 'string' || entry === '') return null;
      const path = geminiPath(entry);
      events.push(
        GLOB.test(path)
          ? { type: 'search', query: path, is_success }
          : { type: 'read', path: resolvePath(path, call.cwd, call.home), is_success },
      );
    }
    return events;
  },
);

const shellCommand = shell('command');

/** The CLI's whole output for a failing command that printed nothing: the one place an exit code shows. */
const EXITED = /^Command exited with code: (\d+)$/;

/**
 * The CLI reports `status: "success"` for a command that exited non-zero, so only an error
 * status or an exit code other than 0 says anything about success; the shared shell row then
 * does the rest (file operations, a search that exited 1).
 */
const runShellCommand = rule(
  'command, or recognized file operations (the shell-command rules of docs/contract.md), with `command` as the ' +
    'script. Working directory: `dir_path` resolved against the cwd, else the cwd when known; recognized paths are ' +
    "joined onto it. Exit code: only when the result's `output` is exactly `Command exited with code: N`. " +
    'Success: `status: "error"` is false, an exit code other than 0 is false, anything else is unset',
  (call) => {
    const exited = typeof call.output === 'string' ? EXITED.exec(call.output) : null;
    const code = exited ? Number(exited[1]) : undefined;
    const dir = stringField(call.input, 'dir_path');
    return shellCommand(
      call.with({
        is_success: call.is_success === false ? false : undefined,
        exit_code: code !== undefined && Number.isSafeInteger(code) ? code : undefined,
        working_directory: dir === undefined ? call.cwd : resolvePath(dir, call.cwd, call.home),
      }),
    );
  },
);

const skillByName = namedSkill('name');

/** The skill's directory, as the CLI's activation message names it. */
const LOADED_FROM = /Resources loaded from `([^`]+)`/;

const activateSkill = rule(
  "skill: `skill_name` = `name`; path = the directory the result's `output` names after `Resources loaded from` " +
    '(between backticks) joined with `SKILL.md`, else `skills/<name>/SKILL.md` under the cwd (docs/contract.md)',
  (call) => {
    const name = stringField(call.input, 'name');
    if (name === undefined) return null;
    const dir = typeof call.output === 'string' ? LOADED_FROM.exec(call.output)?.[1] : undefined;
    return dir === undefined ? skillByName(call) : [skillEvent(call, name, joinPath(dir, 'SKILL.md'))];
  },
);

/** The records a call came from (the correlator's `raw`). */
interface CallRecords {
  tool_use: JsonObject;
  tool_result?: JsonObject;
}

/**
 * The subagent runs inside the call and is reported in one piece (docs/contract.md); its own calls are not in the
 * stream.
 */
const invokeAgent = rule(
  "one orchestration event when its result arrives: `subagent_completed`, or `subagent_failed` when the result's " +
    "status is `error`; `subagent_id` = the call's `tool_id`, `subagent_name` = `parameters.agent_name`. A call " +
    'whose result never arrives is `subagent_started` at the end of input',
  (call) => {
    const { tool_use, tool_result } = call.raw as CallRecords;
    const action =
      tool_result === undefined
        ? 'subagent_started'
        : tool_result.status === 'error'
          ? 'subagent_failed'
          : 'subagent_completed';
    return [
      {
        type: 'orchestration',
        action,
        subagent_id: stringField(tool_use, 'tool_id'),
        subagent_name: stringField(call.input, 'agent_name'),
        is_success: call.is_success,
      },
    ];
  },
);

const writeFile = atDropped('file_path', write('file_path'));
const patternSearch = atDropped('dir_path', search({ query: 'pattern', path: 'dir_path' }));

export const tools = toolTable({
  read_file: atDropped('file_path', readFile),
  read_many_files: readManyFiles,
  write_file: writeFile,
  replace: writeFile,
  list_directory: atDropped('dir_path', list('dir_path')),
  glob: patternSearch,
  grep_search: patternSearch,
  // The legacy alias: the record keeps the name the model used.
  search_file_content: patternSearch,
  run_shell_command: runShellCommand,
  activate_skill: activateSkill,
  invoke_agent: invokeAgent,
  // Internal session state: the agent's todo list, topic, plan mode and task tracker.
  write_todos: silent,
  update_topic: silent,
  enter_plan_mode: silent,
  exit_plan_mode: silent,
  [TRACKER]: silent,
});
