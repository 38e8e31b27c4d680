/**
 * The run result's failure class (`metrics.failure`, on the result and on HarnessRunError): real children replaying
 * real captures, or ended by the library.
 */
import { expect, test } from 'vitest';
import { HarnessRunError, spawnHarness } from '../../../lib/index.js';
import { fixturePath } from '../../helpers.js';

const replay = new URL('../../children/replay.mjs', import.meta.url).pathname;

test("a failed run's class comes from its errors (Claude Code's 401, exit 1): auth, the code kept", async () => {
  const file = fixturePath('claude-code/lab/errors-401.jsonl');
  const run = spawnHarness({ harness: 'claude-code', command: process.execPath, args: [replay, file, '0', '1'] });
  const error = await run.done.catch((error: unknown) => error);
  expect(error).toBeInstanceOf(HarnessRunError);
  expect(error).toMatchObject({ reason: 'exit_code', exitCode: 1, metrics: { is_error: true, failure: 'auth' } });
  expect((error as HarnessRunError).events?.find((event) => event.type === 'error')).toMatchObject({
    code: 'authentication_failed',
  });
});

test('a run that succeeded has none', async () => {
  const file = fixturePath('claude-code/lab/read.jsonl');
  const result = await spawnHarness({ harness: 'claude-code', command: process.execPath, args: [replay, file, '0'] })
    .done;
  expect(result.metrics.is_error).toBe(false);
  expect(result.metrics.failure).toBeUndefined();
});

test('a run the library ended: timeout, aborted', async () => {
  const hang = ['-e', 'console.error("ready"); setInterval(() => {}, 1000)'];
  const timedOut = spawnHarness({ harness: 'gg', command: process.execPath, args: hang, timeoutMs: 200 });
  await expect(timedOut.done).rejects.toMatchObject({ reason: 'timeout', metrics: { failure: 'timeout' } });

  const controller = new AbortController();
  const aborted = spawnHarness({ harness: 'gg', command: process.execPath, args: hang, signal: controller.signal });
  // Once its first stderr line is read, the child is surely running.
  for await (const _event of aborted) controller.abort();
  await expect(aborted.done).rejects.toMatchObject({ reason: 'aborted', metrics: { failure: 'aborted' } });
});

test('an exit code with no error a table classifies: other', async () => {
  const run = spawnHarness({ harness: 'gg', command: process.execPath, args: ['-e', 'process.exit(3)'] });
  await expect(run.done).rejects.toMatchObject({ reason: 'exit_code', metrics: { failure: 'other' } });
});
