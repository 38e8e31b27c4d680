/**
 * docs/harnesses/acp.md "A Codex command": a codex-acp call carries Codex's own summary of its shell command,
 * `rawInput.parsed_cmd` (entries `{type: read | search | list_files | unknown, cmd, path?, query?}`), and is
 * classified from it as codex.md classifies a Codex command, whatever its ACP `kind` and `title`. Paths and line
 * ranges come from the script, not from the entry's `path` for a search or list (Codex's shortened display name).
 * Pure.
 */
import type { EventBody } from '../../kernel/events.js';
import { isObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import { shellOperations, type FileOperation } from '../../kernel/shell/index.js';

interface Entry {
  readonly type: string;
  readonly cmd: string;
  readonly path?: string;
  readonly query?: string;
}

/** What the Commands rules found for the call (acp.md "Tool calls, Commands"). */
interface CodexCommand {
  /** The inner script (the argv's `[SHELL, -lc, SCRIPT]` unwrapped). */
  readonly command: string;
  /** The command's working directory, resolved against the run's. */
  readonly working_directory: string | undefined;
  readonly exit_code: number | undefined;
  /** The command's success: the status, and a non-zero exit code as failure. */
  readonly is_success: boolean | undefined;
  readonly home: string | undefined;
}

const OPERATION: ReadonlyMap<string, FileOperation['type']> = new Map([
  ['read', 'read'],
  ['search', 'search'],
  ['list_files', 'list'],
]);

/** `parsed_cmd` as entries, or undefined when it is not a non-empty array of `{type, cmd}` objects. */
export function parsedEntries(value: unknown): Entry[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const entries: Entry[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.type !== 'string' || typeof item.cmd !== 'string') return undefined;
    entries.push({
      type: item.type,
      cmd: item.cmd,
      path: typeof item.path === 'string' && item.path !== '' ? item.path : undefined,
      query: typeof item.query === 'string' && item.query !== '' ? item.query : undefined,
    });
  }
  return entries;
}

/**
 * One event per entry (read, search with `query`, list), in order; any `unknown` entry makes the call one command
 * event. Null when a read entry names no file (the call is then unknown).
 */
export function codexCommandEvents(entries: readonly Entry[], call: CodexCommand): EventBody[] | null {
  const { command, working_directory: cwd, exit_code, is_success } = call;
  if (entries.some((entry) => !OPERATION.has(entry.type)))
    return [{ type: 'command', command, working_directory: cwd, exit_code, is_success }];
  // The script's own operations carry the `cd`s joined in: used when they line up with Codex's entries.
  const script = shellOperations(command, cwd);
  const aligned =
    script !== null &&
    script.operations.length === entries.length &&
    script.operations.every((operation, i) => operation.type === OPERATION.get(entries[i]!.type));
  const events: EventBody[] = [];
  for (const [i, entry] of entries.entries()) {
    const alone = shellOperations(entry.cmd)?.operations;
    const own = alone?.length === 1 ? alone[0] : undefined;
    const inScript = aligned ? script.operations[i] : undefined;
    // A search that ran last and exited 1 completed with no match (docs/contract.md), whatever the status.
    const last = aligned ? script.finalSearch === i : i === entries.length - 1;
    const success = entry.type === 'search' && exit_code === 1 && last ? true : is_success;
    if (entry.type === 'read') {
      if (entry.path === undefined) return null;
      const lines = own?.type === 'read' ? { start_line: own.start_line, end_line: own.end_line } : {};
      events.push({ type: 'read', path: resolvePath(entry.path, cwd, call.home), ...lines, is_success: success });
      continue;
    }
    // The operand the entry's own cmd names, joined onto the script's cd; none when it names none.
    const named = own?.path === undefined ? undefined : (inScript?.path ?? resolvePath(own.path, cwd, call.home));
    if (entry.type === 'search') {
      const query = entry.query ?? (own?.type === 'search' ? own.query : undefined);
      if (query === undefined) return null;
      events.push({ type: 'search', query, path: named, is_success: success });
    } else {
      events.push({ type: 'list', path: named, is_success: success });
    }
  }
  return events;
}
