/**
 * Observation timestamps (docs/contract.md: ISO 8601 UTC with milliseconds). Events observed in
 * the same millisecond share one string, so a burst of events costs one `toISOString()`.
 */
let lastMs = -1;
let lastIso = '';

export function now(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
