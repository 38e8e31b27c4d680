import type { LineRange } from './types.js';

/** `start`..`end` (or `start` to the end of the file), or no range when that is nonsense. */
export function lineRange(start: number, end?: number): LineRange {
  if (!isLine(start) || (end !== undefined && (!isLine(end) || end < start))) return {};
  return end === undefined ? { start_line: start } : { start_line: start, end_line: end };
}

function isLine(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1;
}

/**
 * `5p` -> [5, 5], `2,4p` -> [2, 4]: the only sed scripts Codex takes for a read. Purely
 * syntactic, so `0p` still counts (it only yields no range).
 */
export function sedPrintScript(script: string): readonly [number, number] | undefined {
  const match = /^(\d+)(?:,(\d+))?p$/.exec(script);
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2] ?? match[1])];
}

/** bat's `--line-range`: `A:B`, `A:` (to the end), `:B` (from line 1) or `N`. */
export function batLineRange(value: string): LineRange {
  const match = /^(\d*)(:(\d*))?$/.exec(value);
  if (match === null || value === '' || value === ':') return {};
  const [, start, colon, end] = match;
  if (colon === undefined) return lineRange(Number(start), Number(start));
  return lineRange(start === '' ? 1 : Number(start), end === '' ? undefined : Number(end));
}
