import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** `C:\...`, `C:/...` or a UNC `\\server\...` path: Claude Code on Windows reports these. */
const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

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

/**
 * `resolvePath` for a path no `~` expansion applies to: a shell word (the shell expands only an unquoted `~`, which
 * the shell rules do not classify, so a `~` left in one is a literal name).
 */
export function resolveLiteral(path: string, cwd?: string): string {
  if (WINDOWS_ABSOLUTE.test(path)) return trimSeparator(win32.normalize(path), win32);
  if (posix.isAbsolute(path)) return trimSeparator(posix.normalize(path), posix);
  if (cwd === undefined) return path;
  if (WINDOWS_ABSOLUTE.test(cwd)) return trimSeparator(win32.join(cwd, path), win32);
  return joinPath(cwd, path);
}

/** `~` or `~/...` under the home directory; any other path (`~user/...` too) as given. */
function expandHome(path: string, home: string | undefined): string {
  return isHomePath(path) ? (home ?? homedir()) + path.slice(1) : path;
}

function isHomePath(path: string): boolean {
  return path === '~' || path.startsWith('~/');
}

/** `base` then `path`, as a shell `cd base` followed by a use of `path` would mean it. */
export function joinPath(base: string, path: string): string {
  return trimSeparator(posix.isAbsolute(path) ? posix.normalize(path) : posix.join(base, path), posix);
}

function trimSeparator(path: string, flavor: typeof posix): string {
  const root = flavor.parse(path).root;
  return path.length > root.length && path.endsWith(flavor.sep) ? path.slice(0, -1) : path;
}
