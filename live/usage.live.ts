/**
 * Ground truth for the usage account (issue 42): the scripted model serves known usage per response and logs it;
 * the CLI runs (its first run starts a subagent where the CLI has one and has one answer fail before it is served),
 * resumes its session and forks it; `accountUsage` over the session files the CLI wrote must give exactly the
 * model's totals: every call counted once, however many files restate it. Tokens are compared as the model counts
 * them (input with its cached part, output with its reasoning part), which every harness's mapping of the token
 * classes adds up to. OpenCode's and Kilo's title request is a model call neither their store nor their stdout
 * records: it is left out. Stdout is accounted run by run: for the rows `fromStdout` names here (Cline's is all there
 * is: it has no session reader), and for Claude Code (with `--include-partial-messages`), Codex, Gemini CLI, Qwen
 * Code and pi by live/usage-stdout.ts, which names exactly what their stdout cannot carry (Claude Code's, Qwen
 * Code's, OpenCode's and Kilo's subagents' calls, Gemini CLI's calls).
 */
import { describe, expect, inject, test } from 'vitest';
import { accountUsage, sessionFormats } from '../lib/index.js';
import type { Failure, ToolUse, Turn, Usage } from '../lib/testing/index.js';
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
const u7: Usage = { input: 3500, output: 20, cached: 2900 };

/** A Codex multi_agent_v1 tool call, its arguments computed from the request. */
const codexAgent = (name: string, inputFrom: (request: Record<string, unknown>) => unknown): ToolUse => ({
  name,
  namespace: 'multi_agent_v1',
  input: {},
  inputFrom,
});

/** The sub-agent Codex's spawn_agent started: its id, in the call's output in the request's history. */
function spawned(request: Record<string, unknown>): string {
  const items: unknown[] = Array.isArray(request.input) ? request.input : [];
  for (const item of items) {
    const output = (item as { type?: unknown; output?: unknown }).output;
    const id = typeof output === 'string' ? /"agent_id":"([^"]+)"/.exec(output)?.[1] : undefined;
    if (id !== undefined) return id;
  }
  return '';
}

/**
 * OpenCode and its fork Kilo: the same tools and command line. The first run's `task` call starts the explore
 * subagent (a child session); the answer after it fails once, which they retry at once (`retry-after: 0`).
 */
