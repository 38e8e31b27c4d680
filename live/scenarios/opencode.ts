/**
 * OpenCode 1.18.33 (opencode.md). Tools offered in `run` mode: bash, edit, glob, grep, read,
 * skill, task, todowrite, write (no list tool: listings are shell commands). grep and glob
 * need rg on PATH.
 */
import type { EventBody } from '../../lib/kernel/events.js';
import type { Turn } from '../../lib/testing/index.js';
import type { Scenario } from '../scenario.js';
import type { Place } from '../workspace.js';
import { apiErrorScenario, greeting, shellEvents, shellScenario, textScenario } from './common.js';

/** The usage event of a step with the server's default usage (1200 in, 40 out). */
const step: EventBody = {
  type: 'usage',
  tokens: { input: 1200, output: 40, cache_read: 0, cache_write: 0, reasoning: 0 },
  cost: 0,
};

function fileToolTurns(p: Place): Turn[] {
  return [
    { text: 'Reading the README first.', tools: [{ name: 'read', input: { filePath: p.path('README.md') } }] },
    { tools: [{ name: 'read', input: { filePath: p.path('notes.txt'), offset: 2, limit: 2 } }] },
    { tools: [{ name: 'grep', input: { pattern: 'greet', include: '*.ts' } }] },
    { tools: [{ name: 'glob', input: { pattern: '**/*.ts' } }] },
    { tools: [{ name: 'write', input: { filePath: p.path('src/c.ts'), content: 'export const answer = 42;\n' } }] },
    { tools: [{ name: 'edit', input: { filePath: p.path('src/c.ts'), oldString: '42', newString: '43' } }] },
    { tools: [{ name: 'read', input: { filePath: p.path('missing.txt') } }] },
    { text: 'Done.' },
  ];
}

const bash = (command: string) => ({ name: 'bash', input: { command, description: 'Run a command' } });

export const opencode: Scenario[] = [
  textScenario(
    { input: 2400, output: 12, cached: 1800, reasoning: 4 },
    {
      args: ['--thinking'],
      // Reasoning parts are printed with --thinking; each step's usage: input without the cached part,
      // output without the reasoning part; cost 0 (no price configured).
      events: () => [
        { type: 'reasoning', message: greeting.reasoning },
        { type: 'agent', message: greeting.text },
        { type: 'usage', tokens: { input: 600, output: 8, cache_read: 1800, cache_write: 0, reasoning: 4 }, cost: 0 },
      ],
    },
  ),
  {
    name: 'file tools',
    prompt: 'Read, search and write.',
    turns: fileToolTurns,
    exitCode: 0,
    // read with offset/limit gives lines offset..offset+limit-1; grep and glob are searches (the
    // glob's pattern is its query); write and edit are writes; one usage event per step.
    events: (x) => [
      { type: 'agent', message: 'Reading the README first.' },
      { type: 'read', path: x.path('README.md'), is_success: true },
      step,
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 3, is_success: true },
      step,
      { type: 'search', query: 'greet', is_success: true },
      step,
      { type: 'search', query: '**/*.ts', is_success: true },
      step,
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      step,
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      step,
      { type: 'read', path: x.path('missing.txt'), is_success: false },
      step,
      { type: 'agent', message: 'Done.' },
      step,
    ],
  },
  shellScenario(bash, 'false', {
    // bash reclassified like a Codex command; the exit code comes from state.metadata.exit; a bash without `workdir`
    // ran in the run's directory (revision 2026-12-05).
    events: (x) =>
      shellEvents(x, {
        failing: 'false',
        failed: { type: 'command', command: 'false', working_directory: x.workspace, exit_code: 1, is_success: false },
        written: { working_directory: x.workspace, exit_code: 0 },
        step,
      }),
  }),
  apiErrorScenario(401, 1, {
    // A 401 is not retried: one error record (message from error.data, code its name), exit 1.
    events: (x) => [{ type: 'error', message: 'scripted HTTP 401', code: 'APIError' }, x.exited(1)],
  }),
];
