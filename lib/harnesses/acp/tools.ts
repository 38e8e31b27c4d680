/**
 * The ACP tool table: docs/harnesses/acp.md "Tool mapping", one row per `kind`. Every agent names
 * its tools its own way, but ACP makes it type each call (`read`, `edit`, `execute`, ...), so the
 * kind decides the event and the row reads ACP's own fields: `rawInput`, `locations`, `content`,
 * `title`, `rawOutput`. A call without a kind is keyed `other`; a kind not listed is `unknown`.
 *
 * The correlator hands every row the merged tool call record as the call's `input`, its
 * `rawOutput` as `output`, and its status as `is_success` (completed true, failed false, unset
 * for a call that never finished), with the agents' quirks already absorbed (agent-rules.ts).
 */
import type { ToolRule } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import { wrappedScript } from '../../kernel/shell/index.js';
import {
  offsetLimitRange,
  rule,
  shell,
  stringField,
  successOf,
  toolTable,
  type LineRange,
} from '../../kernel/tool-rules.js';
import type { ToolCall } from '../../kernel/tool-call.js';
import { codexCommandEvents, parsedEntries } from './codex-command.js';
import { CODEX_COMMAND, LIST_DIRECTORY, TODO_LIST } from './agent-rules.js';

/** The `rawInput` fields that name a file, in order. */
const PATH_FIELDS = ['path', 'file_path', 'filePath', 'absolute_path', 'filename', 'directory_path', 'dir_path'];
const QUERY_FIELDS = ['pattern', 'query', 'regex', 'glob'];
const SEARCH_PATH_FIELDS = ['path', 'dir_path', 'directory_path'];
const WORKING_DIRECTORY_FIELDS = ['cwd', 'workdir', 'dir_path'];

function rawInput(call: ToolCall): JsonObject {
  const record = call.input as JsonObject;
  return isObject(record.rawInput) ? record.rawInput : {};
}

