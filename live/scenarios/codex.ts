/**
 * Codex 0.169.0 (codex.md). Its only file tool is apply_patch (a freeform tool); reads,
 * searches and listings are exec_command shell commands, which the library reclassifies.
 */
import type { EventBody } from '../../lib/kernel/events.js';
import type { Expected, Scenario } from '../scenario.js';
import { apiErrorScenario, textScenario } from './common.js';

const exec = (cmd: string, workdir?: string) => ({ name: 'exec_command', input: { cmd, workdir } });

export const codex: Scenario[] = [
  textScenario(
    { input: 9000, output: 60, cached: 8200, reasoning: 40 },
    {
      // The reasoning summary is reasoning; one usage event per turn: input without the cached part,
      // output without the reasoning part.
      events: () => [
        { type: 'reasoning', message: 'The user wants a greeting.' },
        { type: 'agent', message: 'Hello from the scripted model.' },
        { type: 'usage', tokens: { input: 800, output: 20, cache_read: 8200, cache_write: 0, reasoning: 40 } },
      ],
    },
  ),
  {
    name: 'shell reads',
    prompt: 'Look around with the shell.',
    turns: () => [
      { text: 'Reading first.', tools: [exec('cat README.md')] },
      { tools: [exec("sed -n '2,4p' notes.txt")] },
      { tools: [exec("nl -ba src/a.ts | sed -n '1,2p'")] },
      { tools: [exec('grep -rn hello .')] },
      { tools: [exec('ls -la src')] },
      { text: 'Looked around.' },
    ],
    exitCode: 0,
    // The turn's usage is the sum of its six model requests (1200 in, 40 out each).
    events: (x) => [
      { type: 'agent', message: 'Reading first.' },
      { type: 'read', path: x.path('README.md'), is_success: true },
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      { type: 'read', path: x.path('src/a.ts'), start_line: 1, end_line: 2, is_success: true },
      { type: 'search', query: 'hello', path: x.workspace, is_success: true },
      { type: 'list', path: x.path('src'), is_success: true },
      { type: 'agent', message: 'Looked around.' },
      { type: 'usage', tokens: { input: 7200, output: 240, cache_read: 0, cache_write: 0, reasoning: 0 } },
    ],
  },
  {
    name: 'write and failing commands',
    prompt: 'Add a file, then run two commands that fail.',
    turns: () => [
      {
        tools: [
          {
            name: 'apply_patch',
            custom: true,
            input: '*** Begin Patch\n*** Add File: src/c.ts\n+export const answer = 42;\n*** End Patch\n',
          },
        ],
      },
      { tools: [exec('echo hi > out.txt')] },
      { tools: [exec('cat missing.txt')] },
      { tools: [exec('false')] },
      { text: 'Added src/c.ts; both commands failed.' },
    ],
    exitCode: 0,
    // apply_patch is a file_change (write); a cat that fails is an unsuccessful read. Each command's directory is the
    // rollout's (joined to stdout's item: codex.md "Runs: stdout and the rollout").
    events: (x) => [
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      { type: 'command', command: 'echo hi > out.txt', working_directory: x.workspace, exit_code: 0, is_success: true },
      { type: 'read', path: x.path('missing.txt'), is_success: false },
      { type: 'command', command: 'false', working_directory: x.workspace, exit_code: 1, is_success: false },
      { type: 'agent', message: 'Added src/c.ts; both commands failed.' },
      { type: 'usage', tokens: { input: 6000, output: 200, cache_read: 0, cache_write: 0, reasoning: 0 } },
    ],
  },
  apiErrorScenario(401, 1, {
    // Codex's `error` notice is a warning; `turn.failed` is the error.
    events: (x) => [
      { type: 'warning', message: `unexpected status 401 Unauthorized: scripted HTTP 401, url: ${x.url}/v1/responses` },
      { type: 'error', message: `unexpected status 401 Unauthorized: scripted HTTP 401, url: ${x.url}/v1/responses` },
      x.exited(1),
    ],
  }),
  {
    name: 'workdir',
    prompt: 'Run commands in a subfolder.',
    permissions: 'bypass',
    turns: (p) => [
      { text: 'Working in src.', tools: [exec('cat a.ts', 'src')] },
      { tools: [exec('echo hi > out.txt', p.path('src'))] },
      { tools: [exec('ls', 'src')] },
      { text: 'Ran in src.' },
    ],
    exitCode: 0,
    leaves: { 'src/out.txt': 'hi\n', 'out.txt': null },
    // stdout never says where a command ran; the rollout does (each command's CommandExecution.cwd), joined to
    // stdout's item under spawnHarness: its working_directory, its paths resolved there, as read from the session.
    events: (x) => workdirEvents(x),
    session: (x) => workdirEvents(x),
  },
];

function workdirEvents(x: Expected): EventBody[] {
  return [
    { type: 'agent', message: 'Working in src.' },
    { type: 'read', path: x.path('src/a.ts'), is_success: true },
    {
      type: 'command',
      command: 'echo hi > out.txt',
      exit_code: 0,
      working_directory: x.path('src'),
      is_success: true,
    },
    { type: 'list', is_success: true },
    { type: 'agent', message: 'Ran in src.' },
    { type: 'usage', tokens: { input: 4800, output: 160, cache_read: 0, cache_write: 0, reasoning: 0 } },
  ];
}
