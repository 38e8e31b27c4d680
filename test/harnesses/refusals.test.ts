/**
 * docs/contract.md "Refused tool calls" on real streams: each CLI run by the live suite's `defaults` round under the
 * library's default command line (test/fixtures/<harness>/lab/permission-default.jsonl, captured with
 * LIVE_CAPTURE), where the model reads, searches, lists, writes, edits and runs `rm`, and by its `plan` round under
 * `permissions: 'plan'` where the CLI has a plan mode (permission-plan.jsonl, 2026-12-05). Every refusal its output
 * states is one `permission_denied` warning naming the tool and the reason, counted in the metrics; a run the CLI
 * stopped at a refusal says so.
 */
import { describe, expect, test } from 'vitest';
import type { HarnessName } from '../../lib/index.js';
import { spawnHarness } from '../../lib/index.js';
import { bodies, fixturePath, run, runFixture } from '../helpers.js';
import { replayToClient } from './acp/replay.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarnessRunError } from '../../lib/runtime/run/errors.js';

const denied = (tool: string, reason: string) => `Permission denied: ${tool}: ${reason}`;

const claudeWs = '/tmp/he-live-04BlcA/project';
const claudeWrite = (path: string) =>
  `Claude requested permissions to write to ${claudeWs}/${path}, but you haven't granted it yet.`;
const qwenReason = 'the approval mode refused it (the result lists it in permission_denials)';
const geminiReason = (tool: string, others: string) =>
  `Tool "${tool}" not found. Did you mean one of: ${others}? (the approval mode does not offer it headless)`;
const copilotReason =
  'Permission denied because no interactive user response was available. Retry in an interactive session so the ' +
  'user can approve it, or try an alternative that does not require this permission.';
const clineReason = (tool: string) =>
  `Tool "${tool}" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before ` +
  'proceeding.';

const expected: Record<string, { warnings: string[]; stopped?: true }> = {
  'claude-code': {
    warnings: [
      denied('Write', claudeWrite('src/c.ts')),
      denied('Edit', claudeWrite('src/a.ts')),
      denied(
        'Bash',
        `rm in '${claudeWs}/README.md' needs approval. The path is inside the working directories for this session ` +
          `('${claudeWs}'), and Claude Code asks before a shell command creates, changes or removes files there.`,
      ),
    ],
  },
  qwen: { warnings: ['write_file', 'edit', 'run_shell_command'].map((tool) => denied(tool, qwenReason)) },
  gemini: {
    warnings: [
      denied('write_file', geminiReason('write_file', '"read_file", "update_topic", "grep_search"')),
      denied('replace', geminiReason('replace', '"read_file", "grep_search", "glob"')),
      denied('run_shell_command', geminiReason('run_shell_command', '"update_topic", "grep_search", "invoke_agent"')),
    ],
  },
  // OpenCode's default asks for everything: the first read is rejected and the session halts there.
  opencode: {
    warnings: [denied('read', 'The user rejected permission to use this specific tool call.')],
    stopped: true,
  },
  copilot: { warnings: ['create', 'edit', 'bash'].map((tool) => denied(tool, copilotReason)) },
  // Without a TTY every call is refused, reads too; the third in a row ends the run (run_aborted).
  cline: {
    warnings: ['read_files', 'search_codebase', 'run_commands'].map((tool) => denied(tool, clineReason(tool))),
    stopped: true,
  },
};

// The plan modes refuse what the defaults do, each in its own words.
const planWs = (id: string) => `/tmp/he-live-${id}/project`;
const inPlan = (path: string) => `Cannot write to ${planWs('GdlCse')}/${path} while in plan mode.`;
const geminiPlansDir = '/tmp/he-live-q9VUSF/home/.gemini/tmp/project/b6ee99fd-e9c5-4e58-b3ab-447fc8bc04c8/plans';
const outsidePlans = (path: string) =>
  `Access denied: plan path (${planWs('q9VUSF')}/${path}) must be within the designated plans directory ` +
  `(${geminiPlansDir}). (the plan mode writes only its plans directory)`;
const plans: Record<string, { warnings: string[]; stopped?: true }> = {
  // Claude Code's plan mode sends Bash to its auto-mode check, which does not run offline: refused too.
  'claude-code': {
    warnings: [
      denied('Write', inPlan('src/c.ts')),
      denied('Edit', inPlan('src/a.ts')),
      denied(
        'Bash',
        'Auto mode is unavailable: its safety check does not run for this session, so Bash was not run. ' +
          "Other actions that need the check will be denied too, and retrying won't help. Finish what you can " +
          'without them, then tell the user what is blocked and that they can switch to another permission mode.',
      ),
    ],
  },
  gemini: {
    warnings: [
      denied('write_file', outsidePlans('src/c.ts')),
      denied('replace', outsidePlans('src/a.ts')),
      denied('run_shell_command', geminiReason('run_shell_command', '"update_topic", "grep_search", "replace"')),
    ],
  },
  qwen: expected.qwen!,
};

