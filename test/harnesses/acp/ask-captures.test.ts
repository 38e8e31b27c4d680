/**
 * `permissions: 'ask'` on the real agents' permission requests: each lab capture replayed live to the client
 * (replay.ts). The caller denies the first request and allows the next once: the exact normalized requests (their
 * kind, path and command classified from the agent's tool call), and the option each answer became, by the agent's
 * row (approval-options.ts), in what the client wrote.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { PermissionAnswer, PermissionRequest } from '../../../lib/kernel/approvals.js';
import { collect } from './peer.js';
import { replayToClient } from './replay.js';

const dir = mkdtempSync(join(tmpdir(), 'acp-ask-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Seen = Omit<PermissionRequest, 'raw' | 'input'>;

/** Replays the capture asking: what the callback saw (without raw and input), and the answers the client wrote. */
async function ask(file: string) {
  const seen: Seen[] = [];
  const answers: PermissionAnswer[] = [{ deny: true }, { allow: 'once' }];
  const { run, log } = replayToClient(file, dir, 'ask', {
    reject: false,
    onPermission: (request) => {
      const { raw, input: _input, ...rest } = request;
      expect(raw).toEqual(expect.objectContaining({ toolCall: expect.any(Object), options: expect.any(Array) }));
      seen.push(rest);
      return answers[seen.length - 1] ?? { deny: true };
    },
  });
  await collect(run);
  await run.done;
  const written = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { result?: { outcome?: unknown } });
  return { seen, answered: written.flatMap((m) => (m.result?.outcome ? [m.result.outcome] : [])) };
}

const chose = (optionId: string) => ({ outcome: 'selected', optionId });

describe("'ask' on the captured permission requests", { timeout: 30_000 }, () => {
  test('claude-agent-acp: a write and an rm; session and always not offered (allow_always is neither)', async () => {
    expect(await ask('acp/claude-agent-acp/permission-default.jsonl')).toEqual({
      seen: [
        {
          call_id: 'toolu_scripted_0008',
          harness: 'acp',
          tool: 'Write src/c.ts',
          kind: 'write',
          path: '/home/user/project/src/c.ts',
          scopes: ['once'],
        },
        {
          call_id: 'toolu_scripted_0012',
          harness: 'acp',
          tool: 'rm README.md',
          kind: 'command',
          command: 'rm README.md',
          scopes: ['once'],
        },
      ],
      answered: [chose('reject'), chose('allow')],
    });
  });

  const one = (file: string, seen: Omit<Seen, 'harness'>, deny: string) => [file, seen, deny] as const;
  test.each([
    one(
      'acp/codex-acp/permission-default.jsonl',
      {
        call_id: 'call_scripted_0002',
        tool: 'Edit /home/user/project/src/c.ts',
        kind: 'write',
        path: '/home/user/project/src/c.ts',
        scopes: ['once'],
      },
      'abort',
    ),
    one(
      'acp/copilot/permission-default.jsonl',
      {
        call_id: 'call_scripted_0008',
        tool: 'Create file',
        kind: 'write',
        path: '/home/user/project/src/c.ts',
        scopes: ['once', 'session'],
      },
      'reject_once',
    ),
    // OpenCode's read request carries an empty rawInput: no path to classify it by.
    one(
      'acp/opencode/permission-default.jsonl',
      { call_id: 'call_scripted_0003', tool: 'read', kind: 'unknown', scopes: ['once', 'session'] },
      'reject',
    ),
    one(
      'acp/qwen/permission-default.jsonl',
      {
        call_id: 'call_scripted_0008',
        tool: 'Writing to src/c.ts',
        kind: 'write',
        path: '/home/user/project/src/c.ts',
        // The edit's proceed_always would switch the session to auto-edit: not offered as always.
        scopes: ['once'],
      },
      'cancel',
    ),
    one(
      'acp/gemini/tools.jsonl',
      {
        call_id: 'run_shell_command__run_shell_command_1796088770654_0',
        tool: 'ls -la && echo done',
        kind: 'command',
        command: 'ls -la && echo done',
        scopes: ['once', 'session'],
      },
      'cancel',
    ),
    one(
      'acp/droid/fail.jsonl',
      {
        call_id: 'call_0004',
        tool: "`node -e 'process.exit(3)'` (low)",
        kind: 'command',
        command: "node -e 'process.exit(3)'",
        scopes: ['once'],
      },
      'cancel',
    ),
  ])("%s: the request, denied with its row's reject option", async (file, seen, deny) => {
    expect(await ask(file)).toEqual({ seen: [{ ...seen, harness: 'acp' }], answered: [chose(deny)] });
  });
});
