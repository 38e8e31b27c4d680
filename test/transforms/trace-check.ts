/**
 * What every trace holds to, whatever the harness (docs/contract.md "Trace stream"): test/transforms/
 * trace-captures.test.ts checks it on every capture, test/runtime/run/trace.test.ts on a spawned run.
 */
import { expect } from 'vitest';
import type { HarnessEvent } from '../../lib/kernel/events.js';
import type { TraceRecord } from '../../lib/kernel/trace.js';
import * as validators from '../../lib/kernel/validators.js';

const withoutTime = ({ timestamp: _timestamp, ...rest }: HarnessEvent) => rest;

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** What every trace holds to, whatever the harness; throws with the first record that breaks it. */
export function checkTrace(records: TraceRecord[], plain: HarnessEvent[]): void {
  for (const record of records) expect(validators.trace(record), JSON.stringify(record)).toBe(true);
  expect(records[0]?.kind).toBe('run_started');
  expect(records.at(-1)?.kind).toBe('run_ended');
  expect(records.filter((r) => r.kind === 'run_started' || r.kind === 'run_ended')).toHaveLength(2);

  const events = records.flatMap((r) => (r.kind === 'event' ? [r] : []));
  expect(events.map((r) => r.seq)).toEqual(plain.map((_, i) => i + 1));
  expect(events.map((r) => withoutTime(r.event))).toEqual(plain.map(withoutTime));

  const calls = new Map<string, { started?: string; source?: string; ended?: boolean }>();
  const agents = new Map<string, 'started' | 'ended'>();
  for (const record of records) {
    const where = JSON.stringify(record);
    if (record.kind === 'call_started') {
      expect(calls.has(record.call_id), `call started twice: ${where}`).toBe(false);
      calls.set(record.call_id, { started: record.at, source: record.at_source });
    } else if (record.kind === 'call_ended') {
      const call = calls.get(record.call_id);
      expect(call?.started, `call ended unstarted: ${where}`).toBeDefined();
      expect(call?.ended, `call ended twice: ${where}`).toBeUndefined();
      call!.ended = true;
      if (call!.source === 'harness' && record.at_source === 'harness') expect(record.at >= call!.started!).toBe(true);
    } else if (record.kind === 'event' && record.call_id !== undefined) {
      expect(calls.get(record.call_id)?.ended, `an event before its call ended: ${where}`).toBe(true);
    } else if (record.kind === 'agent_started') {
      expect(agents.has(record.agent_id), `agent started twice: ${where}`).toBe(false);
      agents.set(record.agent_id, 'started');
    } else if (record.kind === 'agent_ended') {
      expect(agents.get(record.agent_id), `agent ended unstarted or twice: ${where}`).toBe('started');
      agents.set(record.agent_id, 'ended');
    }
  }
  expect([...agents.values()].filter((state) => state !== 'ended')).toEqual([]);
}
