/** Qwen Code 0.24.4 (qwen.md), headless with --output-format stream-json; list_directory enabled in its settings. */
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

export const qwen: Scenario[] = [
  textScenario(
    { input: 5100, output: 42, cached: 4096, reasoning: 18 },
    {
      // One block type per record: the thinking record, then the text record; no usage events
      // (the result's session total goes to the metrics).
      events: () => [
        { type: 'reasoning', message: greeting.reasoning },
        { type: 'agent', message: greeting.text },
      ],
    },
  ),
  // read_file's offset is 0-based: lines 2-4 are offset 1, limit 3.
  fileToolsScenario(
    {
      read: (p, path, lines) => ({
        name: 'read_file',
        input: lines
          ? { file_path: p.path(path), offset: lines[0] - 1, limit: lines[1] - lines[0] + 1 }
          : { file_path: p.path(path) },
      }),
      list: (p, path) => ({ name: 'list_directory', input: { path: p.path(path) } }),
      glob: (pattern) => ({ name: 'glob', input: { pattern } }),
      grep: (p, pattern, dir) => ({ name: 'grep_search', input: { pattern, path: p.path(dir) } }),
      write: (p, path, content) => ({ name: 'write_file', input: { file_path: p.path(path), content } }),
    },
    { events: fileToolEvents },
  ),
  shellScenario(
    (command) => ({ name: 'run_shell_command', input: { command, description: 'Run a command' } }),
    'ls does-not-exist',
    {
      // The tool's summary block gives a command its exit code; the failing ls is an unsuccessful listing.
      events: (x) =>
        shellEvents(x, {
          failing: 'ls does-not-exist',
          failed: { type: 'list', path: x.path('does-not-exist'), is_success: false },
          written: { working_directory: x.workspace, exit_code: 0 },
        }),
    },
  ),
  // The [API Error: ...] text is an error, and the result repeating it adds none.
  apiErrorScenario(401, 1, {
    events: (x) => [{ type: 'error', message: '[API Error: 401 scripted HTTP 401]' }, x.exited(1)],
  }),
];
