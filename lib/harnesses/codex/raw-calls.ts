/**
 * A rollout's raw calls (docs/harnesses/codex.md "Calls no item reports"): the model's `function_call` /
 * `custom_tool_call` and its `*_output`, paired by `call_id`. Codex reports most calls as an item too, but not a
 * refused patch, a refused escalation, nor (a race in Codex core) a command the sandbox denied: such a call becomes
 * its events from the raw pair, at its output, restated as the `exec --json` item it would have printed as. A call
 * that has an item is that item's event alone, whichever of the two comes first.
 */
import type { RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { permissionDenied } from '../../kernel/permission-denied.js';
import { stringField } from '../../kernel/tool-rules.js';
import type { commandDirectories } from './directories.js';
import { refusalOf } from './refusals.js';
import { shellJoin } from './shell-join.js';

/** The model-facing records that ask for a call (`call_id`, `name`). */
export const CALLS = new Set<unknown>(['function_call', 'custom_tool_call']);
const OUTPUTS = new Set<unknown>(['function_call_output', 'custom_tool_call_output']);
/** The model's shell tools: `exec_command {cmd, workdir}` (0.171), `shell {command: argv}` (older builds). */
const SHELLS = new Set<unknown>(['exec_command', 'shell', 'shell_command']);

/** exec_command's output: "…Process exited with code N…Output:\n<what it printed>". */
const EXITED = /^Process exited with code (-?\d+)$/m;
const OUTPUT = /\nOutput:\n([\s\S]*)$/;
/** apply_patch's output: "Exit code: N…" once it ran; a refusal or a verification error says no code. */
const PATCH_EXIT = /^Exit code: (-?\d+)/;
const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+)$/gm;

interface Pending {
  call: JsonObject;
  /** An item reports the call: its event is the item's. */
  itemized: boolean;
}

export interface RawCalls {
  /** A `response_item` payload: a call is held by its `call_id`; its output reports it when no item did. */
  response(payload: JsonObject): boolean;
  /** An item's id: false when its call was already reported from its raw pair (the item adds nothing). */
  item(id: unknown): boolean;
  /** End of input: a call still waiting for its output is reported, its outcome unknown. */
  end(): void;
}

/**
 * `report`: where an `exec --json` item goes (the stdout correlator's item table). `refusals` false: no
 * `permission_denied` warning (beside stdout, the stderr line that says the same gives it).
 */
export function rawCalls(
  run: RunContext,
  directories: ReturnType<typeof commandDirectories>,
  report: (item: JsonObject) => void,
  refusals = true,
): RawCalls {
  // A call never answered (the run ended, or too many wait) is reported with its outcome unknown.
  const pending = new BoundedMap<Pending>(run.limits, ({ call, itemized }) => {
    if (!itemized) reportCall(call, undefined);
  });
  const reported = new BoundedMap<true>(run.limits);

  function reportCall(call: JsonObject, output: string | undefined): void {
    const id = call.call_id as string;
    const args = argumentsOf(call);
    const item = SHELLS.has(call.name)
      ? commandItem(id, args, output, directories.of({ id }))
      : call.name === 'apply_patch'
        ? patchItem(id, args, output, directories.resolve)
        : undefined;
    if (item === undefined) run.emit({ type: 'unknown', raw: { call, output } });
    else report(item);
    const refusal = output === undefined || !refusals ? undefined : refusalOf(output);
    if (refusal !== undefined) permissionDenied(run, { ...refusal, tool: String(call.name) });
    reported.set(id, true);
  }

  return {
    response(payload) {
      const id = payload.call_id;
      if (typeof id !== 'string') return false;
      if (CALLS.has(payload.type)) pending.set(id, { call: payload, itemized: false });
      if (!OUTPUTS.has(payload.type)) return false;
      const held = pending.take(id);
      if (held === undefined || held.itemized) return false;
      reportCall(held.call, outputText(payload.output));
      return true;
    },
    item(id) {
      if (typeof id !== 'string') return true;
      if (reported.take(id) !== undefined) return false;
      const held = pending.get(id);
      if (held !== undefined) held.itemized = true;
      return true;
    },
    end: () => pending.evictAll(),
  };
}

/** A command as stdout's `command_execution` item: the exit code its output states decides; none says failed. */
function commandItem(id: string, args: JsonObject, output: string | undefined, cwd: string | undefined) {
  const command = Array.isArray(args.command) ? shellJoin(args.command) : (args.cmd ?? args.command);
  if (typeof command !== 'string') return undefined;
  const code = output === undefined ? undefined : EXITED.exec(output)?.[1];
  const exit_code = code === undefined ? null : Number(code);
  const status = output === undefined ? undefined : exit_code === 0 ? 'completed' : 'failed';
  const aggregated_output = output === undefined ? undefined : (OUTPUT.exec(output)?.[1] ?? output);
  return { type: 'command_execution', id, command, aggregated_output, exit_code, status, working_directory: cwd };
}

/** A patch as stdout's `file_change` item, one change per file it names: it succeeded only with exit code 0. */
function patchItem(id: string, args: JsonObject, output: string | undefined, resolve: (path: string) => string) {
  const patch = stringField(args, 'input');
  if (patch === undefined) return undefined;
  const changes = [...patch.matchAll(PATCH_FILE)].map(([, kind, path]) => ({
    path: resolve(path!.trim()),
    kind: kind!.toLowerCase(),
  }));
  if (changes.length === 0) return undefined;
  const status = output === undefined ? undefined : PATCH_EXIT.exec(output)?.[1] === '0' ? 'completed' : 'failed';
  return { type: 'file_change', id, changes, status };
}

/** A call's arguments: `custom_tool_call`'s `input` text, or `function_call`'s JSON `arguments`. */
function argumentsOf(call: JsonObject): JsonObject {
  if (typeof call.input === 'string') return { input: call.input };
  if (typeof call.arguments !== 'string') return isObject(call.arguments) ? call.arguments : {};
  try {
    const parsed = JSON.parse(call.arguments) as unknown;
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** An output as text: a string, or the text of its content parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const parts = isObject(output) ? output.content : output;
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return JSON.stringify(output) ?? '';
  return parts.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}
