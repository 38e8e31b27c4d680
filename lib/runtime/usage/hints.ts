/**
 * What a session's own records say of a model call that its trace record does not (docs/usage.md "Counted once"),
 * by harness: one rule each, with a stable id and the sentence saying why (the "Counted once" table cites the ids).
 */
import { isObject, type JsonObject } from '../../kernel/json.js';

/** A call's id, and what the record adds to it. */
export interface CallHint {
  model_call_id: string;
  /** The session that made it. */
  session?: string;
  /** Its model. */
  model?: string;
  /**
   * What identifies the call where the harness's id does not survive a copy (with the call's tokens after it): the
   * call is counted by this, not by its id.
   */
  key?: string;
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
  if (id === undefined) return undefined;
  const created = isObject(info!.time) && typeof info!.time.created === 'number' ? info!.time.created : undefined;
  return { model_call_id: id, model: text(info!.modelID), key: created === undefined ? undefined : `@${created}` };
}

/** One harness's rule: what it reads from a session's records, and why. */
export interface HintRule {
  /** Its stable id (docs/usage.md "Counted once"). */
  readonly id: string;
  readonly why: string;
  readonly hint: (record: JsonObject) => CallHint | undefined;
}

const storeRule: HintRule = {
  id: 'store:fork-copy',
  why:
    '`run --fork` copies every message of the parent session into the fork under new ids (their parents renamed ' +
    "too), keeping their times: a call is known by its assistant message's creation time and its tokens, which " +
    "the copy keeps; the model is the message's `modelID`, which the usage part does not name",
  hint: storeHint,
};

export const callHints: Readonly<Record<string, HintRule>> = {
  'claude-code': {
    id: 'claude-code:fork-session',
    why:
      "`--fork-session` copies every assistant record of the parent into the fork's file, with `sessionId` " +
      "rewritten to the fork's and the parent's in `requestSessionId`: each call belongs to " +
      '`requestSessionId ?? sessionId`',
    hint: claudeHint,
  },
  opencode: storeRule,
  kilo: storeRule,
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
