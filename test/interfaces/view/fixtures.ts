import type { HarnessEvent } from '../../../lib/kernel/events.js';

/**
 * claude-code/lab/read.jsonl as the view shows it with cwd /home/user/project, checked by hand
 * against the capture: three texts, README.md whole, notes.txt at offset 3 limit 4, and
 * missing.txt, whose result is an error.
 */
export const readJsonlLines = [
  "● I'll start by reading the README.",
  '◂ read README.md',
  '● Now lines 3-6 of the notes.',
  '◂ read notes.txt:3-6',
  '◂ read missing.txt · failed',
  '● The README says hello world, notes lines 3-6 are gamma to zeta, and missing.txt does not exist.',
];

/**
 * The events again, observed `stepMs` apart from a fixed time (a capture normalized at once has them all in one
 * millisecond).
 */
export function retimed(events: HarnessEvent[], stepMs: number): HarnessEvent[] {
  const start = Date.parse('2026-11-30T03:00:00.000Z');
  return events.map((event, index) => ({ ...event, timestamp: new Date(start + stepMs * index).toISOString() }));
}
