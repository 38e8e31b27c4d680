/**
 * One `permissions: 'ask'` run of a real CLI against the scripted model (docs/library.md "Approvals"): a fresh place,
 * the CLI through `spawnHarness` with the trace on and the case's `onPermission`, then the sweep. Everything it started
 * is gone when it returns.
 */
import { randomUUID } from 'node:crypto';
import {
  spawnHarness,
  type OnPermission,
  type PermissionRequest,
  type RunResult,
  type SpawnHarnessOptions,
} from '../lib/index.js';
import type { TraceRecord, TraceRecordOf } from '../lib/kernel/trace.js';
import { startModelServer, type Conversation, type LoggedRequest, type Turn } from '../lib/testing/index.js';
import type { AskRow } from './approvals-rows.js';
import { launch, type LiveHarness } from './harnesses.js';
import type { Installed } from './install.js';
import { leftovers, liveOptions, sweep } from './run.js';
import { changedFiles, createPlace, hashTree, type Place } from './workspace.js';

export interface AskCase {
  name: string;
  prompt: string;
  turns(place: Place, row: AskRow): Turn[];
  conversations?(place: Place, row: AskRow): Conversation[];
  /** The caller's callback; `abort` aborts the run (the case that aborts while a request is pending). */
  onPermission(abort: () => void, row: AskRow): OnPermission;
  /** `permissionTimeoutMs`. */
  timeoutMs?: number;
  /** What the place needs besides the row's offline setup (written after it). */
  prepare?(place: Place, row: AskRow): void;
}

export interface AskRun {
  records: TraceRecord[];
  result: RunResult;
  asked: PermissionRequest[];
  /** Each callback's signal, in the order asked. */
  signals: AbortSignal[];
  requests: readonly LoggedRequest[];
  changed: string[];
  leftovers: string[];
  place: Place;
  /** Another run of the same row in the same place (what a first run left there stays). */
  again(scripted: AskCase): Promise<AskRun>;
}

export async function runAsk<T>(
  row: LiveHarness,
  ask: AskRow,
  cli: Installed,
  scripted: AskCase,
  inspect: (run: AskRun) => T,
  reuse?: Place,
): Promise<Awaited<T>> {
  const place = reuse ?? createPlace();
  const server = await startModelServer({
    conversations: [
      ...(row.side ?? []),
      ...(scripted.conversations?.(place, ask) ?? []),
      { name: 'main', match: { user: scripted.prompt }, turns: scripted.turns(place, ask) },
    ],
  });
  const marker = `${process.env.HARNESS_EVENTS_LIVE_SUITE ?? 'solo'}:${randomUUID()}`;
  const controller = new AbortController();
  const asked: PermissionRequest[] = [];
  const signals: AbortSignal[] = [];
  const decide = scripted.onPermission(() => controller.abort(), ask);
  try {
    const { env, ...options } = launch(row, place, server.url, [], 'ask');
    scripted.prepare?.(place, ask);
    const before = hashTree(place.workspace);
    const run = spawnHarness({
      ...liveOptions(row, cli, place, marker, env),
      prompt: scripted.prompt,
      ...options,
      onPermission: (request, context) => {
        asked.push(request);
        signals.push(context.signal);
        return decide(request, context);
      },
      permissionTimeoutMs: scripted.timeoutMs,
      trace: true,
      signal: AbortSignal.any([controller.signal, AbortSignal.timeout(600_000)]),
    } as SpawnHarnessOptions & { trace: true });
    const records: TraceRecord[] = [];
    for await (const record of run) records.push(record);
    const result = await run.done;
    return await inspect({
      records,
      result,
      asked,
      signals,
      requests: server.requests,
      changed: changedFiles(before, hashTree(place.workspace)),
      leftovers: await leftovers(marker),
      place,
      again: (next) => runAsk(row, ask, cli, next, (second) => second, place),
    });
  } finally {
    sweep(marker);
    await server.close();
    if (reuse === undefined) place.remove();
  }
}

type Permission = TraceRecordOf<'permission_requested'> | TraceRecordOf<'permission_resolved'>;

/** The trace's permission records, without their times. */
export function permissions(records: readonly TraceRecord[]): Partial<Permission>[] {
  return records
    .filter((r): r is Permission => r.kind === 'permission_requested' || r.kind === 'permission_resolved')
    .map(({ at: _at, at_source: _source, ...rest }) => rest);
}

/** The messages of the run's warnings with this code. */
export function warnings(records: readonly TraceRecord[], code: string): string[] {
  return records.flatMap((r) =>
    r.kind === 'event' && r.event.type === 'warning' && r.event.code === code ? [r.event.message] : [],
  );
}
