/**
 * What a session's own records say of a model call that its trace record does not (docs/usage.md "Counted once"),
 * by harness. Claude Code: the session that made it. `--fork-session` copies every assistant record of the parent
 * into the fork's file, with `sessionId` rewritten to the fork's and the parent's in `requestSessionId`: each call
 * belongs to `requestSessionId ?? sessionId`. OpenCode and Kilo: the model, which their assistant message names
 * (`modelID`) and their usage part does not.
 */
import { isObject, type JsonObject } from '../../kernel/json.js';

/** A call's id, and what the record adds to it. */
export interface CallHint {
  model_call_id: string;
  /** The session that made it. */
  session?: string;
  /** Its model. */
  model?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function claudeHint(record: JsonObject): CallHint | undefined {
  const id = record.type === 'assistant' && isObject(record.message) ? text(record.message.id) : undefined;
  const session = text(record.requestSessionId) ?? text(record.sessionId);
  return id === undefined ? undefined : { model_call_id: id, session };
}

function storeHint(record: JsonObject): CallHint | undefined {
  const info = isObject(record.data) && isObject(record.data.info) ? record.data.info : undefined;
  const id = info?.role === 'assistant' ? text(info.id) : undefined;
  return id === undefined ? undefined : { model_call_id: id, model: text(info?.modelID) };
}

export const callHints: Readonly<Record<string, (record: JsonObject) => CallHint | undefined>> = {
  'claude-code': claudeHint,
  opencode: storeHint,
  kilo: storeHint,
};

/** The version of the CLI a record names (Claude Code's `version`, Codex's `payload.cli_version`, ...). */
export function versionOf(record: JsonObject): string | undefined {
  for (const holder of [record, record.payload, record.data])
    if (isObject(holder)) {
      const version = text(holder.cli_version) ?? text(holder.version) ?? text(holder.cliVersion);
      if (version !== undefined) return version;
    }
  return undefined;
}
