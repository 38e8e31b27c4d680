/**
 * Where each command of a Codex rollout ran (docs/harnesses/codex.md "Session files"): its `CommandExecution`'s `cwd`
 * (a `file://` URL), else the `workdir` the model gave its `exec_command` call (relative to the turn's `cwd`), else the
 * turn's `cwd`. Stdout says none of it.
 */
import { fileURLToPath } from 'node:url';
import { BoundedMap } from '../../kernel/bounded-map.js';
import type { RunContext } from '../../kernel/harness.js';
import type { JsonObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import { stringField } from '../../kernel/tool-rules.js';

interface CommandDirectories {
  /** A `turn_context` payload: its `cwd` is the turn's. */
  turn(payload: JsonObject): void;
  /** A `response_item` payload: a `function_call`'s `workdir`, kept by its `call_id`. */
  call(payload: JsonObject): void;
  /** The directory a `CommandExecution` item ran in, when known. */
  of(item: JsonObject): string | undefined;
  /** A path a patch names, against the turn's `cwd` (where Codex applies it), when known. */
  resolve(path: string): string;
}

export function commandDirectories(run: RunContext): CommandDirectories {
  let turn: string | undefined;
  const workdirs = new BoundedMap<string>(run.limits);
  const base = () => turn ?? run.cwd;
  return {
    turn(payload) {
      const cwd = stringField(payload, 'cwd');
      if (cwd !== undefined) turn = resolvePath(cwd, run.cwd, run.home);
    },
    call(payload) {
      if (payload.type !== 'function_call' || typeof payload.call_id !== 'string') return;
      const workdir = stringField(argumentsOf(payload.arguments), 'workdir');
      if (workdir !== undefined) workdirs.set(payload.call_id, resolvePath(workdir, base(), run.home));
    },
    of(item) {
      const workdir = typeof item.id === 'string' ? workdirs.take(item.id) : undefined;
      return fromUrl(item.cwd) ?? workdir ?? base();
    },
    resolve: (path) => (base() === undefined ? path : resolvePath(path, base(), run.home)),
  };
}

/** A call's arguments, a JSON string (parsed only when it may name a `workdir`). */
function argumentsOf(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  if (!args.includes('"workdir"')) return undefined;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return undefined;
  }
}

/** A `file://` URL's path (percent-decoded); anything else, none. */
function fromUrl(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}
