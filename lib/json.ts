/** A parsed JSON object (never an array or null). */
export type JsonObject = { [key: string]: unknown };

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
