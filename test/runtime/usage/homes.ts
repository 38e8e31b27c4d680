/**
 * Homes for the usage tests: copies of the paired captures' homes (test/fixtures/<harness>/transcripts/<run>/home),
 * and forks made from them as the CLIs write them (docs/usage.md "Counted once"): Claude Code's `--fork-session`
 * restates every assistant record of the parent with `sessionId` rewritten and the parent's id in
 * `requestSessionId`; Codex's `exec fork` names its parent in `session_meta` and its `token_count` totals start from
 * the parent's, while its `token_usage_record` rows are its own calls.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '../../helpers.js';

const made: string[] = [];

/** A temporary home holding the homes of these captures (`claude-code/bash`, ...), merged. */
export function homeOf(...captures: string[]): string {
  const home = mkdtempSync(join(tmpdir(), 'harness-events-usage-'));
  made.push(home);
  for (const capture of captures) {
    const [harness, run] = capture.split('/');
    cpSync(fixturePath(`${harness}/transcripts/${run}/home`), home, { recursive: true });
  }
  return home;
}

/** Removes the homes made (afterEach). */
export function removeHomes(): void {
  for (const home of made.splice(0)) rmSync(home, { recursive: true, force: true });
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const jsonl = (records: object[]) => records.map((record) => JSON.stringify(record) + '\n').join('');

export const claudeProject = '.claude/projects/-home-user-project';
export const claudeBash = 'c87769bd-e555-469c-9e50-6bbdc54002bf';

/**
 * A fork of the bash capture's session, as `--resume ID --fork-session` writes it: every assistant record of the
 * parent restated (`requestSessionId` the parent's), then one call of its own. Its id sorts before the parent's, so
 * its file is read first.
 */
export function forkClaude(home: string, fork = '0f0f0f0f-0000-4000-8000-000000000001'): void {
  const parent = lines(join(home, claudeProject, `${claudeBash}.jsonl`));
  const restated = parent
    .filter((record) => record.type === 'assistant')
    .map((record): Record<string, unknown> => ({ ...record, sessionId: fork, requestSessionId: claudeBash }));
  const last = restated.at(-1)!;
  const message = last.message as Record<string, unknown>;
  const own = {
    ...last,
    uuid: 'fork-own-0001',
    requestId: 'req_fork_1',
    timestamp: '2026-12-02T09:00:00.000Z',
    sessionId: fork,
    requestSessionId: undefined,
    message: { ...message, id: 'msg_fork_own_0', usage: { input_tokens: 700, output_tokens: 9 } },
  };
  writeFileSync(join(home, claudeProject, `${fork}.jsonl`), jsonl([...restated, own]));
}

export const codexDay = '.codex/sessions/2026/12/01';

/**
 * A fork of the codex `read` capture, as `codex exec fork` writes it: its own rollout naming the parent, one call of
 * its own (`resp_fork_1`), and a `token_count` whose total starts from the parent's.
 */
export function forkCodex(home: string, fork = '01a23332-ffff-7000-8000-000000000001'): void {
  const name = readdirSync(join(home, codexDay)).find((file) => file.includes('a378'))!;
  const parent = lines(join(home, codexDay, name));
  const meta = parent[0]!;
  const parentId = (meta.payload as Record<string, unknown>).id as string;
  const totals = parent.filter((record) => (record.payload as Record<string, unknown>).type === 'token_count').at(-1)!;
  const info = (totals.payload as { info: { total_token_usage: Record<string, number> } }).info;
  const own = {
    input_tokens: 600,
    cached_input_tokens: 100,
    cache_write_input_tokens: 0,
    output_tokens: 20,
    reasoning_output_tokens: 0,
    total_tokens: 620,
  };
  const total = Object.fromEntries(
    Object.entries(info.total_token_usage).map(([k, v]) => [k, v + (own[k as keyof typeof own] ?? 0)]),
  );
  const at = (seconds: number) => `2026-12-01T21:00:0${seconds}.000Z`;
  const turn = { turn_id: 'fork-turn-1', root_turn_id: 'fork-turn-1' };
  const records = [
    {
      ...meta,
      timestamp: at(0),
      payload: {
        ...(meta.payload as object),
        id: fork,
        session_id: fork,
        forked_from_id: parentId,
        history_base: parentId,
      },
    },
    { timestamp: at(1), type: 'event_msg', payload: { type: 'task_started', ...turn } },
    {
      timestamp: at(2),
      type: 'token_usage_record',
      payload: { thread_id: fork, session_id: fork, ...turn, response_id: 'resp_fork_1', usage: own },
    },
    {
      timestamp: at(3),
      type: 'event_msg',
      payload: { type: 'token_count', info: { total_token_usage: total, last_token_usage: own } },
    },
    { timestamp: at(4), type: 'event_msg', payload: { type: 'task_complete', ...turn, last_agent_message: 'done' } },
  ];
  writeFileSync(join(home, codexDay, `rollout-2026-12-01T21-00-00-${fork}.jsonl`), jsonl(records));
}
