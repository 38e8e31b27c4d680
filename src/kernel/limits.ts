/**
 * A limit option (`maxLineBytes`, `maxPendingTools`, ...): a positive integer, or its default
 * when unset. Anything else is a RangeError naming the option, so a `NaN` or `0` from a config
 * file cannot silently switch a limit off.
 */
export function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}
