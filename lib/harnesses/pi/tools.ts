/**
 * pi's tool table: docs/harnesses/pi.md "Tools", one row per built-in tool. A tool not listed here (an
 * extension's, or one the model made up) becomes `unknown` carrying its tool_execution records.
 *
 * The correlator hands every row a call whose `output` is the tool result's `content` and whose
 * `is_success` is `!isError`. Paths are read as pi reads them (`dist/core/tools/path-utils.js`):
 * a leading `@` is stripped and Unicode spaces become plain ones; then `~` is the run's home and a
 * relative path resolves against the session cwd (docs/contract.md "Paths").
 */
import type { ToolRule } from '../../kernel/harness.js';
import { isObject } from '../../kernel/json.js';
import { list, read, rule, search, shell, stringField, toolTable, write } from '../../kernel/tool-rules.js';
import type { ToolCall } from '../../kernel/tool-call.js';

/** The spaces pi replaces with a plain one (`normalizeUnicodeSpaces`). */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** A path as pi's tools take it, before it is resolved against the cwd. */
function piPath(path: string): string {
  return (path.startsWith('@') ? path.slice(1) : path).replace(UNICODE_SPACES, ' ');
}

/** The call with its `path` input read as pi reads it. */
function withPiPath(call: ToolCall): ToolCall {
  const path = stringField(call.input, 'path');
  return path === undefined ? call : call.withInput({ ...(call.input as object), path: piPath(path) });
}

/** A shared row, fed pi's reading of the `path` input, documented with the page's cell. */
function piPaths(doc: string, row: ToolRule): ToolRule {
  return rule(doc, (call) => row(withPiPath(call)));
}

/** pi's bash reports a non-zero exit code only as the last line of its failed result's text. */
const EXIT_CODE = /Command exited with code (\d+)$/;

function exitCodeOf(call: ToolCall): number | undefined {
  if (call.is_success !== false || !Array.isArray(call.output)) return undefined;
  const text = call.output
    .map((block) => (isObject(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
  const code = EXIT_CODE.exec(text)?.[1];
  return code === undefined ? undefined : Number(code);
}

const shellCommand = shell('command');

/** The command ran in the session cwd; its exit code is in its result text. */
const bash = rule(
  'command (working directory = the session cwd), or recognized file operations (docs/contract.md shell rules); a ' +
    'failed result whose text ends with `Command exited with code N` gives `exit_code: N` (command events only); ' +
    'success = `!isError`',
  (call) => shellCommand(call.with({ exit_code: exitCodeOf(call), working_directory: call.cwd })),
);

export const tools = toolTable({
  read: piPaths(
    "read, `path`; range as Claude's `Read`: `offset` (1-based) is `start_line`, `end_line` = `offset` + `limit` - " +
      '1; `offset` alone gives only `start_line`; `limit` alone gives 1..`limit`',
    read({ path: 'path', offset: 'offset', limit: 'limit' }),
  ),
  write: piPaths('write, `path` (no range)', write('path')),
  edit: piPaths('write, `path` (no range)', write('path')),
  grep: piPaths('search, `query` = `pattern`, `path` = `path` when given', search({ query: 'pattern', path: 'path' })),
  find: piPaths('search, `query` = `pattern`, `path` = `path` when given', search({ query: 'pattern', path: 'path' })),
  ls: piPaths('list, `path` = `path` when given (none without one)', list('path')),
  bash,
});
