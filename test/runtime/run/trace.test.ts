/**
 * spawnHarness({ trace: true }) with a real child (test/children/script.mjs) replaying a real capture: the run's own
 * events (stderr, the exit) are in the trace too, and `run_ended` comes last with the child's exit code
 * (docs/contract.md "Trace stream").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { HarnessRunError } from '../../../lib/runtime/run/errors.js';
import { bodies, fixturePath } from '../../helpers.js';
import { checkTrace } from '../../transforms/trace-check.js';
import { collect, script } from './scripted-child.js';

const capture = readFileSync(fixturePath('claude-code/lab/subagent.jsonl'), 'utf8');
// The capture, then a line on stderr, then exit 3: the run fails with its exit code.
const steps = [{ out: capture }, { err: 'rate limited, retrying\n' }, { exit: 3 }];

describe('spawnHarness({ trace: true })', () => {
  test('read as it runs: the plain run wrapped, its stderr and exit events too, run_ended last', async () => {
    const plain = spawnHarness({ harness: 'claude-code', reject: false, ...script(steps) });
    const events = await collect(plain);
    const run = spawnHarness({ harness: 'claude-code', reject: false, trace: true, ...script(steps) });
    const records: TraceRecord[] = [];
    for await (const record of run) records.push(record);
    checkTrace(records, events);
    const types = bodies(events).map((e) => `${e.type}:${(e as { code?: string }).code ?? ''}`);
    expect(types.slice(-2)).toEqual(['warning:stderr', 'error:exit_code']);
    expect(records.at(-1)).toMatchObject({ kind: 'run_ended', failure: 'other', exit_code: 3, at_source: 'observed' });
    // The subagent's read, with its call id (the harness's own records say more: test/harnesses/claude-code).
    expect(records.find((r) => r.kind === 'event' && r.event.type === 'read')).toMatchObject({
      call_id: 'toolu_01SubRead00001',
    });
    const result = await run.done;
    expect(result).toBeInstanceOf(HarnessRunError);
    expect(result.trace).toBeUndefined();
  });

  test('read by nobody: the result keeps the records, and the events they wrap', async () => {
    const run = spawnHarness({ harness: 'claude-code', trace: true, reject: false, ...script(steps) });
    const result = await run.done;
    const trace = result.trace!;
    expect(trace[0]).toMatchObject({ kind: 'run_started', harness: 'claude-code' });
    expect(trace.at(-1)).toMatchObject({ kind: 'run_ended', exit_code: 3 });
    const wrapped: HarnessEvent[] = trace.flatMap((r) => (r.kind === 'event' ? [r.event] : []));
    expect(result.events).toEqual(wrapped);
    expect(bodies(result.events!).map((e) => e.type)).toEqual([
      'agent',
      'orchestration',
      'read',
      'orchestration',
      'agent',
      'warning',
      'error',
    ]);
  });
});
