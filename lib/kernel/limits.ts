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

/** The longest delay a Node timer holds; a longer one fires after 1 ms (with a TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay option (`killGraceMs`, `timeoutMs`, ...): whole milliseconds from `min` to MAX_TIMER_MS, or its default when
 * unset. Anything else is a RangeError naming the option: past a timer's range the delay would be 1 ms.
 */
export function delay(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > MAX_TIMER_MS)
    throw new RangeError(
      `${name} must be a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}, got ${String(value)}`,
    );
  return value;
}
