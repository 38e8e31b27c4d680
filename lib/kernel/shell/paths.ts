/**
 * Paths as a shell word or a harness names them, resolved without `~` expansion and without
 * touching the file system. lib/kernel/paths.ts adds the `~` expansion for paths a harness reports.
 */
import { posix, win32 } from 'node:path';

/** `C:\...`, `C:/...` or a UNC `\\server\...` path: Claude Code on Windows reports these. */
const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

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

/** `base` then `path`, as a shell `cd base` followed by a use of `path` would mean it. */
export function joinPath(base: string, path: string): string {
  return trimSeparator(posix.isAbsolute(path) ? posix.normalize(path) : posix.join(base, path), posix);
}

function trimSeparator(path: string, flavor: typeof posix): string {
  // Most paths end in no separator: parsing them for their root would be the tracker's largest cost.
  if (!path.endsWith(flavor.sep)) return path;
  return path.length > flavor.parse(path).root.length ? path.slice(0, -1) : path;
}
