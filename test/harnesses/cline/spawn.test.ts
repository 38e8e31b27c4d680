/**
 * `spawnHarness({ harness: 'cline', prompt })` on a stand-in `cline` found on PATH (a real child
 * that says what it was given): the built command line, and the local session backend set over
 * whatever the caller's environment says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { spawnHarness, type HarnessEvent, type SpawnHarnessOptions } from '../../../lib/index.js';
import { bodies, onPath } from '../../helpers.js';
import { harnessEvents } from '../../cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'he-cline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// It answers with its backend mode and its arguments as the agent's text, then a completed result.
const standIn = [
  `printf '{"type":"agent_event","event":{"type":"content_end","contentType":"text","text":"%s | %s"}}\\n' ` +
    '"$CLINE_SESSION_BACKEND_MODE" "$*"',
  `printf '{"type":"run_result","finishReason":"completed","iterations":1,"durationMs":1,"text":"x"}\\n'`,
].join('\n');

async function said(options: SpawnHarnessOptions) {
  const run = spawnHarness(options);
  const events: HarnessEvent[] = [];
  for await (const event of run) events.push(event);
  return { events: bodies(events), result: await run.done };
}

test('the default line does not auto-approve; the local backend wins over the caller env', async () => {
  const { PATH } = onPath(tmp, 'cline', standIn);
  const { events, result } = await said({
    harness: 'cline',
    prompt: 'Say hi.',
    env: { PATH, CLINE_SESSION_BACKEND_MODE: 'hub' },
  });
  expect(events).toEqual([{ type: 'agent', message: 'local | --json --auto-approve false -- Say hi.' }]);
  expect(result).toMatchObject({ exitCode: 0, metrics: { ended: true, is_error: false } });
});

test("permissions: 'bypass' gives --auto-approve true, before the model and the extra arguments", async () => {
  const { PATH } = onPath(tmp, 'cline', standIn);
  const { events } = await said({
    harness: 'cline',
    prompt: 'Say hi.',
    model: 'fake-model',
    permissions: 'bypass',
    extraArgs: ['--verbose'],
    env: { PATH },
  });
  expect(events).toEqual([
    { type: 'agent', message: 'local | --json --auto-approve true --model fake-model --verbose -- Say hi.' },
  ]);
});

test('harness-events run --harness cline --prompt P: the same command line and backend through the CLI', async () => {
  const { PATH } = onPath(tmp, 'cline', standIn);
  const result = await harnessEvents(['run', '--harness', 'cline', '--prompt', 'Say hi.'], {
    env: { PATH, HOME: tmp },
  });
  expect(result.code).toBe(0);
  const events = result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as HarnessEvent);
  expect(bodies(events)).toEqual([{ type: 'agent', message: 'local | --json --auto-approve false -- Say hi.' }]);
});
