import { homedir } from 'node:os';
import { resolveLiteral } from './shell/paths.js';

/**
 * Where a path reported by a harness points, per docs/contract.md "Paths": `~` and `~/...` expand
 * against the run's home (by default this process's); a relative path is joined onto the run's
 * working directory; the result is normalized (no `.`/`..` segments, no repeated or trailing
 * separator). Without a working directory a relative path is reported as the harness gave it.
 * Windows paths are handled as Windows paths. Never touches the file system.
 */
export function resolvePath(path: string, cwd?: string, home?: string): string {
  return resolveLiteral(expandHome(path, home), cwd);
}

/** `~` or `~/...` under the home directory; any other path (`~user/...` too) as given. */
function expandHome(path: string, home: string | undefined): string {
  return isHomePath(path) ? (home ?? homedir()) + path.slice(1) : path;
}

function isHomePath(path: string): boolean {
  return path === '~' || path.startsWith('~/');
}
