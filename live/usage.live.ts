/**
 * Ground truth for the usage account (issue 42): the scripted model serves known usage per response and logs it;
 * the CLI runs (Claude Code's first run starts a subagent), resumes its session and forks it; `accountUsage` over the
 * session files the CLI wrote must give exactly the model's totals: every call counted once, however many files
 * restate it. Tokens are compared as the model counts them (input with its cached part, output with its reasoning
 * part), which every harness's mapping of the token classes adds up to. OpenCode's and Kilo's title request is a
 * model call neither their store nor their stdout records: it is left out. Stdout is accounted run by run: for the
 * rows `fromStdout` names here (Cline's is all there is: it has no session reader), and for Claude Code (with
 * `--include-partial-messages`), Codex, Gemini CLI, Qwen Code and pi by live/usage-stdout.ts, which names exactly what
 * their stdout cannot carry (Claude Code's subagents' calls, Gemini CLI's calls).
 */
import { describe, expect, inject, test } from 'vitest';
import { accountUsage, sessionFormats } from '../lib/index.js';
import type { Conversation, Failure, ToolUse, Usage } from '../lib/testing/index.js';
import { liveHarnesses, type RowId } from './harnesses.js';
import {
  asServed,
  runSteps,
  saveCapture,
  servedTotals,
  stdoutAccounts,
  type ServedTotals,
  type UsageStep,
} from './usage-runs.js';
import { expectStdout, onStdout } from './usage-stdout.js';

const rows = inject('liveRows');

const u1: Usage = { input: 3000, output: 120, cached: 1000 };
const u2: Usage = { input: 4100, output: 60, cached: 2900 };
const u3: Usage = { input: 5200, output: 45, cached: 4000 };
const u4: Usage = { input: 6300, output: 33, cached: 5100 };
const u5: Usage = { input: 2000, output: 25 };
const u6: Usage = { input: 2400, output: 15, cached: 1900 };

/**
 * OpenCode and its fork Kilo: the same tools and command line. The first run's `task` call starts the explore
 * subagent (a child session); the answer after it fails once with 429 `retry-after: 0`, which they retry at once.
 */
function openCodeRuns(readme: string): UsageStep[] {
  const task = { description: 'Read the README', prompt: subagentPrompt(readme), subagent_type: 'explore' };
  return withRuns(
    readme,
    'read',
    { filePath: readme },
    (id) => ['--session', id],
    (id) => ['--session', id, '--fork'],
    subagentRun({ name: 'task', input: task }, 'read', { filePath: readme }, retryNow),
  );
}

/** A subagent's prompt: its marker picks its conversation. */
const subagentPrompt = (readme: string) => `usage-gt-sub: read ${readme} and report its first line.`;

/** A 429 the CLI is told to retry at once: its retry adds no backoff. */
const retryNow: Failure = { status: 429, headers: { 'retry-after': '0' } };

/**
 * A first run with a subagent: the model's first call starts it (`call`), the subagent reads the README with `tool`
 * and answers (its own conversation: distinct usage), then the main agent's answer fails once (`retry`) before it is
 * served.
 */
function subagentRun(call: ToolUse, tool: string, input: object, retry: Failure): UsageStep {
  const subagent: Conversation = {
    name: 'subagent',
    match: { user: 'usage-gt-sub' },
    turns: [
      { tools: [{ name: tool, input }], usage: u5 },
      { text: 'A demo project.', usage: u6 },
    ],
  };
  return {
    prompt: 'usage-gt-1: have a subagent read the README and say what it holds.',
    turns: [
      { text: 'Asking a subagent.', tools: [call], usage: u1 },
      { text: 'It is a demo project.', usage: u2, failures: [retry] },
    ],
    conversations: [subagent],
  };
}

/** Claude Code's subagent tool call (its name in 2.1.328: `Agent`), run in the foreground. */
const subagent = (readme: string) => ({
  description: 'Read the README',
  prompt: `usage-gt-sub: read ${readme} and report its first line.`,
  subagent_type: 'general-purpose',
  run_in_background: false,
});

/**
 * Per row: the first run (a tool call, then an answer; Claude Code's call starts a subagent), a resume, and a fork
 * where the CLI has one.
 */
