/**
 * Copilot CLI's tool table: docs/harnesses/copilot.md "Tools", one row per built-in tool. A tool not listed
 * (`sql`, `session_store_sql`, `fetch_copilot_cli_documentation`, `web_fetch`, `lsp`, MCP
 * tools `server/tool`, ...) becomes `unknown` carrying both records of the call.
 *
 * The correlator hands every row a call whose `input` is the start's `arguments`, whose
 * `is_success` is the completion's `success`, whose `exit_code` is its
 * `shellExecution.exitCode` and whose `result` is a `CopilotResult`.
 */
import type { ToolCall } from '../../kernel/tool-call.js';
import { resolvePath } from '../../kernel/paths.js';
import {
  list,
  read,
  rule,
  shell,
  silent,
  skillEvent,
  stringField,
  successOf,
  toolTable,
  write,
} from '../../kernel/tool-rules.js';

/** What a row needs beyond the call's arguments, gathered by the correlator. */
export interface CopilotResult {
  /** The completion's `toolTelemetry.properties.viewType` (`file`, `directory`). */
  viewType?: string;
  /** A `subagent.started` named this call (a `task`). */
  subagent: boolean;
  /** The skill file the stream located for the call's `skill` argument. */
  skillPath?: string;
}

function resultOf(call: ToolCall): Partial<CopilotResult> {
  return (call.result ?? {}) as Partial<CopilotResult>;
}

const viewFile = read({ path: 'path', viewRange: 'view_range' });
const viewDirectory = list('path');

/** Copilot has no listing tool: `view` of a directory lists it, which only the completion's telemetry tells. */
const view = rule(
  "read, `path` = `path`, lines from `view_range`; list, `path` = `path`, when the completion's " +
    '`toolTelemetry.properties.viewType` is `directory`',
  (call) => (resultOf(call).viewType === 'directory' ? viewDirectory(call) : viewFile(call)),
);

/** `paths` is a string or an array; only one path can be the search's scope. */
function scope(paths: unknown): string | undefined {
  if (typeof paths === 'string' && paths !== '') return paths;
  if (Array.isArray(paths) && paths.length === 1 && typeof paths[0] === 'string' && paths[0] !== '') return paths[0];
  return undefined;
}

const search = rule(
  'search, `query` = `pattern`; `path` = `path` when it is a string (`glob` takes `path`), else `paths` when it is ' +
    'a string or an array of exactly one string',
  (call) => {
    const query = stringField(call.input, 'pattern');
    if (query === undefined) return null;
    const path = stringField(call.input, 'path') ?? scope((call.input as Record<string, unknown>).paths);
    return [
      {
        type: 'search',
        query,
        path: path === undefined ? undefined : resolvePath(path, call.cwd, call.home),
        is_success: successOf(call),
      },
    ];
  },
);

/** The orchestration events come from `subagent.*`; a `task` no subagent answered is left whole. */
const task = rule(
  'consumed when a `subagent.started` named the call (orchestration comes from `subagent.*`), otherwise unknown',
  (call) => (resultOf(call).subagent ? [] : null),
);

const skill = rule(
  'skill, `skill_name` = `skill`, `path` = the file `session.skills_loaded` or `skill.invoked` gave for that name, ' +
    'else `skills/<name>/SKILL.md` under the working directory',
  (call) => {
    const name = stringField(call.input, 'skill');
    if (name === undefined) return null;
    return [skillEvent(call, name, resultOf(call).skillPath ?? `skills/${name}/SKILL.md`)];
  },
);

export const tools = toolTable({
  view,
  create: write('path'),
  edit: write('path'),
  glob: search,
  grep: search,
  bash: shell('command'),
  // They manage a shell already reported by its `bash` call.
  read_bash: silent,
  write_bash: silent,
  stop_bash: silent,
  list_bash: silent,
  task,
  // Background-agent management, reported by `subagent.*`.
  read_agent: silent,
  write_agent: silent,
  list_agents: silent,
  skill,
});
