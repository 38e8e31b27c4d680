/**
 * How an agent CLI is started for one prompt (each harness's row is its folder's command-line.ts): non-interactive,
 * printing the machine-readable stream its harness translates, and approving what the `permissions` option says,
 * mapped onto the CLI's own flags (permissions.ts). By default nothing is approved: no approving flag, and where a
 * CLI approves by itself when headless, what stops it. `spawnHarness({ harness, prompt })` and `harness-events run
 * --harness NAME --prompt TEXT` build the command line from the row; `command` (and `args`) still start anything
 * else. With `permissions: 'bypass'` the lines are the ones the lab captures and the live suite run
 * (test/fixtures/<harness>/lab/LAB.md): every tool call approved, for a workspace you are ready to lose or a sandbox
 * of your own.
 */
import type { LaunchOptions } from './harness.js';
import { permissionModes, type Permissions } from './permissions.js';

/** What a built command line is made from. */
export interface CommandLineInput {
  /** The task. */
  prompt: string;
  /** The model to ask for (the CLI's `--model`); its configured default without it. */
  model?: string;
  /** Further arguments, before the prompt. */
  extraArgs?: readonly string[];
  /** What the agent may do without asking. Default `'default'`: nothing approved. */
  permissions?: Permissions;
}

/** Where a row's permission flags go among its fixed flags; without it, after them. */
export const PERMISSIONS = '{permissions}';

/**
 * One row: the program, its fixed flags, and where the prompt goes, where no option parser can read it (a prompt
 * `- item` or `--dangerously-skip-permissions` stays the task): on standard input (`promptStdin`), else as one
 * argument `promptFlag=PROMPT` when the row has a `promptFlag`, else last, after `--`. It goes first (right after the
 * program) with `promptFirst`, last otherwise (after `--model` and the extra arguments). `permissions` gives the
 * flags of each value the CLI has a mode for (a value it has none for is a TypeError), `permissionEnv` the
 * environment variables of those a CLI takes from its environment (they win over the caller's `env`).
 */
export interface CommandLine {
  /** The program (`claude`, `codex`, ...), found on PATH. */
  readonly command: string;
  /** Its fixed flags (non-interactive, the machine-readable output); `PERMISSIONS` marks where those flags go. */
  readonly flags: readonly string[];
  /** The flag the prompt is given with, as one argument `FLAG=PROMPT` (`--prompt`); without it, last after `--`. */
  readonly promptFlag?: string;
  /** The prompt goes right after the program, before the flags. */
  readonly promptFirst?: boolean;
  /** The prompt goes on standard input, not among the arguments. */
  readonly promptStdin?: boolean;
  /** The flags of each `permissions` value the CLI has a mode for. */
  readonly permissions: Readonly<Partial<Record<Permissions, readonly string[]>>>;
  /** The environment variables of each `permissions` value the CLI reads from its environment. */
  readonly permissionEnv?: Readonly<Partial<Record<Permissions, Readonly<Record<string, string>>>>>;
  /**
   * The flags with which the CLI may go on with a session it ran before (a resume, a fork, a session named or given
   * by id), for a CLI whose stdout reports the session's running total (docs/usage.md "From stdout").
   */
  readonly continues?: readonly string[];
}

/**
 * Whether `args` hold one of `flags` before a `--` (`--resume`, `--resume=ID`, `-r`), or a cluster of short flags with
 * one of theirs among them (`-rp`): a command line that may go on with an earlier session. Doubt counts as yes.
 */
export function hasFlag(args: readonly string[], flags: readonly string[]): boolean {
  const end = args.indexOf('--');
  const short = flags.filter((flag) => /^-[^-]$/.test(flag)).map((flag) => flag[1]!);
  return (end === -1 ? args : args.slice(0, end)).some(
    (arg) =>
      flags.some((flag) => flag.startsWith('--') && (arg === flag || arg.startsWith(`${flag}=`))) ||
      (/^-[^-]/.test(arg) && [...arg.slice(1)].some((letter) => short.includes(letter))),
  );
}