const plans: Partial<Record<RowId, (readme: string) => UsageStep[]>> = {
  'claude-code': (readme) => [
    {
      prompt: 'usage-gt-1: have a subagent read the README and say what it holds.',
      args: () => ['--include-partial-messages'],
      turns: [
        { text: 'Asking a subagent.', tools: [{ name: 'Agent', input: subagent(readme) }], usage: u1 },
        // Retried after about 0.5 s (`api_retry`'s `retry_delay_ms`: 542, as after a 500; `retry-after: 0` aside).
        { text: 'It is a demo project.', usage: u2, failures: [retryNow] },
      ],
      // The subagent's own calls: a read, then its answer.
      conversations: [
        {
          name: 'subagent',
          match: { user: 'usage-gt-sub' },
          turns: [
            { tools: [{ name: 'Read', input: { file_path: readme } }], usage: u5 },
            { text: 'A demo project.', usage: u6 },
          ],
        },
      ],
    },
    {
      prompt: 'usage-gt-2: and once more?',
      reply: { text: 'Still a demo.', usage: u3 },
      args: (id) => ['--include-partial-messages', '--resume', id],
    },
    {
      prompt: 'usage-gt-3: a fork of it.',
      reply: { text: 'Forked.', usage: u4 },
      args: (id) => ['--include-partial-messages', '--resume', id, '--fork-session'],
    },
  ],
  codex: (readme) => [
    {
      prompt: 'usage-gt-1: read the README and say what it holds.',
      turns: [
        { text: 'Reading it.', tools: [{ name: 'shell', input: { command: ['cat', readme] } }], usage: u1 },
        { text: 'It is a demo project.', usage: { ...u2, reasoning: 20 } },
      ],
    },
    { prompt: 'usage-gt-2: and once more?', reply: { text: 'Still a demo.', usage: u3 }, args: (id) => ['resume', id] },
    { prompt: 'usage-gt-3: a fork of it.', reply: { text: 'Forked.', usage: u4 }, args: (id) => ['fork', id] },
  ],
  gemini: (readme) => withRuns(readme, 'read_file', { file_path: readme }, () => ['--resume', 'latest']),
  qwen: (readme) =>
    withRuns(
      readme,
      'read_file',
      { absolute_path: readme },
      (id) => ['--resume', id],
      (id) => ['--resume', id, '--fork-session'],
    ),
  pi: (readme) =>
    withRuns(
      readme,
      'read',
      { path: readme },
      (id) => ['--session', id],
      (id) => ['--fork', id],
    ),
  opencode: openCodeRuns,
  kilo: openCodeRuns,
  // Copilot has no fork. Its `task` call starts an explore agent, whose calls are in the session's file.
  copilot: (readme) => {
    const task = {
      name: 'reader',
      agent_type: 'explore',
      description: 'Read the README',
      prompt: subagentPrompt(readme),
    };
    const first = subagentRun({ name: 'task', input: task }, 'view', { path: readme }, 500);
    return withRuns(readme, 'view', { path: readme }, (id) => ['--resume', id], undefined, first);
  },
  // One run: Cline 3.0.65's `--id` (resume) always opens its interactive UI, which `--json` refuses
  // (docs/harnesses/cline.md). Its `spawn_agent` starts a subagent in the run's own process (no hub).
  cline: (readme) => [
    subagentRun(
      {
        name: 'spawn_agent',
        input: { systemPrompt: 'You are a careful helper who reads files.', task: subagentPrompt(readme) },
      },
      'read_files',
      { files: [{ path: readme }] },
      retryNow,
    ),
  ],
};

/**
 * Rows whose stdout is accounted too, run by run: it gives what the model served in that run, or nothing (Copilot
 * 1.0.102 prints no tokens in its JSON output: docs/harnesses/copilot.md).
 */
const fromStdout: Partial<Record<RowId, 'served' | 'nothing'>> = {
  opencode: 'served',
  kilo: 'served',
  copilot: 'nothing',
  cline: 'served',
};
const nothing: ServedTotals = { calls: 0, input: 0, output: 0 };

/** The first run of the common plan: a read, then the answer. */
function firstRun(tool: string, input: object): UsageStep {
  return {
    prompt: 'usage-gt-1: read the README and say what it holds.',
    turns: [
      { text: 'Reading it.', tools: [{ name: tool, input }], usage: u1 },
      { text: 'It is a demo project.', usage: u2 },
    ],
  };
}

/** The common plan: a read, then the answer (or `first`); a resume; a fork where the CLI has one. */
function withRuns(
  readme: string,
  tool: string,
  input: object,
  resume: (id: string) => string[],
  fork?: (id: string) => string[],
  first: UsageStep = firstRun(tool, input),
): UsageStep[] {
  void readme;
  return [
    first,
    { prompt: 'usage-gt-2: and once more?', reply: { text: 'Still a demo.', usage: u3 }, args: resume },
    ...(fork ? [{ prompt: 'usage-gt-3: a fork of it.', reply: { text: 'Forked.', usage: u4 }, args: fork }] : []),
  ];
}

for (const row of liveHarnesses) {
  const cli = rows[row.id];
  const plan = plans[row.id];
  if (!cli || !plan) continue;
  describe(`usage ground truth: ${row.id} (${cli.cli.pkg}@${cli.version})`, () => {
    test('a run, its resume and its fork: session files and stdout account what the model served', async () => {
      await runSteps(
        row,
        cli,
        (place) => plan(place.path('README.md')),
        async ({ runs, requests, place }) => {
          const besides = (row.side ?? []).map((side) => side.name);
          const served = servedTotals(requests, besides);
          const log = requests.map((r) => `${r.outcome} ${r.conversation}#${r.turn} ${JSON.stringify(r.usage)}`);
          const context = `requests:\n${log.join('\n')}`;
          expect(
            requests.filter((r) => r.outcome === 'unexpected'),
            context,
          ).toEqual([]);
          for (const { result } of runs)
            expect(result.exitCode, `${context}\n${result.command.join(' ')}\n${result.stderrTail}`).toBe(0);
          const stdout = fromStdout[row.id];
          if (stdout !== undefined) {
            const accounts = await stdoutAccounts(runs, row, (requests) => onStdout(row.id, requests));
            expect(
              accounts.map((account) => account.stdout),
              context,
            ).toEqual(accounts.map((account) => (stdout === 'served' ? account.served : nothing)));
          }
          // Cline has no session reader: its stdout is all there is.
          if (!sessionFormats.has(row.harness)) return saveCapture(row.id, place.home, runs);
          const sessions = await accountUsage({ homes: [place.home], harness: row.harness });
          expect(asServed(sessions.total), context).toEqual(served);
          expect(sessions.warnings).toEqual([]);
          saveCapture(row.id, place.home, runs);
          await expectStdout(row.id, row.harness, runs, context);
        },
      );
    });
  });
}