function openCodeRuns(readme: string): UsageStep[] {
  const task = { description: 'Read the README', prompt: `${SUB}: read ${readme}.`, subagent_type: 'explore' };
  return delegating(
    retrying(
      withRuns(
        readme,
        'read',
        { filePath: readme },
        (id) => ['--session', id],
        (id) => ['--session', id, '--fork'],
      ),
      sdkRetry,
    ),
    { name: 'task', input: task },
    { name: 'read', input: { filePath: readme } },
  );
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
        { text: 'It is a demo project.', usage: u2, failures: sdkRetry },
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
  // A sub-agent (multi_agent_v1's spawn_agent, then wait_agent for it) reads the README; the answer is retried once
  // at the request level (Codex's backoff: 200 ms; the lab's config allows no retry, this run's `-c` one).
  codex: (readme) => [
    {
      prompt: 'usage-gt-1: have a sub-agent read the README and say what it holds.',
      args: () => ['-c', 'model_providers.lab.request_max_retries=1'],
      turns: [
        {
          text: 'Asking a sub-agent.',
          tools: [codexAgent('spawn_agent', () => ({ message: `${SUB}: read ${readme}.` }))],
          usage: u1,
        },
        {
          tools: [codexAgent('wait_agent', (request) => ({ targets: [spawned(request)], timeout_ms: 60_000 }))],
          usage: u7,
        },
        { text: 'It is a demo project.', usage: { ...u2, reasoning: 20 }, failures: [500] },
      ],
      conversations: [
        {
          name: 'subagent',
          match: { user: SUB },
          turns: [
            { tools: [{ name: 'shell', input: { command: ['cat', readme] } }], usage: u5 },
            { text: 'A demo project.', usage: u6 },
          ],
        },
      ],
    },
    { prompt: 'usage-gt-2: and once more?', reply: { text: 'Still a demo.', usage: u3 }, args: (id) => ['resume', id] },
    { prompt: 'usage-gt-3: a fork of it.', reply: { text: 'Forked.', usage: u4 }, args: (id) => ['fork', id] },
  ],
  // The generalist subagent reads the README and ends with complete_task; the parent's answer is retried once.
  gemini: (readme) =>
    delegating(
      retrying(
        withRuns(readme, 'read_file', { file_path: readme }, () => ['--resume', 'latest']),
        geminiRetry,
      ),
      { name: 'invoke_agent', input: { agent_name: 'generalist', prompt: `${SUB}: read ${readme}.` } },
      { name: 'read_file', input: { file_path: readme } },
      { tools: [{ name: 'complete_task', input: { result: { response: 'A demo project.' } } }] },
    ),
  // A foreground `agent` subagent; the parent's answer is retried once (inside Qwen's OpenAI client).
  qwen: (readme) =>
    delegating(
      retrying(
        withRuns(
          readme,
          'read_file',
          { file_path: readme },
          (id) => ['--resume', id],
          (id) => ['--resume', id, '--fork-session'],
        ),
        sdkRetry,
      ),
      {
        name: 'agent',
        input: {
          description: 'Read the README',
          prompt: `${SUB}: read ${readme}.`,
          subagent_type: 'general-purpose',
          run_in_background: false,
        },
      },
      { name: 'read_file', input: { file_path: readme } },
    ),
  // pi has no subagents. Its answer fails three times: the OpenAI SDK inside pi retries twice (at once, as
  // `retry-after: 0` asks), then pi itself (`auto_retry_start`, after its 2 s), which records the failed attempt.
  pi: (readme) =>
    retrying(
      withRuns(
        readme,
        'read',
        { path: readme },
        (id) => ['--session', id],
        (id) => ['--fork', id],
      ),
      [sdkRetry[0]!, sdkRetry[0]!, sdkRetry[0]!],
    ),
  opencode: openCodeRuns,
  kilo: openCodeRuns,
  // Copilot has no fork. Its `task` call starts an explore agent, whose calls are in the session's file.
  copilot: (readme) =>
    delegating(
      retrying(
        withRuns(readme, 'view', { path: readme }, (id) => ['--resume', id]),
        copilotRetry,
      ),
      {
        name: 'task',
        input: {
          name: 'reader',
          agent_type: 'explore',
          description: 'Read the README',
          prompt: `${SUB}: read ${readme}.`,
        },
      },
      { name: 'view', input: { path: readme } },
    ),
  // One run: Cline 3.0.65's `--id` (resume) always opens its interactive UI, which `--json` refuses
  // (docs/harnesses/cline.md). Its `spawn_agent` starts a subagent in the run's own process (no hub).
  cline: (readme) =>
    delegating(
      retrying([firstRun('read_files', { files: [{ path: readme }] })], sdkRetry),
      {
        name: 'spawn_agent',
        input: { systemPrompt: 'You are a careful helper who reads files.', task: `${SUB}: read ${readme}.` },
      },
      { name: 'read_files', input: { files: [{ path: readme }] } },
    ),
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

/**
 * A failed attempt an OpenAI client retries at once (`retry-after: 0`): Qwen Code's, pi's, OpenCode's and Kilo's;
 * Cline retries it within 0.2 s (a 500 after 2.3 s), Claude Code after 542 ms, as a 500.
 */
const sdkRetry: readonly Failure[] = [{ status: 429, headers: { 'retry-after': '0' } }];
/** Copilot retries an HTTP 500 after about 1 s (0.8 to 1.2 s), sooner than a 429 with `retry-after: 0` (1.6 s). */
const copilotRetry: readonly Failure[] = [500];
/**
 * Gemini CLI retries an HTTP 500 after 5 s (± 30 %), its shortest backoff (a 429's is as long; a cut stream,
 * `TypeError: terminated`, is not retried: the run fails).
 */
const geminiRetry: readonly Failure[] = [500];

/** The marker of a subagent's prompt: its requests are the `subagent` conversation's. */
const SUB = 'usage-gt-sub';

/** The plan with its first run's answer failing first (`failures`): a retry in the first run. */
function retrying(steps: UsageStep[], failures: readonly Failure[]): UsageStep[] {
  const [first, ...rest] = steps;
  const turns = first!.turns!.map((turn, n, all) => (n === all.length - 1 ? { ...turn, failures } : turn));
  return [{ ...first!, turns }, ...rest];
}

/**
 * The plan with its first run's tool call starting a subagent (`call`, its prompt marked `SUB`) instead: the
 * subagent's own calls, `read` then `answer` (its text, or the tool that ends it), with usage of their own.
 */
function delegating(
  steps: UsageStep[],
  call: ToolUse,
  read: ToolUse,
  answer: Turn = { text: 'A demo project.' },
): UsageStep[] {
  const [first, ...rest] = steps;
  const [asking, ...after] = first!.turns!;
  const subagent = {
    name: 'subagent',
    match: { user: SUB },
    turns: [
      { tools: [read], usage: u5 },
      { ...answer, usage: u6 },
    ],
  };
  return [{ ...first!, turns: [{ ...asking!, tools: [call] }, ...after], conversations: [subagent] }, ...rest];
}

/** The common plan: a read, then the answer; a resume; a fork where the CLI has one. */
function withRuns(
  readme: string,
  tool: string,
  input: object,
  resume: (id: string) => string[],
  fork?: (id: string) => string[],
): UsageStep[] {
  void readme;
  return [
    firstRun(tool, input),
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
