/**
 * The building blocks of the tool tables (harnesses/<name>/tools.ts): each makes a row that
 * reads named input fields and says which event the call becomes. Pure functions.
 */
import type { EventBody } from './events.js';
import type { ToolRule, ToolTable } from './harness.js';
import { resolvePath } from './paths.js';
import { shellOperations } from './shell/index.js';
import type { LineRange } from './shell/types.js';
import type { ToolCall } from './tool-call.js';

/** A tool table from its rows (a Map: a tool named `constructor` must not find Object's). */
export function toolTable(rows: Record<string, ToolRule>): ToolTable {
  return new Map(Object.entries(rows));
}

/** A row of a harness's own, with its "normalized event" cell for the reference. */
export function rule(doc: string, classify: (call: ToolCall) => EventBody[] | null): ToolRule {
  return Object.assign(classify, { doc });
}

/** `input[key]` when it is a non-empty string. */
export function stringField(input: unknown, key: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `input[key]` when it is a line number (an integer >= 1). */
export function lineField(input: unknown, key: string | undefined): number | undefined {
  if (key === undefined || typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[key];
  return isLine(value) ? value : undefined;
}

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

export type { LineRange };

/**
 * docs/contract.md "Line ranges from tool inputs": `offset` is the first line and `limit` the count;
 * offset alone gives only a start line, limit alone 1..limit, neither no range.
 */
export function offsetLimitRange(offset: number | undefined, limit: number | undefined): LineRange {
  if (offset !== undefined)
    return { start_line: offset, end_line: limit === undefined ? undefined : offset + limit - 1 };
  return limit === undefined ? {} : { start_line: 1, end_line: limit };
}

/** The success a call reports, with a non-zero exit code counting as failure (docs/contract.md). */
export function successOf(call: ToolCall): boolean | undefined {
  return call.exit_code !== undefined && call.exit_code !== 0 ? false : call.is_success;
}

/**
 * docs/contract.md's `view_range: [a, b]`: lines a..b; `[a, -1]` (to the end) gives only the start.
 * Anything else (a reversed or zero-based pair, not a pair) gives no range.
 */
function viewRange(range: unknown): LineRange {
  if (!Array.isArray(range) || range.length !== 2) return {};
  const [start, end] = range as unknown[];
  if (!isLine(start)) return {};
  if (end === -1) return { start_line: start };
  return isLine(end) && end >= start ? { start_line: start, end_line: end } : {};
}

/** Which input fields of a file tool's call name its file and its lines ({@link read}'s argument). */
export interface FileFields {
  /** The input field naming the file. */
  path: string;
  /** Input fields giving the first line and the line count (docs/contract.md). */
  offset?: string;
  /** The input field giving the line count (with `offset`). */
  limit?: string;
  /** Or the input field giving `[first, last]` (see `viewRange`). */
  viewRange?: string;
}

function fileRule(type: 'read' | 'write', fields: FileFields): ToolRule {
  const lines =
    fields.viewRange !== undefined
      ? `, lines from \`${fields.viewRange}\``
      : fields.offset === undefined
        ? ''
        : `, lines from \`${fields.offset}\` and \`${fields.limit}\``;
  return rule(`${type}, \`path\` = \`${fields.path}\`${lines}`, (call) => {
    const path = stringField(call.input, fields.path);
    if (path === undefined) return null;
    const range =
      fields.viewRange !== undefined
        ? viewRange((call.input as Record<string, unknown>)[fields.viewRange])
        : offsetLimitRange(lineField(call.input, fields.offset), lineField(call.input, fields.limit));
    return [{ type, path: resolvePath(path, call.cwd, call.home), ...range, is_success: successOf(call) }];
  });
}

/** A file read: a `read` event for the file (and lines) the call's input fields name; `unknown` without a path. */
export const read = (fields: FileFields) => fileRule('read', fields);
/** A file write or edit: a `write` event for the file the input field `path` names; `unknown` without one. */
export const write = (path: string) => fileRule('write', { path });

/** A search: the query field is required, the scope optional. */
export function search(fields: { query: string; path?: string }): ToolRule {
  const scope = fields.path === undefined ? '' : `, \`path\` = \`${fields.path}\` when given`;
  return rule(`search, \`query\` = \`${fields.query}\`${scope}`, (call) => {
    const query = stringField(call.input, fields.query);
    if (query === undefined) return null;
    const path = fields.path === undefined ? undefined : stringField(call.input, fields.path);
    return [
      {
        type: 'search',
        query,
        path: path === undefined ? undefined : resolvePath(path, call.cwd, call.home),
        is_success: successOf(call),
      },
    ];
  });
}

/** A directory listing; the directory is optional. */
export function list(pathField: string): ToolRule {
  return rule(`list, \`path\` = \`${pathField}\` when given`, (call) => {
    const path = stringField(call.input, pathField);
    return [
      {
        type: 'list',
        path: path === undefined ? undefined : resolvePath(path, call.cwd, call.home),
        is_success: successOf(call),
      },
    ];
  });
}

/** Consumed: the spec says the call produces no event. */
export const silent: ToolRule = rule('consumed (no event)', () => []);

/** A skill the harness names but does not locate: docs/contract.md's `skills/<name>/SKILL.md` under the workspace. */
export function namedSkill(nameField: string): ToolRule {
  return rule(
    `skill, \`skill_name\` = \`${nameField}\`, \`path\` = \`skills/<name>/SKILL.md\` under the working directory`,
    (call) => {
      const name = stringField(call.input, nameField);
      if (name === undefined) return null;
      return [skillEvent(call, name, `skills/${name}/SKILL.md`)];
    },
  );
}

/** The `skill` event of a call that used skill `name` from `path` (resolved like any path). */
export function skillEvent(call: ToolCall, name: string | undefined, path: string): EventBody {
  return { type: 'skill', path: resolvePath(path, call.cwd, call.home), skill_name: name, is_success: successOf(call) };
}

/** How {@link shell} reads a harness's shell calls. */
export interface ShellOptions {
  /**
   * The command's exit code as far as a search's success goes, for a harness that reports it
   * only for that (Claude Code's `Exit code 1` result text): default, the call's `exit_code`.
   */
  searchExitCode?: (call: ToolCall) => number | undefined;
}

/**
 * A shell command (docs/contract.md "Shell commands that are file operations"): a command that is
 * recognizably file reads, searches or listings becomes those events, in order, each keeping
 * the command's success and none its exit code; anything else stays one `command` event. The
 * one exception: a search that ends the command and exited 1 completed without a match, so it
 * succeeded.
 */
export function shell(commandField: string, options: ShellOptions = {}): ToolRule {
  return rule(
    `command, \`command\` = \`${commandField}\`, or the file operations it is (docs/contract.md shell rules)`,
    (call) => {
      const command = stringField(call.input, commandField);
      if (command === undefined) return null;
      const is_success = successOf(call);
      const cwd =
        call.working_directory === undefined ? call.cwd : resolvePath(call.working_directory, call.cwd, call.home);
      const classified = shellOperations(command, cwd);
      if (classified) {
        const { operations, finalSearch } = classified;
        const noMatch = finalSearch !== undefined && (options.searchExitCode?.(call) ?? call.exit_code) === 1;
        return operations.map((operation, index) => ({
          ...operation,
          is_success: noMatch && index === finalSearch ? true : is_success,
        }));
      }
      return [
        {
          type: 'command',
          command,
          working_directory: call.working_directory === undefined ? undefined : cwd,
          exit_code: call.exit_code,
          is_success,
        },
      ];
    },
  );
}
