/**
 * What a Cline run needs besides its command line (docs/harnesses/cline.md "Quirks"): on a HOME
 * with no hub, Cline runs the session in its own process and then starts a hub daemon in a
 * session of its own, which outlives the run and escapes its process group. The local session
 * backend (`CLINE_SESSION_BACKEND_MODE=local`) runs every session in the CLI process and starts
 * no hub, so nothing the run starts outlives it. It is set whatever the caller's environment says.
 */
import type { LaunchOptions } from '../../kernel/harness.js';

const LOCAL_BACKEND = { CLINE_SESSION_BACKEND_MODE: 'local' } as const;

/** The options with the local session backend in the child's environment (the caller's, else this process's). */
export function localBackend<Options extends LaunchOptions>(
  options: Options,
): Options & { env: Record<string, string | undefined> } {
  const { env } = options as { env?: Record<string, string | undefined> };
  return { ...options, env: { ...(env ?? process.env), ...LOCAL_BACKEND } };
}
