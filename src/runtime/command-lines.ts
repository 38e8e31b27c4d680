/**
 * How each agent CLI is started for one prompt: non-interactive, approving its own tool calls,
 * printing the machine-readable stream its harness translates. `spawnHarness({ harness, prompt })`
 * and `harness-events run --harness NAME --prompt TEXT` build the command line from this table;
 * `command` (and `args`) still start anything else. The lines are the ones the lab captures and the
 * live suite run (test/fixtures/<harness>/lab/LAB.md).
 *
 * Every line here approves every tool call: the agent does what the model says. Run it in a
 * workspace you are ready to lose, or in a sandbox of your own.
 */
import type { LaunchOptions } from '../kernel/harness.js';

/** What a built command line is made from. */
export interface CommandLineInput {
  /** The task. */
  prompt: string;
  /** The model to ask for (the CLI's `--model`); its configured default without it. */
  model?: string;
  /** Further arguments, before the prompt. */
  extraArgs?: readonly string[];
}

/**
 * One row: the program, its fixed flags, and where the prompt goes: last (after `--model` and the
 * extra arguments, as the value of `promptFlag` when there is one), or `first`, right after the
 * fixed flags' leading `promptFlag`.
 */
export interface CommandLine {
  readonly command: string;
  readonly flags: readonly string[];
  readonly promptFlag?: string;
  readonly promptFirst?: boolean;
}

/** The command lines, by harness name. */
export const commandLines = {
  // As root, Claude Code refuses --dangerously-skip-permissions unless IS_SANDBOX=1 is set.
  'claude-code': {
    command: 'claude',
    flags: ['--print', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'],
  },
  codex: { command: 'codex', flags: ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox'] },
  copilot: {
    command: 'copilot',
    promptFlag: '-p',
    promptFirst: true,
    flags: ['--output-format', 'json', '--allow-all-tools', '--no-color'],
  },
  // --yolo is deprecated in favour of --approval-mode.
  gemini: {
    command: 'gemini',
    promptFlag: '-p',
    promptFirst: true,
    flags: ['--output-format', 'stream-json', '--approval-mode', 'yolo'],
  },
  goose: { command: 'goose', promptFlag: '--text', flags: ['run', '--quiet', '--output-format', 'stream-json'] },
  kilo: { command: 'kilo', flags: ['run', '--format', 'json', '--auto'] },
  // `run` asks no questions; what its tools may do is the project config's `permission`.
  opencode: { command: 'opencode', flags: ['run', '--format', 'json'] },
  // pi has no approvals: its tools always run.
  pi: { command: 'pi', flags: ['--mode', 'json'] },
  qwen: { command: 'qwen', flags: ['--approval-mode', 'yolo', '--output-format', 'stream-json'] },
  // Cline approves every tool unless told not to: this line does not (see CLINE_APPROVE_ALL).
  cline: { command: 'cline', flags: ['--json', '--auto-approve', 'false'] },
} satisfies Record<string, CommandLine>;

/**
 * Cline's approve-all flags (what `permissions: 'bypass'` is for it): given in `extraArgs`, after the
 * row's `--auto-approve false`, the later value wins. Never the default; and never `-y`/`--yolo`,
 * which loops without end on a model that answers in text only.
 */
export const CLINE_APPROVE_ALL: readonly string[] = ['--auto-approve', 'true'];

/** A row's arguments for one prompt. */
export function argsOf(row: CommandLine, { prompt, model, extraArgs = [] }: CommandLineInput): string[] {
  const promptArgs = row.promptFlag === undefined ? [prompt] : [row.promptFlag, prompt];
  const rest = [...(model === undefined ? [] : ['--model', model]), ...extraArgs];
  return row.promptFirst ? [...promptArgs, ...row.flags, ...rest] : [...row.flags, ...rest, ...promptArgs];
}

/** A row as the README shows it: `[--model M] [EXTRA]` where those go, `PROMPT` for the prompt. */
export function docOf(row: CommandLine): string {
  return [row.command, ...argsOf(row, { prompt: 'PROMPT', extraArgs: ['[--model M] [EXTRA]'] })].join(' ');
}

/**
 * A harness's `launch`: a run with a `prompt` gets the row's command line (its program unless
 * `command` names another); a run without one starts `command` and `args` as given.
 */
export function launcher(
  row: CommandLine,
): <Options extends LaunchOptions>(options: Options) => Options & LaunchOptions {
  return (options) => {
    const { prompt, model, extraArgs } = options;
    if (prompt === undefined) {
      if (model !== undefined || extraArgs !== undefined)
        throw new TypeError(
          'spawnHarness: model and extraArgs go with a prompt (with command and args, put them in args)',
        );
      return options;
    }
    if (options.args !== undefined)
      throw new TypeError('spawnHarness: give a prompt (the command line is built around it) or args, not both');
    return { ...options, command: options.command ?? row.command, args: argsOf(row, { prompt, model, extraArgs }) };
  };
}