describe('refusals become permission_denied warnings', () => {
  const rounds = [
    ['lab/permission-default.jsonl', expected],
    ['lab/permission-plan.jsonl', plans],
  ] as const;
  for (const [harness, { warnings, stopped }, file] of rounds.flatMap(([file, table]) =>
    Object.entries(table).map(([harness, expect]) => [harness, expect, file] as const),
  )) {
    test(`${harness}: ${file}`, async () => {
      const result = await runFixture(`${harness}/${file}`, { harness: harness as HarnessName });
      const events = bodies(result.events);
      expect(
        events.filter((event) => event.code === 'permission_denied').map((event) => event.message),
        JSON.stringify(events),
      ).toEqual(warnings);
      expect(result.metrics.permission_denials).toBe(warnings.length);
      expect(result.metrics.stopped_by_permission).toBe(stopped);
      // A run a refusal stopped has that class (docs/contract.md "Run metrics"), whatever else it reported.
      if (stopped) expect(result.metrics.failure).toBe('permission_denied');
      else expect(result.metrics.failure).not.toBe('permission_denied');
      // Each refused call keeps its own event, unsuccessful.
      const refused = events.filter((event) => 'is_success' in event && event.is_success === false);
      expect(refused.length).toBeGreaterThanOrEqual(warnings.length);
    });
  }

  test('OpenCode: a rejection with feedback is a refusal the session goes on from: not stopped', async () => {
    const record = {
      type: 'tool_use',
      sessionID: 'ses_1',
      part: {
        id: 'prt_1',
        tool: 'bash',
        state: {
          status: 'error',
          input: { command: 'rm README.md' },
          error: 'The user rejected permission to use this specific tool call with the following feedback: no',
        },
      },
    };
    const result = await run(JSON.stringify(record) + '\n', { harness: 'opencode' });
    expect(bodies(result.events)).toEqual([
      { type: 'command', command: 'rm README.md', is_success: false },
      {
        type: 'warning',
        code: 'permission_denied',
        message: denied(
          'bash',
          'The user rejected permission to use this specific tool call with the following feedback: no',
        ),
      },
    ]);
    expect(result.metrics.stopped_by_permission).toBeUndefined();
  });
});

describe('Codex: refusals only on stderr (spawnHarness)', () => {
  // The stderr of a real `codex exec` whose model tried two patches and two escalated commands (0.171.0).
  test("the router's patch and escalation refusals are permission_denied warnings", async () => {
    const stderr = readFileSync(fixturePath('codex/lab/exec-default.stderr.txt'), 'utf8');
    const script = fileURLToPath(new URL('../children/script.mjs', import.meta.url));
    const steps = [
      { out: readFileSync(fixturePath('codex/lab/permission-default.jsonl'), 'utf8') },
      { err: stderr },
      { exit: 0 },
    ];
    const codex = spawnHarness({ harness: 'codex', command: process.execPath, args: [script, JSON.stringify(steps)] });
    const events = bodies(await codex.toArray());
    const patch = 'patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings';
    const never =
      'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy ' +
      'is Never';
    expect(events.filter((event) => event.code === 'permission_denied').map((event) => event.message)).toEqual([
      denied('apply_patch', patch),
      denied('apply_patch', patch),
      denied('exec_command', never),
      denied('exec_command', never),
    ]);
    expect((await codex.done).metrics.permission_denials).toBe(4);
  });
});

// test/fixtures/acp/<agent>/permission-default.jsonl, replayed live to the client.
describe("ACP: the library's own rejections", () => {
  const chose = (tool: string, option: string) => denied(tool, `permissions "default": the library chose ${option}`);
  // Whether the agent went on after a rejection is what came before the turn's answer: a new call or the model's
  // words (Claude's adapter), or nothing but the agent's own notice (Copilot's "Info: Operation cancelled by user").
  const agents: Record<string, { warnings: string[]; stopped?: true; exitCode: number }> = {
    'claude-agent-acp': {
      warnings: [chose('Write src/c.ts', 'reject'), chose('rm README.md', 'reject')],
      exitCode: 0,
    },
    'codex-acp': { warnings: [chose('Edit /home/user/project/src/c.ts', 'abort')], stopped: true, exitCode: 1 },
    copilot: { warnings: [chose('Create file', 'reject_once')], stopped: true, exitCode: 0 },
    opencode: { warnings: [chose('read', 'reject')], stopped: true, exitCode: 0 },
    qwen: { warnings: [chose('Writing to src/c.ts', 'cancel')], stopped: true, exitCode: 0 },
  };
  for (const [agent, { warnings, stopped, exitCode }] of Object.entries(agents)) {
    test(`${agent}: a warning per rejection; stopped_by_permission when the turn ended at one`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'acp-refusals-'));
      try {
        const { run: acp } = replayToClient(`acp/${agent}/permission-default.jsonl`, dir, 'default');
        const events = bodies(await acp.toArray());
        const result = await acp.done.catch((error: HarnessRunError) => error);
        expect(events.filter((event) => event.code === 'permission_denied').map((event) => event.message)).toEqual(
          warnings,
        );
        expect(result.exitCode).toBe(exitCode);
        expect(result.metrics.permission_denials).toBe(warnings.length);
        expect(result.metrics.stopped_by_permission).toBe(stopped);
        if (stopped) expect(result.metrics.failure).toBe('permission_denied');
        else expect(result.metrics.failure).toBeUndefined();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
