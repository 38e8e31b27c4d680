/**
 * The operations one Cline call names (docs/harnesses/cline.md "Tools"): the files of a
 * `read_files`, the queries of a `search_codebase`, the commands of a `run_commands`, in input
 * order, from every input shape Cline's schemas accept. Pure. An entry that is none of the
 * shapes makes the whole input unreadable (undefined): Cline rejects such input as a whole too.
 */
import { isObject, type JsonObject } from '../../kernel/json.js';
import type { LineRange } from '../../kernel/tool-rules.js';

interface FileRequest extends LineRange {
  path: string;
}

/** `input[key]` when the input is an object that has it. */
function field(input: unknown, key: string): unknown {
  return isObject(input) ? input[key] : undefined;
}

/** The entries of an input: its first present field among `keys` (an array, or one entry), else the input itself. */
function entriesOf(input: unknown, keys: readonly string[]): unknown[] {
  for (const key of keys) {
    const value = field(input, key);
    if (value !== undefined) return Array.isArray(value) ? value : [value];
  }
  return Array.isArray(input) ? input : [input];
}

/** Maps every entry, or undefined when one does not fit (or there are none). */
function all<T>(entries: unknown[], read: (entry: unknown) => T | undefined): T[] | undefined {
  const results: T[] = [];
  for (const entry of entries) {
    const result = read(entry);
    if (result === undefined) return undefined;
    results.push(result);
  }
  return results.length === 0 ? undefined : results;
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

const line = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;

/** A request's range: both lines give start..end; `start_line` alone a start; `end_line` alone 1..end. */
function rangeOf(request: JsonObject): LineRange {
  const start = line(request.start_line);
  const end = line(request.end_line);
  if (start !== undefined && end !== undefined) return end >= start ? { start_line: start, end_line: end } : {};
  if (start !== undefined) return { start_line: start };
  return end === undefined ? {} : { start_line: 1, end_line: end };
}

function fileRequest(entry: unknown): FileRequest | undefined {
  if (typeof entry === 'string') return entry === '' ? undefined : { path: entry };
  if (!isObject(entry)) return undefined;
  const path = nonEmpty(entry.path) ?? nonEmpty(entry.file_path) ?? nonEmpty(entry.filePath);
  return path === undefined ? undefined : { path, ...rangeOf(entry) };
}

/** `read_files`: `files`, `file_paths` or `paths` (an array or one request), an array or one request as the input. */
export function fileRequests(input: unknown): FileRequest[] | undefined {
  return all(entriesOf(input, ['files', 'file_paths', 'paths']), fileRequest);
}

/** `search_codebase`: `queries` (an array or a string), an array of strings or a string as the input. */
export function searchQueries(input: unknown): string[] | undefined {
  return all(entriesOf(input, ['queries']), nonEmpty);
}

/** An argument as Cline renders it: one with whitespace or `"` as a JSON string (its helpers.ts). */
const renderArgument = (arg: string) => (/[\s"]/.test(arg) ? JSON.stringify(arg) : arg);

function commandOf(entry: unknown): string | undefined {
  if (typeof entry === 'string') return nonEmpty(entry);
  if (!isObject(entry)) return undefined;
  const command = nonEmpty(entry.command);
  if (command === undefined) return undefined;
  if (entry.args === undefined) return command;
  if (!Array.isArray(entry.args) || !entry.args.every((arg) => typeof arg === 'string')) return undefined;
  return [command, ...(entry.args as string[]).map(renderArgument)].join(' ');
}

/**
 * `run_commands`: `commands` (an array or one entry), `command`, `cmd`, an array or a string as the input; an input
 * with `command` and `args` is one structured entry.
 */
export function commandLines(input: unknown): string[] | undefined {
  if (field(input, 'commands') === undefined && field(input, 'args') !== undefined) return all([input], commandOf);
  return all(entriesOf(input, ['commands', 'command', 'cmd']), commandOf);
}
