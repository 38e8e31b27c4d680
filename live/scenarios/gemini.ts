/** Gemini CLI 0.61.0 (gemini.md): its own file tools, and run_shell_command. */
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

export const gemini: Scenario[] = [
  textScenario(
    { input: 5200, output: 49, cached: 4096, reasoning: 37 },
    {
      // Thought parts never reach the stream; the text deltas are one agent message; no per-turn usage.
      events: () => [{ type: 'agent', message: greeting.text }],
      // From result.stats: input without the cached part, output without the thoughts, reasoning =
      // total - input - output (37 thoughts tokens), no cache_write.
      tokens: { input: 1104, output: 12, cache_read: 4096, reasoning: 37 },
    },
  ),
  // Relative paths resolve against the cwd; start_line..end_line as given; glob and grep_search are
  // searches (with dir_path as path); a file_not_found result is an unsuccessful read.
  fileToolsScenario(
    {
      read: (p, path, lines) => ({
        name: 'read_file',
        input: lines ? { file_path: p.path(path), start_line: lines[0], end_line: lines[1] } : { file_path: path },
      }),
      list: (_p, path) => ({ name: 'list_directory', input: { dir_path: path } }),
      glob: (pattern) => ({ name: 'glob', input: { pattern } }),
      grep: (_p, pattern, dir) => ({ name: 'grep_search', input: { pattern, dir_path: dir } }),
      write: (_p, path, content) => ({ name: 'write_file', input: { file_path: path, content } }),
    },
    { events: fileToolEvents },
  ),
  shellScenario((command) => ({ name: 'run_shell_command', input: { command } }), 'ls does-not-exist', {
    // The CLI reports status success for every command here (the failing ls too) and no exit code:
    // success is unset; commands run in the cwd.
    events: (x) =>
      shellEvents(x, {
        failing: 'ls does-not-exist',
        failed: { type: 'list', path: x.path('does-not-exist') },
        written: { working_directory: x.workspace },
        success: false,
      }),
  }),
  // An HTTP 400 is not retried: the result's error (its type as code), and the CLI exits with the
  // status, mod 256.
  apiErrorScenario(400, 144, {
    events: (x) => [
      {
        type: 'error',
        message: '[API Error: {"error":{"code":400,"message":"scripted HTTP 400","status":"INVALID_ARGUMENT"}}]',
        code: 'unknown',
      },
      x.exited(144),
    ],
  }),
];
