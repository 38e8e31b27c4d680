/** A parsed JSON object (never an array or null). */
export type JsonObject = { [key: string]: unknown };

/** Whether a parsed JSON value is an object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `JSON.stringify(value)`, or undefined when it cannot be serialized (nested too deep for the stack, a BigInt...). */
export function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether `value` nests arrays and objects more than `max` levels deep. `JSON.parse` reads any
 * depth, but `JSON.stringify` (ours, and every consumer's) overflows the stack at a few
 * thousand levels. Iterative, so the check itself cannot overflow.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
