/**
 * One `permissions: 'ask'` run of a real CLI against the scripted model (docs/library.md "Approvals"): a fresh place,
 * the CLI through `spawnHarness` with the trace on and the case's `onPermission`, then the sweep. Everything it started
 * is gone when it returns.
 */
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import {
  spawnHarness,
  type OnPermission,
  type PermissionRequest,
  type RunResult,
  type SpawnHarnessOptions,
} from '../lib/index.js';
import type { TraceRecord, TraceRecordOf } from '../lib/kernel/trace.js';
import { startModelServer, type Conversation, type LoggedRequest, type Turn } from '../lib/testing/index.js';
import type { ToolUse } from '../lib/testing/protocols/turn.js';
import { acpAskRows } from './approvals-acp.js';
import { launch, type LiveHarness } from './harnesses.js';
import type { Installed } from './install.js';
import { sweep } from './run.js';
import { changedFiles, createPlace, hashTree, type Place } from './workspace.js';

/** How a row's agent is scripted: its shell and write tools. */
export interface AskRow {
  shell(command: string): ToolUse;
  write(path: string, content: string): ToolUse;
}

export const askRows: Record<string, AskRow> = {
  'claude-code': {
    shell: (command) => ({ name: 'Bash', input: { command, description: 'Run it' } }),
    write: (file_path, content) => ({ name: 'Write', input: { file_path, content } }),
  },
  qwen: {
    shell: (command) => ({
      name: 'run_shell_command',
      input: { command, description: 'Run it', is_background: false },
    }),
    write: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
  },
  // The ACP presets' (approvals-acp.live.ts).
  ...acpAskRows,
};

export interface AskCase {
  name: string;
  prompt: string;
  /** The rows the case runs on (the agent must have what it checks). */
  rows: readonly string[];
  turns(place: Place, row: AskRow): Turn[];
  conversations?(place: Place, row: AskRow): Conversation[];
  /** The caller's callback; `abort` aborts the run (the case that aborts while a request is pending). */
  onPermission(abort: () => void): OnPermission;
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
}

export async function runAsk<T>(
  row: LiveHarness,
  cli: Installed,
  scripted: AskCase,
  inspect: (run: AskRun) => T,
): Promise<Awaited<T>> {
  const place = createPlace();
  const ask = askRows[row.id]!;
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
  const decide = scripted.onPermission(() => controller.abort());
  try {
    const { env, ...options } = launch(row, place, server.url, [], 'ask');
    const before = hashTree(place.workspace);
    const run = spawnHarness({
      harness: row.harness,
      command: cli.bin,
      prompt: scripted.prompt,
      ...options,
      onPermission: (request, context) => {
        asked.push(request);
        signals.push(context.signal);
        return decide(request, context);
      },
      trace: true,
      reject: false,
      extendEnv: false,
      cwd: place.workspace,
      env: {
        PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
        HOME: place.home,
        USER: 'live',
        LANG: 'C.UTF-8',
        SHELL: '/bin/bash',
        TERM: 'dumb',
        TMPDIR: place.tmp,
        ...cli.env,
        ...env,
        HARNESS_EVENTS_LIVE_RUN: marker,
      },
      signal: AbortSignal.any([controller.signal, AbortSignal.timeout(600_000)]),
      killGraceMs: 2000,
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
      leftovers: sweep(marker),
      place,
    });
  } finally {
    sweep(marker);
    await server.close();
    place.remove();
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
