/**
 * Cline's tool table: docs/harnesses/cline.md "Tools", one row per built-in tool. A tool not
 * listed here (`team_run_task`, `fetch_web_content`, `ask_question`, MCP `<server>__<tool>`, ...)
 * becomes `unknown` carrying its `content_start` and `content_end` records.
 *
 * The correlator hands every row a call whose `output` is the `content_end`'s `output` and whose
 * `is_success` is false for a call that failed as a whole, unset for one whose `content_end`
 * never came, else the output's `success` (a missing field, or an array output: true). The rows
 * of tools whose output is an array take each operation's success from its entry.
 */
import type { EventBody } from '../../kernel/events.js';
import { isObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import type { ToolCall } from '../../kernel/tool-call.js';
import { namedSkill, rule, shell, silent, stringField, toolTable } from '../../kernel/tool-rules.js';
import { patchedFiles } from '../opencode/patch-markers.js';
import { commandLines, fileRequests, searchQueries } from './operations.js';

/** The operation at `index` of an array output: its `success` (unset without one), unless the whole call failed. */
function entrySuccess(call: ToolCall, index: number): boolean | undefined {
  if (call.is_success !== true) return call.is_success;
  const entry = Array.isArray(call.output) ? call.output[index] : undefined;
  return isObject(entry) && typeof entry.success === 'boolean' ? entry.success : undefined;
}

/** The `error` of the entry at `index`, when it says the command exited non-zero. */
const EXITED = /^Command exited with code (\d+)$/;
function exitCode(call: ToolCall, index: number): number | undefined {
  const entry = Array.isArray(call.output) ? call.output[index] : undefined;
  const code = isObject(entry) && typeof entry.error === 'string' ? EXITED.exec(entry.error)?.[1] : undefined;
  return code === undefined ? undefined : Number(code);
}

const readFiles = rule(
  'one read per requested file, in input order (`files`, `file_paths`, `paths`, or the input itself; a path or ' +
    '`{path, start_line, end_line}`): both lines give start..end, `start_line` alone a start, `end_line` alone ' +
    "1..end; each with its output entry's success. No path: unknown",
  (call) =>
    fileRequests(call.input)?.map(({ path, ...range }, index) => ({
      type: 'read',
      path: resolvePath(path, call.cwd),
      ...range,
      is_success: entrySuccess(call, index),
    })) ?? null,
);

const searchCodebase = rule(
  "one search per query, in input order (`queries`, or the input itself), no path; each with its entry's success",
  (call) =>
    searchQueries(call.input)?.map((query, index) => ({
      type: 'search',
      query,
      is_success: entrySuccess(call, index),
    })) ?? null,
);

const shellCommand = shell('command');

const runCommands = rule(
  'one entry per command, in input order (`commands`, `command`, `cmd`, or the input itself; `{command, args}` ' +
    'rendered as Cline does): a command event (working directory = the cwd) or its file operations ' +
    "(docs/contract.md shell rules); the entry's error `Command exited with code N` gives `exit_code` N; success " +
    'from the entry. No command: unknown',
  (call) => {
    const commands = commandLines(call.input);
    if (commands === undefined) return null;
    return commands.flatMap(
      (command, index) =>
        shellCommand(
          call.with({
            input: { command },
            is_success: entrySuccess(call, index),
            exit_code: exitCode(call, index),
            working_directory: call.cwd,
          }),
        ) ?? [],
    );
  },
);

const editor = rule(
  'write of `path`; with `insert_line` >= 1, `start_line` = `insert_line` (an insertion), otherwise no range',
  (call) => {
    const path = stringField(call.input, 'path');
    if (path === undefined) return null;
    const insertLine = isObject(call.input) ? call.input.insert_line : undefined;
    const at =
      typeof insertLine === 'number' && Number.isInteger(insertLine) && insertLine >= 1 ? insertLine : undefined;
    return [
      {
        type: 'write',
        path: resolvePath(path, call.cwd),
        ...(at === undefined ? {} : { start_line: at }),
        is_success: call.is_success,
      },
    ];
  },
);

const applyPatch = rule(
  'one write per file the patch names (`input.input`, or a bare string input), in patch order ' +
    "(`*** Add/Update/Delete File`, `*** Move to`), no range, the call's success. No file: unknown",
  (call) => {
    const patch = typeof call.input === 'string' ? call.input : stringField(call.input, 'input');
    const paths = patch === undefined ? [] : patchedFiles(patch);
    if (paths.length === 0) return null;
    return paths.map((path) => ({ type: 'write', path: resolvePath(path, call.cwd), is_success: call.is_success }));
  },
);

/** The sub-agent ran inside the call: its end is the call's end. Its start went out at `content_start`. */
const spawnAgent = rule(
  'orchestration: `subagent_started` (`subagent_id` = `toolCallId`) at `content_start`; at `content_end`, ' +
    '`subagent_completed` when the call did not fail and `output.finishReason` is `completed` or absent, else ' +
    '`subagent_failed`; a call whose end never came adds nothing',
  (call): EventBody[] => {
    if (call.is_success === undefined) return [];
    const finishReason = isObject(call.output) ? call.output.finishReason : undefined;
    const ok = call.is_success && (finishReason === undefined || finishReason === 'completed');
    return [
      {
        type: 'orchestration',
        action: ok ? 'subagent_completed' : 'subagent_failed',
        subagent_id: call.id,
        is_success: ok,
      },
    ];
  },
);

export const tools = toolTable({
  read_files: readFiles,
  search_codebase: searchCodebase,
  run_commands: runCommands,
  editor,
  apply_patch: applyPatch,
  skills: namedSkill('skill'),
  spawn_agent: spawnAgent,
  // Reported by team_event teammate_spawned / teammate_shutdown.
  team_spawn_teammate: silent,
  team_shutdown_teammate: silent,
  // Yolo mode's end of run: its receipt is run_result.text.
  submit_and_exit: silent,
});
