/**
 * The files an `apply_patch` patch touches, read from its markers (OpenCode's patch format):
 * `*** Add File: P`, `*** Update File: P` (optionally followed by `*** Move to: P`) and
 * `*** Delete File: P`. Pure; the patch is never applied or validated.
 */

// A marker only counts at the start of a line: hunk lines start with ` `, `-`, `+` or `@@`,
// so a file line that happens to read `*** Add File: x` never looks like one.
const MARKER = /^\*\*\* (?:Add File|Update File|Delete File|Move to):(.*)$/gm;

/** The paths the markers name, in patch order, as written (relative paths stay relative). */
export function patchedFiles(patchText: string): string[] {
  const paths: string[] = [];
  for (const match of patchText.matchAll(MARKER)) {
    // trim(): the space after the colon, and a `\r` when the patch has CRLF line ends.
    const path = match[1]!.trim();
    if (path !== '') paths.push(path);
  }
  return paths;
}
