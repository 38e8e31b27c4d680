/** `harness-events normalize --format trace`: the built bin, as a child process, on a real capture. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { fixturePath, runFixture, traceFixture } from '../../helpers.js';
import { harnessEvents as cli } from '../../cli.js';
import { checkTrace } from '../../transforms/trace-check.js';
import { transcripts } from '../../runtime/sessions/pairs.js';
import { node, children } from '../../runtime/run/scripted-child.js';

const script = (steps: string) => [node, join(children, 'script.mjs'), steps];

const capture = 'claude-code/lab/subagent.jsonl';
/** A record without the times the library's clock gave it (they differ from run to run). */
const unclocked = (record: TraceRecord) => {
  const copy = { ...record } as Record<string, unknown>;
  if (copy.at_source === 'observed') delete copy.at;
  if (copy.kind === 'event') copy.event = { ...(copy.event as HarnessEvent), timestamp: undefined };
  return copy;
};

describe('harness-events normalize --format trace', () => {
  test('one trace record per line: the same trace createNormalizer({ trace: true }) gives', async () => {
    const { code, stdout, stderr } = await cli([
      'normalize',
      '--harness',
      'claude-code',
      '--format',
      'trace',
      fixturePath(capture),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceRecord);
    checkTrace(records, (await runFixture(capture, { harness: 'claude-code', strict: false })).events);
    const expected = await traceFixture(capture, { harness: 'claude-code' });
    expect(records.map(unclocked)).toEqual(expected.map(unclocked));
  });

  test('run --format trace: a real child replaying the capture; run_ended carries its exit code', async () => {
    const steps = JSON.stringify([{ out: readFileSync(fixturePath(capture), 'utf8') }, { exit: 3 }]);
    const { code, stdout } = await cli([
      'run',
      '--harness',
      'claude-code',
      '--format',
      'trace',
      '--',
      ...script(steps),
    ]);
    expect(code).toBe(3);
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceRecord);
    expect(records[0]).toMatchObject({ kind: 'run_started', harness: 'claude-code' });
    expect(records.at(-1)).toMatchObject({ kind: 'run_ended', exit_code: 3 });
    expect(records.filter((r) => r.kind === 'event').map((r) => r.event.type)).toEqual([
      'agent',
      'orchestration',
      'read',
      'orchestration',
      'agent',
      'error',
    ]);
  });

  test("follow --format trace: a finished session's trace, its events those normalize --session gives", async () => {
    const home = join(transcripts('opencode', 'read'), 'home');
    const db = join(home, '.local/share/opencode/opencode.db');
    const session = `${db}#ses_dcccd26b7ffeibGuMgmvjIBUgk`;
    const { code, stdout } = await cli(['follow', '--harness', 'opencode', '--session', session, '--format', 'trace']);
    expect(code).toBe(0);
    const records = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as TraceRecord);
    const plain = await cli(['normalize', '--harness', 'opencode', '--session', session]);
    checkTrace(
      records,
      plain.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as HarnessEvent),
    );
  });
});