/** A row's flags for a permissions value; a TypeError when the CLI has no such mode. */
function permissionFlags(row: CommandLine, permissions: Permissions = 'default'): readonly string[] {
  const flags = row.permissions[permissions];
  if (flags === undefined) {
    const modes = Object.keys(row.permissions).join(', ');
    throw new TypeError(
      `spawnHarness: ${row.command} has no "${permissions}" mode (${permissionModes[permissions]}); its ` +
        `permissions: ${modes}`,
    );
  }
  return flags;
}

/** A row's arguments for one prompt. */
export function argsOf(row: CommandLine, { prompt, model, extraArgs = [], permissions }: CommandLineInput): string[] {
  const granted = permissionFlags(row, permissions);
  const flags = row.flags.includes(PERMISSIONS)
    ? row.flags.flatMap((flag) => (flag === PERMISSIONS ? granted : [flag]))
    : [...row.flags, ...granted];
  const promptArgs = row.promptStdin
    ? []
    : row.promptFlag === undefined
      ? ['--', prompt]
      : [`${row.promptFlag}=${prompt}`];
  const rest = [...(model === undefined ? [] : ['--model', model]), ...extraArgs];
  return row.promptFirst ? [...promptArgs, ...flags, ...rest] : [...flags, ...rest, ...promptArgs];
}

/**
 * A row as the README shows it: `PERMISSIONS`, `[--model M] [EXTRA]` and `PROMPT` where those go (`< PROMPT`: on
 * standard input).
 */
export function docOf(row: CommandLine): string {
  const shown = { ...row, permissions: { default: ['PERMISSIONS'] } };
  const args = argsOf(shown, { prompt: 'PROMPT', extraArgs: ['[--model M] [EXTRA]'] });
  return [row.command, ...args, ...(row.promptStdin ? ['< PROMPT'] : [])].join(' ');
}

/**
 * What one permissions value adds to a row, as the README shows it (environment variables first, `NAME='value'`); ''
 * for nothing, undefined when the CLI has no such mode.
 */
export function permissionDoc(row: CommandLine, permissions: Permissions): string | undefined {
  const flags = row.permissions[permissions];
  if (flags === undefined) return undefined;
  const env = Object.entries(row.permissionEnv?.[permissions] ?? {}).map(([name, value]) => `${name}='${value}'`);
  return [...env, ...flags].join(' ');
}

/**
 * A harness's `launch`: a run with a `prompt` gets the row's command line (its program unless
 * `command` names another), the prompt on standard input where the row says so, and the environment its permissions
 * need, over the caller's `env` (a `{...process.env}` carrying `GOOSE_MODE=auto` does not undo the default); a run
 * without one starts `command` and `args` as given.
 */
export function launcher(
  row: CommandLine,
): <Options extends LaunchOptions>(options: Options) => Options & LaunchOptions {
  return (options) => {
    const { prompt, model, extraArgs, permissions } = options;
    if (prompt === undefined) {
      if (model !== undefined || extraArgs !== undefined || permissions !== undefined)
        throw new TypeError(
          'spawnHarness: model, extraArgs and permissions go with a prompt (with command and args, the arguments ' +
            'are yours)',
        );
      return options;
    }
    if (options.args !== undefined)
      throw new TypeError('spawnHarness: give a prompt (the command line is built around it) or args, not both');
    const args = argsOf(row, { prompt, model, extraArgs, permissions });
    const env = row.permissionEnv?.[permissions ?? 'default'];
    return {
      ...options,
      command: options.command ?? row.command,
      args,
      // Asking, the prompt is the client's to send (a message of the protocol that carries the answers).
      ...(row.promptStdin && permissions !== 'ask' ? { input: prompt } : {}),
      ...(env === undefined ? {} : { env: { ...options.env, ...env } }),
    };
  };
}
