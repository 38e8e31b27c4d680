import { posix } from 'node:path';

/**
 * Where a path reported by a harness points, per CONTRACT.md: a relative path is joined onto
 * the run's working directory; the result is normalized (no `.`/`..` segments, no trailing
 * slash). Without a working directory a relative path is reported as the harness gave it.
 * Never touches the file system.
 */
export function resolvePath(path: string, cwd?: string): string {
  if (posix.isAbsolute(path)) return normalize(path);
  if (cwd === undefined || !posix.isAbsolute(cwd)) return cwd === undefined ? path : joinPath(cwd, path);
  return normalize(posix.join(cwd, path));
}

/** `base` then `path`, as a shell `cd base` followed by a use of `path` would mean it. */
export function joinPath(base: string, path: string): string {
  if (posix.isAbsolute(path)) return normalize(path);
  return normalize(posix.join(base, path));
}

function normalize(path: string): string {
  const normalized = posix.normalize(path);
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}
