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

import type { SpawnHarnessOptions } from '../lib/spawn.js';

/** What a built command line is made from. */
export interface CommandLineInput {
  /** The task. */
  prompt: string;
  /** The model to ask for (the CLI's `--model`); its configured default without it. */
  model?: string;
  /** Further arguments, before the prompt. */
  extraArgs?: readonly string[];
}

/** One row: the program, and its arguments for a prompt. `doc` is the row as the README shows it. */
export interface CommandLine {
  readonly command: string;
  args(input: CommandLineInput): string[];
  readonly doc: string;
}

const model = (name: string | undefined) => (name === undefined ? [] : ['--model', name]);

/** The command lines, by harness name. */
export const commandLines = {
  // As root, Claude Code refuses --dangerously-skip-permissions unless IS_SANDBOX=1 is set.
  'claude-code': {
    command: 'claude',
    args: (input) => ['--print', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', ...model(input.model), ...(input.extraArgs ?? []), input.prompt],
    doc: 'claude --print --output-format stream-json --verbose --dangerously-skip-permissions [--model M] [EXTRA] PROMPT',
  },
  codex: {
    command: 'codex',
    args: (input) => ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', ...model(input.model), ...(input.extraArgs ?? []), input.prompt],
    doc: 'codex exec --json --dangerously-bypass-approvals-and-sandbox [--model M] [EXTRA] PROMPT',
  },
  copilot: {
    command: 'copilot',
    args: (input) => ['-p', input.prompt, '--output-format', 'json', '--allow-all-tools', '--no-color', ...model(input.model), ...(input.extraArgs ?? [])],
    doc: 'copilot -p PROMPT --output-format json --allow-all-tools --no-color [--model M] [EXTRA]',
  },
  // --yolo is deprecated in favour of --approval-mode.
  gemini: {
    command: 'gemini',
    args: (input) => ['-p', input.prompt, '--output-format', 'stream-json', '--approval-mode', 'yolo', ...model(input.model), ...(input.extraArgs ?? [])],
    doc: 'gemini -p PROMPT --output-format stream-json --approval-mode yolo [--model M] [EXTRA]',
  },
  goose: {
    command: 'goose',
    args: (input) => ['run', '--quiet', '--output-format', 'stream-json', ...model(input.model), ...(input.extraArgs ?? []), '--text', input.prompt],
    doc: 'goose run --quiet --output-format stream-json [--model M] [EXTRA] --text PROMPT',
  },
  kilo: {
    command: 'kilo',
    args: (input) => ['run', '--format', 'json', '--auto', ...model(input.model), ...(input.extraArgs ?? []), input.prompt],
    doc: 'kilo run --format json --auto [--model M] [EXTRA] PROMPT',
  },
  // `run` asks no questions; what its tools may do is the project config's `permission`.
  opencode: {
    command: 'opencode',
    args: (input) => ['run', '--format', 'json', ...model(input.model), ...(input.extraArgs ?? []), input.prompt],
    doc: 'opencode run --format json [--model M] [EXTRA] PROMPT',
  },
  // pi has no approvals: its tools always run.
  pi: {
    command: 'pi',
    args: (input) => ['--mode', 'json', ...model(input.model), ...(input.extraArgs ?? []), input.prompt],
    doc: 'pi --mode json [--model M] [EXTRA] PROMPT',
  },
  qwen: {
    command: 'qwen',
    args: (input) => ['--approval-mode', 'yolo', '--output-format', 'stream-json', ...model(input.model), ...(input.extraArgs ?? []), input.prompt],
    doc: 'qwen --approval-mode yolo --output-format stream-json [--model M] [EXTRA] PROMPT',
  },
} satisfies Record<string, CommandLine>;

/**
 * A harness's `launch`: a run with a `prompt` gets the row's command line (its program unless
 * `command` names another); a run without one starts `command` and `args` as given.
 */
export function launcher(row: CommandLine): (options: SpawnHarnessOptions) => SpawnHarnessOptions {
  return (options) => {
    const { prompt, model, extraArgs } = options;
    if (prompt === undefined) {
      if (model !== undefined || extraArgs !== undefined) throw new TypeError('spawnHarness: model and extraArgs go with a prompt (with command and args, put them in args)');
      return options;
    }
    if (options.args !== undefined) throw new TypeError('spawnHarness: give a prompt (the command line is built around it) or args, not both');
    return { ...options, command: options.command ?? row.command, args: row.args({ prompt, model, extraArgs }) };
  };
}
