/**
 * A session followed as it is written (`followSession`, `harness-events follow`): its files
 * tailed (lib/runtime/sessions/tail-session.ts: the main file, and the subagents' files of a format that
 * merges them) into the session format's reader, events given as each line arrives. It ends
 * when the session does: after the format's end marker (Claude Code's `cost-state`, Codex's
 * `task_complete`, Copilot's `session.shutdown`) when nothing more comes within `endGraceMs`;
 * else after `quietMs` with nothing written to any of its files; when the main file is deleted;
 * or on abort. Held text is flushed when the input pauses, as for a live stdout.
 */
import { once } from 'node:events';
import { resolve } from 'node:path';
import { now } from '../../kernel/clock.js';
import { stamp } from '../../kernel/stamp.js';
import { createNormalizer, traceWriterOf, type NormalizeOptions, type Normalizer } from '../normalizer.js';
import type { TraceRecord } from '../../kernel/trace.js';
import type { HarnessEvent } from '../../kernel/events.js';
import { sessionFormat } from './sessions.js';
import { followStore } from './follow-db.js';
import { TailNotice } from './tail.js';
import { tailSession } from './tail-session.js';

/** The session file {@link followSession} follows, when it stops, and the normalizer's options. */
export interface FollowSessionOptions extends Omit<NormalizeOptions, 'harness' | 'idleFlushMs' | 'output'> {
  /** The harness whose session file this is, by registry name. */
  harness: string;
  /** The session's main file. */
  path: string;
  /** Ends the following (the events read so far are still given, held text flushed). */
  signal?: AbortSignal;
  /** `start` (default): the whole session, then what is appended; `end`: only what is appended from now on. */
  from?: 'start' | 'end';
  /** Nothing written for this long (ms) ends the following. Default 600,000 (10 minutes). */
  quietMs?: number;
  /** After the format's end marker, nothing more for this long (ms) ends it. Default 1,000. */
  endGraceMs?: number;
  /** The poll behind fs.watch (ms). Default 2,000. */
  pollMs?: number;
  /**
   * Called once the session is open and the following's starting point taken: from then on, whatever is written is
   * given (with `from: 'end'`, nothing written before it).
   */
  onStart?: () => void;
}

export const DEFAULT_QUIET_MS = 600_000;
const DEFAULT_END_GRACE_MS = 1_000;
const DEFAULT_POLL_MS = 2_000;

/**
 * Follows a session file as its agent writes it (`tail -f`, in events): what is in it (or with `from: 'end'`, only
 * what comes next), then each record as it is appended. It ends at the signal, after the format's end marker and
 * `endGraceMs`, after `quietMs` with nothing written, or when the file is deleted (a `session_deleted` warning).
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * for await (const event of followSession({ harness: 'claude-code', path, signal: controller.signal, from: 'end' }))
 *   console.log(event);
 * ```
 */
export function followSession(options: FollowSessionOptions & { trace?: false }): Normalizer;
/** Follows a session into the trace stream (docs/contract.md "Trace stream"). */
export function followSession(options: FollowSessionOptions & { trace: true }): Normalizer<TraceRecord>;
/** Follows a session into events or the trace, chosen at run time (`trace`). */
export function followSession(options: FollowSessionOptions): Normalizer<HarnessEvent | TraceRecord>;
export function followSession(options: FollowSessionOptions): Normalizer<HarnessEvent | TraceRecord> {
  const { path, harness, signal, from, quietMs, endGraceMs, pollMs, onLine, onStart, ...rest } = options;
  const format = sessionFormat(harness);
  let lastWasEnd = false;
  // The session id the records name, for the follower's own warnings.
  let session: string | undefined;
  const normalizer = createNormalizer({
    ...rest,
    cwd: rest.cwd ?? format.cwdOf?.(resolve(path)),
    harness: format.reader,
    idleFlushMs: 200,
    output: 'objects',
    onLine(line, rule) {
      lastWasEnd = format.endRules.has(rule);
      onLine?.(line, rule);
    },
    onRecord(record) {
      session ??= format.facts(record).id;
      rest.onRecord?.(record);
    },
  });

  const trace = traceWriterOf(normalizer);

  async function pump(): Promise<void> {
    const tail = {
      from,
      signal,
      quietMs: quietMs ?? DEFAULT_QUIET_MS,
      endGraceMs: endGraceMs ?? DEFAULT_END_GRACE_MS,
      pollMs: pollMs ?? DEFAULT_POLL_MS,
      ended: () => lastWasEnd,
      onStart,
    };
    // A session kept in a database (OpenCode, Kilo) is followed by its store's records, not by a file's bytes.
    const { store } = format;
    const chunks = store
      ? followStore(store, await format.locate(resolve(path)), tail)
      : tailSession(format, resolve(path), tail);
    for await (const chunk of chunks) {
      if (normalizer.destroyed) break;
      if (chunk instanceof TailNotice) {
        // Every write before it has been read (a full buffer was waited out): the warning keeps its place.
        normalizer.metrics.events.warning = (normalizer.metrics.events.warning ?? 0) + 1;
        const warning = stamp({ type: 'warning', code: chunk.code, message: chunk.message }, now(), session);
        if (trace) trace.event(warning, (record) => normalizer.push(record));
        else normalizer.push(warning);
        continue;
      }
      if (!normalizer.write(chunk)) await once(normalizer, 'drain');
    }
    normalizer.end();
  }
  pump().catch((error: Error) => normalizer.destroy(error));
  return normalizer as Normalizer<HarnessEvent | TraceRecord>;
}