/** The first of `fields` that is a non-empty string. */
function firstString(object: unknown, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = stringField(object, field);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The record's `locations` entries that are objects. */
function locations(call: ToolCall): JsonObject[] {
  const { locations } = call.input as JsonObject;
  return Array.isArray(locations) ? locations.filter(isObject) : [];
}

function lineNumber(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 1 ? (value as number) : undefined;
}

/** Lines from `view_range`, then `offset`/`limit`, then `locations[0].line` (a start only); a line of 0 is no range. */
function readRange(call: ToolCall): LineRange {
  const input = rawInput(call);
  const view = input.view_range;
  if (Array.isArray(view) && view.length === 2) {
    const start = lineNumber(view[0]);
    if (start !== undefined && view[1] === -1) return { start_line: start };
    const end = lineNumber(view[1]);
    if (start !== undefined && end !== undefined && end >= start) return { start_line: start, end_line: end };
  }
  const offset = lineNumber(input.offset);
  const limit = lineNumber(input.limit);
  if (offset !== undefined || limit !== undefined) return offsetLimitRange(offset, limit);
  const line = lineNumber(locations(call)[0]?.line);
  return line === undefined ? {} : { start_line: line };
}

/**
 * A `read` record with a search pattern is a search (Copilot types its grep and glob `read`, Droid its Glob `other`).
 */
function hasPattern(call: ToolCall): boolean {
  const input = rawInput(call);
  return typeof input.pattern === 'string' || Array.isArray(input.patterns);
}

const read = rule(
  'read: `path` = `locations[0].path`, else the first `rawInput` path field; lines from `view_range`, ' +
    '`offset`/`limit`, or `locations[0].line`; a search when `rawInput` has `pattern` or `patterns`',
  (call) => {
    if (hasPattern(call)) return search(call);
    const path = stringField(locations(call)[0], 'path') ?? firstString(rawInput(call), PATH_FIELDS);
    if (path === undefined) return null;
    return [
      { type: 'read', path: resolvePath(path, call.cwd, call.home), ...readRange(call), is_success: successOf(call) },
    ];
  },
);

/** Gemini's search titles: `'Q'` and `'Q' within P`. */
const QUOTED_TITLE = /^'(.*)'(?: within (.+))?$/s;

const search = rule(
  "search: `query` = `rawInput.pattern`, `query`, `regex`, `glob` or `patterns[0]`, else from the `title` (`'Q' " +
    "within P`); `path` = `rawInput.path`, `dir_path` or `directory_path`, else the title's, else " +
    '`locations[0].path`',
  (call) => {
    const input = rawInput(call);
    const patterns = Array.isArray(input.patterns) ? input.patterns : [];
    let query =
      firstString(input, QUERY_FIELDS) ??
      (typeof patterns[0] === 'string' && patterns[0] !== '' ? patterns[0] : undefined);
    let titlePath: string | undefined;
    if (query === undefined) {
      const title = stringField(call.input, 'title');
      const quoted = title === undefined ? null : QUOTED_TITLE.exec(title);
      query = quoted === null ? title : quoted[1];
      titlePath = quoted?.[2];
    }
    if (query === undefined || query === '') return null;
    const path = firstString(input, SEARCH_PATH_FIELDS) ?? titlePath ?? stringField(locations(call)[0], 'path');
    return [
      {
        type: 'search',
        query,
        path: path === undefined ? undefined : resolvePath(path, call.cwd, call.home),
        is_success: successOf(call),
      },
    ];
  },
);

/** An argument as a shell reads it: quoted only when it needs it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * `rawInput.command`: a string as it is; an argv `[SHELL, -c | -lc, SCRIPT]` (Codex's shell names) its SCRIPT, any
 * other argv joined as a command line.
 */
function commandOf(call: ToolCall): string | undefined {
  const { command } = rawInput(call);
  if (typeof command === 'string' && command !== '') return command;
  if (Array.isArray(command) && command.length > 0 && command.every((word) => typeof word === 'string')) {
    return wrappedScript(command) ?? command.map(shellWord).join(' ');
  }
  return stringField(call.input, 'title');
}

/** The exit code, the first found; Kilo's `metadata.exit: null` is a command the abort killed. */
function exitStatus(output: unknown): { exit_code?: number; killed?: true } {
  if (!isObject(output)) return {};
  for (const code of [output.exitCode, output.exit_code])
    if (Number.isSafeInteger(code)) return { exit_code: code as number };
  const metadata = output.metadata;
  if (isObject(metadata) && Number.isSafeInteger(metadata.exit)) return { exit_code: metadata.exit as number };
  if (isObject(metadata) && metadata.exit === null) return { killed: true };
  const shellExit = shellExitOf(output);
  return shellExit !== undefined && Number.isSafeInteger(shellExit.exitCode)
    ? { exit_code: shellExit.exitCode as number }
    : {};
}

/** Copilot's `rawOutput.contents[]` entry `{type: "shell_exit", exitCode, cwd}`. */
function shellExitOf(output: unknown): JsonObject | undefined {
  const contents = isObject(output) ? output.contents : undefined;
  return Array.isArray(contents)
    ? contents.find((entry): entry is JsonObject => isObject(entry) && entry.type === 'shell_exit')
    : undefined;
}

/**
 * claude-code-acp's failed Bash result is `Exit code N`: not an exit code, but 1 tells a search that matched nothing
 * (docs/contract.md).
 */
const shellCommand = shell('command', { searchExitCode: (call) => (call.output === 'Exit code 1' ? 1 : undefined) });

/** The Commands rules' reading of an `execute` record (or a Codex command): the call as the shell row takes it. */
function asCommand(call: ToolCall): ToolCall | undefined {
  const command = commandOf(call);
  if (command === undefined) return undefined;
  const working_directory =
    firstString(rawInput(call), WORKING_DIRECTORY_FIELDS) ??
    stringField(call.output, 'directory') ??
    stringField(shellExitOf(call.output), 'cwd');
  const { exit_code, killed } = exitStatus(call.output);
  const is_success = killed ? false : call.is_success;
  return call.with({ input: { command }, exit_code, working_directory, is_success });
}

const execute = rule(
  'command: `command` = `rawInput.command` (an argv `[SHELL, -c | -lc, SCRIPT]` is SCRIPT, any other joined as a ' +
    'command line), else the `title`; `working_directory` = `rawInput.cwd`, `workdir` or `dir_path`, else ' +
    "`rawOutput.directory`, else the `shell_exit` entry's `cwd`; `exit_code` from `rawOutput.exitCode`, " +
    '`exit_code`, `metadata.exit` or the `shell_exit` entry; or the file operations it is (docs/contract.md shell ' +
    'rules); a search exiting 1 succeeds whatever the status',
  (call) => {
    const command = asCommand(call);
    return command === undefined ? null : shellCommand(command);
  },
);

const codexCommand = rule(
  'any kind with a non-empty `rawInput.parsed_cmd` (codex-acp): classified from `parsed_cmd` as codex.md ' +
    'classifies a Codex command: one read, search (`query`) or list per entry, paths and lines from the script; ' +
    'an `unknown` entry makes it one command; command, working directory, exit code and success as for `execute`',
  (call) => {
    const entries = parsedEntries(rawInput(call).parsed_cmd);
    const command = asCommand(call);
    if (entries === undefined || command === undefined) return null;
    const { working_directory } = command;
    return codexCommandEvents(entries, {
      command: (command.input as { command: string }).command,
      working_directory:
        working_directory === undefined ? undefined : resolvePath(working_directory, call.cwd, call.home),
      exit_code: command.exit_code,
      is_success: successOf(command),
      home: call.home,
    });
  },
);

/** One write per distinct path of the `diff` entries, else of the `locations`, else the `rawInput` path. */
const write = rule(
  'write: one per distinct `path` of the `diff` entries of `content`; with none, of the `locations`; with none, ' +
    'the first `rawInput` path field',
  (call) => {
    const { content } = call.input as JsonObject;
    const diffs = Array.isArray(content)
      ? content.filter((entry) => isObject(entry) && entry.type === 'diff').map((entry) => stringField(entry, 'path'))
      : [];
    const located = locations(call).map((location) => stringField(location, 'path'));
    const named = [firstString(rawInput(call), PATH_FIELDS)];
    const paths = [diffs, located, named]
      .map((list) => list.filter((path): path is string => path !== undefined))
      .find((list) => list.length > 0);
    if (paths === undefined) return null;
    return [...new Set(paths)].map((path) => ({
      type: 'write' as const,
      path: resolvePath(path, call.cwd, call.home),
      is_success: successOf(call),
    }));
  },
);

/** `other` or no kind: a search when it carries a pattern (Droid's Glob), otherwise unknown. */
const other = rule(
  'search when `rawInput` has `pattern` or `patterns`; otherwise unknown, `raw` = the merged record',
  (call) => (hasPattern(call) ? search(call) : null),
);

const unknown: ToolRule = rule(
  'unknown, `raw` = the merged record (`toolCallId` and the fields, without `_meta`)',
  () => null,
);

export const tools = toolTable({
  [CODEX_COMMAND]: codexCommand,
  [TODO_LIST]: rule(
    "consumed: OpenCode's and Kilo's `todowrite` (`agentInfo.name` `OpenCode` or `Kilo`, `kind: other` with an " +
      "array `rawInput.todos`), the agent's task list",
    () => [],
  ),
  [LIST_DIRECTORY]: rule(
    'any kind with `_meta.toolName` `list_directory` (Qwen Code): list, `path` = `rawInput.path` when set',
    (call) => {
      const path = stringField(rawInput(call), 'path');
      const listed = path === undefined ? undefined : resolvePath(path, call.cwd, call.home);
      return [{ type: 'list', path: listed, is_success: successOf(call) }];
    },
  ),
  read,
  search,
  other,
  execute,
  edit: write,
  delete: write,
  move: write,
  fetch: unknown,
  think: unknown,
  switch_mode: unknown,
});
