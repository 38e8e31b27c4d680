/**
 * OpenCode's tool table: docs/harnesses/opencode.md "Tool mapping", one row per tool, keyed by the lower-cased
 * tool name (the harness's toolKey). A tool not listed here (`invalid`, webfetch, websearch,
 * question, MCP `<server>_<tool>`, plugins...) becomes `unknown` carrying the tool part.
 *
 * The correlator hands every row a call whose `result` is the part's `state.metadata`, whose
 * `output` is `state.output`, whose `exit_code` is `state.metadata.exit` (none for `null`) and whose
 * `working_directory` is `input.workdir`.
 */
import { isObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import {
  namedSkill,
  read,
  rule,
  search,
  shell,
  silent,
  skillEvent,
  stringField,
  successOf,
  toolTable,
  write,
} from '../../kernel/tool-rules.js';
import { patchedFiles } from './patch-markers.js';

/**
 * docs/contract.md "OpenCode": the shell tool's note, in the `<shell_metadata>` block it appends to the output, that
 * it killed the command at its timeout (the status stays `completed`, `exit` is null).
 */
const TIMED_OUT = /<shell_metadata>\n(?:[^\n]*\n)*?shell tool terminated command after exceeding timeout \d+ ms/;

const shellCommand = shell('command');

/** A command killed at its timeout failed, with no exit code; any other is the shared shell row's. */
const bash = rule(
  `${shellCommand.doc}; a result whose \`<shell_metadata>\` says the shell tool terminated the command after ` +
    'exceeding its timeout is a failure, no exit code',
  (call) => {
    const timedOut = typeof call.output === 'string' && TIMED_OUT.test(call.output);
    return shellCommand(timedOut ? call.with({ is_success: false, exit_code: undefined }) : call);
  },
);

/** One write per file the patch markers name, in order, each with the call's success. */
const applyPatch = rule(
  'one write per file the patch markers name (`*** Add/Update/Delete File`, `*** Move to`)',
  (call) => {
    const patch = stringField(call.input, 'patchText');
    const paths = patch === undefined ? [] : patchedFiles(patch);
    // A patch naming no file says nothing we can report as a write: keep the call whole.
    if (paths.length === 0) return null;
    const is_success = successOf(call);
    return paths.map((path) => ({ type: 'write' as const, path: resolvePath(path, call.cwd, call.home), is_success }));
  },
);

/**
 * A process started in the background: a plain command (no file-operation reading), or nothing without a command line.
 */
const backgroundProcess = rule(
  'command when the input carries a `command` (not reclassified), otherwise consumed',
  (call) => {
    const command = stringField(call.input, 'command');
    if (command === undefined) return [];
    return [
      {
        type: 'command',
        command,
        working_directory: call.working_directory,
        exit_code: call.exit_code,
        is_success: successOf(call),
      },
    ];
  },
);

/**
 * A subagent, identified by the child session id in `state.metadata.sessionId` (docs/contract.md
 * "Rules shared by every harness"); without it the call is `unknown`. A backgrounded task
 * has only started when its call returns.
 */
const subagent = rule(
  'orchestration, `subagent_id` = `state.metadata.sessionId`, `subagent_name` = `subagent_type`; without the ' +
    'session id, unknown',
  (call) => {
    const subagent_id = stringField(call.result, 'sessionId');
    if (subagent_id === undefined) return null;
    const is_success = successOf(call);
    const background = isObject(call.result) && call.result.background === true;
    const action = is_success === false ? 'subagent_failed' : background ? 'subagent_started' : 'subagent_completed';
    return [
      {
        type: 'orchestration',
        action,
        subagent_id,
        subagent_name: stringField(call.input, 'subagent_type'),
        is_success,
      },
    ];
  },
);

const skillByName = namedSkill('name');

/** The skill file in the directory OpenCode loaded it from, else docs/contract.md's default location. */
const skill = rule(
  'skill, `skill_name` = `name`, `path` = `<state.metadata.dir>/SKILL.md`, else `skills/<name>/SKILL.md`',
  (call) => {
    const dir = stringField(call.result, 'dir');
    if (dir === undefined) return skillByName(call);
    return [skillEvent(call, stringField(call.input, 'name'), `${dir}/SKILL.md`)];
  },
);

const lspQuery = search({ query: 'query', path: 'filePath' });
const lspSymbol = search({ query: 'symbol', path: 'filePath' });

/** A symbol lookup is a search; a position-only operation (hover, definition...) is not one. */
const lsp = rule(
  'search when it carries a `query` or `symbol` (`path` = `filePath`), otherwise unknown',
  (call) => lspQuery(call) ?? lspSymbol(call),
);

/** The rows by tool name, for a dialect's table (Kilo) to take from. */
export const rows = {
  read: read({ path: 'filePath', offset: 'offset', limit: 'limit' }),
  write: write('filePath'),
  edit: write('filePath'),
  apply_patch: applyPatch,
  grep: search({ query: 'pattern', path: 'path' }),
  glob: search({ query: 'pattern', path: 'path' }),
  bash,
  background_process: backgroundProcess,
  task: subagent,
  agent_manager: subagent,
  skill,
  lsp,
  // The agent's internal task list.
  todo: silent,
  todowrite: silent,
  todoread: silent,
};

export const tools = toolTable(rows);
