/** `harness-events normalize` and `run` accept `qwen`: the built bin, as a child process, on real captures. */
import { expect, test } from 'vitest';
import { harnessEvents } from '../../cli.js';
import { fixturePath } from '../../helpers.js';

const replay = new URL('../../children/replay.mjs', import.meta.url).pathname;

/** Runs the CLI; resolves with its exit code and the events it printed (without timestamps). */
async function cli(args: string[]) {
  const { stdout, code } = await harnessEvents(args);
  const events = stdout
    .trimEnd()
    .split('\n')
    .map((line) => {
      const { timestamp: _t, session_id: _s, ...rest } = JSON.parse(line);
      return rest;
    });
  return { code, events };
}

test('normalize --harness qwen: the api-error capture is one error event, exit 0', async () => {
  expect(await cli(['normalize', '--harness', 'qwen', '--strict', fixturePath('qwen/lab/api-error.jsonl')])).toEqual({
    code: 0,
    events: [{ type: 'error', message: '[API Error: 401 Incorrect API key provided: fake-key-not-real]' }],
  });
});

test(
  'run --harness qwen: the turn-limit capture replayed by a child exiting 53; the CLI exits 53, the error names ' +
    "Qwen's stop",
  async () => {
    const file = fixturePath('qwen/lab/turn-limit.jsonl');
    expect(await cli(['run', '--harness', 'qwen', '--', process.execPath, replay, file, '1', '53'])).toEqual({
      code: 53,
      events: [
        { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
        {
          type: 'error',
          code: 'exit_code',
          message: `${process.execPath} exited with code 53 (session turn limit reached)`,
        },
      ],
    });
  },
);
