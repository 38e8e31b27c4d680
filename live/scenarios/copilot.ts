/** Copilot CLI 1.0.102 (copilot.md), `-p --output-format json`; `view` of a directory lists it. */
import type { Scenario } from '../scenario.js';
import { apiErrorScenario, greeting, listingText, shellDoneText, shellScenario, textScenario } from './common.js';

export const copilot: Scenario[] = [
  textScenario(undefined, {
    // Copilot writes the reasoning after the message of the same model call; no token counts in this mode.
    events: () => [
      { type: 'agent', message: greeting.text },
      { type: 'reasoning', message: greeting.reasoning },
    ],
  }),
  {
    name: 'file tools',
    prompt: 'Read, list, search and write.',
    turns: (p) => [
      { text: 'Reading the README first.', tools: [{ name: 'view', input: { path: p.path('README.md') } }] },
      { tools: [{ name: 'view', input: { path: p.path('notes.txt'), view_range: [2, 4] } }] },
      { tools: [{ name: 'view', input: { path: p.path('src') } }] },
      { tools: [{ name: 'glob', input: { pattern: '**/*.ts' } }] },
      { tools: [{ name: 'grep', input: { pattern: 'greet', paths: p.path('src'), output_mode: 'content', '-n': true } }] },
      { tools: [{ name: 'create', input: { path: p.path('src/c.ts'), file_text: 'export const answer = 42;\n' } }] },
      { tools: [{ name: 'view', input: { path: p.path('missing.txt') } }] },
      { text: 'Done.' },
    ],
    exitCode: 0,
    // view with view_range is a ranged read, of a directory a listing; glob and grep are searches
    // (grep's one path is its path); create is a write; a failed view is an unsuccessful read.
    events: (x) => [
      { type: 'agent', message: 'Reading the README first.' },
      { type: 'read', path: x.path('README.md'), is_success: true },
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      { type: 'list', path: x.path('src'), is_success: true },
      { type: 'search', query: '**/*.ts', is_success: true },
      { type: 'search', query: 'greet', path: x.path('src'), is_success: true },
      { type: 'write', path: x.path('src/c.ts'), is_success: true },
      { type: 'read', path: x.path('missing.txt'), is_success: false },
      { type: 'agent', message: 'Done.' },
    ],
  },
  shellScenario((command) => ({ name: 'bash', input: { command, description: 'Run a command' } }), 'ls does-not-exist', {
    // A command gets the run's cwd and shellExecution.exitCode; the failing ls (exit 2, reported
    // success: true by Copilot) is an unsuccessful listing.
    events: (x) => [
      { type: 'read', path: x.path('README.md'), is_success: true },
      { type: 'read', path: x.path('notes.txt'), start_line: 2, end_line: 4, is_success: true },
      { type: 'search', query: 'hello', path: x.workspace, is_success: true },
      { type: 'agent', message: listingText },
      { type: 'list', path: x.path('src'), is_success: true },
      { type: 'list', path: x.path('does-not-exist'), is_success: false },
      { type: 'command', command: 'echo hi > out.txt', working_directory: x.workspace, exit_code: 0, is_success: true },
      { type: 'agent', message: shellDoneText('ls does-not-exist') },
    ],
  }),
  // A 401 is retried twice (session.info model_retry: warnings), then session.error; the result's
  // exit code 1 gives no second error since one was reported.
  apiErrorScenario(401, 1, {
    events: (x) => [
      { type: 'warning', message: 'Request failed due to a transient API error. Retrying...', code: 'model_retry' },
      { type: 'warning', message: 'Request failed due to a transient API error. Retrying...', code: 'model_retry' },
      {
        type: 'error',
        message: `Authentication failed with provider at ${x.url}/v1 (HTTP 401).\n  Check your COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.`,
        code: 'authentication',
      },
      x.exited(1),
    ],
  }),
];
