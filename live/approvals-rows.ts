/**
 * What each row's transport supplies to the approvals cases (live/approvals-cases.ts): the call it asks about, in its
 * agent's own tool shapes, and what its answers can do. The ACP rows' facts come from the library's option table
 * (lib/harnesses/acp/approval-options.ts), which these runs measured; Claude Code's and Qwen Code's from their tables.
 */
import { optionsFor } from '../lib/harnesses/acp/approval-options.js';
import { answers as claudeAnswers } from '../lib/harnesses/claude-code/approvals.js';
import { answers as qwenAnswers } from '../lib/harnesses/qwen/approvals.js';
import type { PermissionRequest } from '../lib/index.js';
import type { AnswerTable } from '../lib/kernel/approvals.js';
import type { ToolUse } from '../lib/testing/protocols/turn.js';
import type { Place } from './workspace.js';

/** What a call that creates a file is, as the request and the events name it. */
export type CallOf = Pick<PermissionRequest, 'kind' | 'command' | 'path'>;

export interface AskRow {
  /** The tool call that creates `file` (a workspace path) and that the agent asks about. */
  create(place: Place, file: string): ToolUse;
  /** What the request and the call's event name for it. */
  call(place: Place, file: string): CallOf;
  /** Whether the agent's model reads a deny's message. */
  message: boolean;
  /** Whether a deny ends the agent's turn (the model is not asked again). */
  denyEndsTurn: boolean;
  /** Whether a deny ends the turn cancelled (the run exits 1). */
  denyCancels?: true;
  /** Whether the request offers `session` (the same call later runs unasked). */
  session: boolean;
  /** Whether a rewritten input runs. */
  rewrite: boolean;
  /** Over ACP: refusals of what ACP cannot carry happen before anything is sent (the unit tests' business). */
  acp: boolean;
  /** Claude Code's subagent tool, when the agent has subagents whose requests name them. */
  subagent?: (prompt: string) => ToolUse;
  /** Whether the stop case runs: where `stop` does more than a deny (the turn would go on). */
  stop: boolean;
  /**
   * `always`, where the request offers it: the settings file the agent keeps its rule in (relative to the place's
   * root: `project/...` or `home/...`), what the rule says of `touch kept.txt`, and any setting that makes the agent
   * offer it.
   */
  always?: { file: string; rule: string; prepare?(place: Place): void };
}

/**
 * A shell row: the call is `touch FILE`. `table`: a control-protocol agent's answers (Claude Code's, Qwen Code's),
 * whose rows say whether a message and a rewrite reach it; without one, an ACP agent (neither does).
 */
function shellRow(
  shell: (command: string) => ToolUse,
  facts: Omit<AskRow, 'create' | 'call' | 'acp' | 'message' | 'rewrite'> & { table?: AnswerTable },
): AskRow {
  const { table, ...rest } = facts;
  return {
    create: (_place, file) => shell(`touch ${file}`),
    call: (_place, file) => ({ kind: 'command', command: `touch ${file}` }),
    acp: table === undefined,
    message: table?.message !== undefined,
    rewrite: table?.input !== undefined,
    ...rest,
  };
}

/** An ACP row: its facts are its option table row's. */
function acpRow(agent: string, shell: (command: string) => ToolUse, always?: AskRow['always']): AskRow {
  const options = optionsFor(agent, undefined)!;
  return shellRow(shell, {
    denyEndsTurn: options.denyEndsTurn!,
    // The reject option, then session/cancel.
    stop: !options.denyEndsTurn,
    session: options.session.length > 0,
    ...(always === undefined ? {} : { always }),
  });
}

const bash = (command: string): ToolUse => ({ name: 'Bash', input: { command, description: 'Run it' } });
const qwenShell = (command: string): ToolUse => ({
  name: 'run_shell_command',
  input: { command, description: 'Run it', is_background: false },
});
/** OpenCode's and Kilo's shell tool; Copilot's has the same name and input. */
const opencodeShell = (command: string): ToolUse => ({ name: 'bash', input: { command, description: 'Run it' } });

export const askRows: Readonly<Record<string, AskRow>> = {
  'claude-code': shellRow(bash, {
    table: claudeAnswers,
    denyEndsTurn: false,
    session: true,
    stop: true,
    // The rule of the request's suggestion, in the project's local settings.
    always: { file: 'project/.claude/settings.local.json', rule: '"Bash(touch kept.txt)"' },
    subagent: (prompt) => ({
      name: 'Agent',
      input: { description: 'Touch a file', prompt, subagent_type: 'general-purpose', run_in_background: false },
    }),
  }),
  qwen: shellRow(qwenShell, { table: qwenAnswers, denyEndsTurn: false, session: false, stop: false }),
  'claude-acp': acpRow('claude', bash),
  'qwen-acp': acpRow('qwen', qwenShell),
  'gemini-acp': acpRow('gemini', (command) => ({ name: 'run_shell_command', input: { command } })),
  'opencode-acp': acpRow('opencode', opencodeShell),
  'kilo-acp': acpRow('kilo', opencodeShell),
  'copilot-acp': acpRow('copilot', opencodeShell),
  // codex-acp asks only for a patch (its write): its commands run in its read-only sandbox unasked.
  'codex-acp': {
    create: (_place, file) => ({
      name: 'apply_patch',
      custom: true,
      input: `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\n`,
    }),
    call: (place, file) => ({ kind: 'write', path: place.path(file) }),
    acp: true,
    message: false,
    rewrite: false,
    denyEndsTurn: optionsFor('codex', undefined)!.denyEndsTurn!,
    denyCancels: true,
    session: false,
    stop: false,
  },
};
