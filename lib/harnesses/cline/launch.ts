/**
 * What a Cline run needs besides its command line (docs/harnesses/cline.md "Quirks"): on a HOME
 * with no hub, Cline runs the session in its own process and then starts a hub daemon in a
 * session of its own, which outlives the run and escapes its process group. The local session
 * backend (`CLINE_SESSION_BACKEND_MODE=local`) runs every session in the CLI process and starts
 * no hub, so nothing the run starts outlives it. It is set whatever the caller's environment says.
 */
import type { LaunchOptions } from '../../kernel/harness.js';

const LOCAL_BACKEND = { CLINE_SESSION_BACKEND_MODE: 'local' } as const;

/**
 * The options with the local session backend added to the caller's `env` (over it): spawnHarness lays that over this
 * process's environment, or, with `extendEnv: false`, makes it the child's whole environment.
 */
export function localBackend<Options extends LaunchOptions>(options: Options): Options & { env: NodeJS.ProcessEnv } {
  return { ...options, env: { ...options.env, ...LOCAL_BACKEND } };
}

/**
 * A prompt Cline can only read as text: even after `--`, Cline 3.0.65 takes a one-word prompt naming a subcommand
 * (`history`) as that command and refuses one starting with `-` as an option (measured); a trailing newline makes
 * either text, and changes nothing the model reads.
 */
export function textPrompt<Options extends LaunchOptions>(options: Options): Options {
  const { prompt } = options;
  return prompt === undefined || /\s/.test(prompt) ? options : { ...options, prompt: `${prompt}\n` };
}
