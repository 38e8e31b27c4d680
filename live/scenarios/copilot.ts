/** Copilot CLI 1.0.102 (copilot.md), `-p --output-format json`; `view` of a directory lists it. */
import type { Scenario } from '../scenario.js';
import {
  apiErrorScenario,
  fileToolEvents,
  fileToolsScenario,
  greeting,
  shellEvents,
  shellScenario,
  textScenario,
} from './common.js';

export const copilot: Scenario[] = [
  textScenario(undefined, {
    // Copilot writes the reasoning after the message of the same model call; no token counts in this mode.
    events: () => [
      { type: 'agent', message: greeting.text },
      { type: 'reasoning', message: greeting.reasoning },
    ],
  }),
  // view with view_range is a ranged read, of a directory a listing; glob and grep are searches
  // (grep's one path is its path); create is a write; a failed view is an unsuccessful read.
  fileToolsScenario(
    {
      read: (p, path, lines) => ({
        name: 'view',
        input: lines ? { path: p.path(path), view_range: lines } : { path: p.path(path) },
      }),
      list: (p, path) => ({ name: 'view', input: { path: p.path(path) } }),
      glob: (pattern) => ({ name: 'glob', input: { pattern } }),
      grep: (p, pattern, dir) => ({
        name: 'grep',
        input: { pattern, paths: p.path(dir), output_mode: 'content', '-n': true },
      }),
      write: (p, path, content) => ({ name: 'create', input: { path: p.path(path), file_text: content } }),
    },
    { events: fileToolEvents },
  ),
  shellScenario(
    (command) => ({ name: 'bash', input: { command, description: 'Run a command' } }),
    'ls does-not-exist',
    {
      // A command gets the run's cwd and shellExecution.exitCode; the failing ls (exit 2, reported
      // success: true by Copilot) is an unsuccessful listing.
      events: (x) =>
        shellEvents(x, {
          failing: 'ls does-not-exist',
          failed: { type: 'list', path: x.path('does-not-exist'), is_success: false },
          written: { working_directory: x.workspace, exit_code: 0 },
        }),
    },
  ),
  // A 401 is retried twice (session.info model_retry: warnings), then session.error; the result's
  // exit code 1 gives no second error since one was reported.
  apiErrorScenario(401, 1, {
    events: (x) => [
      { type: 'warning', message: 'Request failed due to a transient API error. Retrying...', code: 'model_retry' },
      { type: 'warning', message: 'Request failed due to a transient API error. Retrying...', code: 'model_retry' },
      {
        type: 'error',
        message:
          `Authentication failed with provider at ${x.url}/v1 (HTTP 401).\n  Check your ` +
          `COPILOT_PROVIDER_API_KEY, COPILOT_PROVIDER_API_KEY_COMMAND, or COPILOT_PROVIDER_BEARER_TOKEN.`,
        code: 'authentication',
      },
      x.exited(1),
    ],
  }),
];
