/**
 * The children the spawnHarness tests run (test/children/*.mjs): a scripted child, and what it is scripted to write.
 * No sleeps: the child and the test wait for each other (the child reads a go-ahead on stdin, or prints what it has
 * done).
 */
import { join } from 'node:path';
import type { HarnessRun } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';

export const children = new URL('../../children/', import.meta.url).pathname;
export const node = process.execPath;
/** A child that ignores SIGTERM and says so. */
export const stubborn = [node, join(children, 'stubborn.mjs')];

/** The scripted child's command and arguments: it runs `steps` (test/children/script.mjs). */
export function script(steps: unknown[]) {
  return { command: node, args: [join(children, 'script.mjs'), JSON.stringify(steps)] };
}

export async function collect(run: HarnessRun): Promise<HarnessEvent[]> {
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

/** Lets a child waiting on a `{"wait": true}` step go on. */
export const goAhead = (run: HarnessRun) => run.child!.stdin!.write('go\n');

const line = (record: unknown) => JSON.stringify(record) + '\n';
/** A Claude Code assistant text record, and its result record. */
export const text = (id: string, message: string) =>
  line({ type: 'assistant', message: { id, content: [{ type: 'text', text: message }] }, session_id: 's1' });
export const result = line({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: 'done',
  session_id: 's1',
  usage: { input_tokens: 5, output_tokens: 7 },
});
