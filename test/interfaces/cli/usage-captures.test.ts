/**
 * `harness-events usage --home H --json --by day,harness,model` on every published paired capture's home
 * (test/fixtures/<harness>/transcripts/<run>/home): the exact rows, each checked against the files themselves.
 *
 * How each was checked: the calls and tokens summed from the raw records with a script of its own (Claude Code's
 * `assistant` records once per `message.id`; Codex's `token_usage_record` rows, input less `cached_input_tokens`,
 * output less `reasoning_output_tokens`; Copilot's `session.usage_record`; Gemini CLI's messages' `tokens` once per
 * id, the subagent's file under `chats/<session>/` too; pi's assistant `usage`; Qwen Code's `usageMetadata`, output
 * less `thoughtsTokenCount` (its `totalTokenCount` is prompt + candidates), and its auto-memory extractor's two
 * calls, which only `ui_telemetry` records name (`.qwen/usage_record.jsonl` counts them: 4 requests, 12,200 input);
 * OpenCode's and Kilo's assistant messages). Kilo's cost is each step's `step-finish` cost: a message that started a
 * subagent holds the subagent's cost too (0.0117 = 0.00555 + 0.00615). pi's retried call (stopReason `error`, zero
 * tokens) is no call. The estimates, by hand from the table's prices: claude-opus-5-5 $4 in / $20 out per million
 * (1,320 x 4 + 275 x 20 = $0.01078), gpt-5.5 $5 / $0.50 cached / $30 out (reasoning paid as output), gemini-2.5-flash
 * $0.30 / $0.03 cached / $2.50 out. Copilot and OpenCode report 0 for tokens spent and `fake-model` has no price:
 * unknown, never $0. The error captures (a 401, a failed response, a 400) spent no token: no row.
 */
import { readdirSync, existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fixturePath } from '../../helpers.js';
import { inProcess } from '../../cli.js';

type Row = [day: string, model: string, calls: number, tokens: number[], cost: object, first: string, last: string];

const estimated = (usd: number) => ({ usd, source: 'estimated', prices_date: '2026-09-22' });
const reported = (usd: number) => ({ usd, source: 'reported' });
const unknown = { source: 'unknown' };
const d1 = '2026-12-01';

/** Each capture's rows: day, model, calls, [input, output, cache_read, cache_write, reasoning], cost, first, last. */
const expected: Record<string, Row[]> = {
  'claude-code/bash': [
    [d1, 'claude-opus-5-5', 11, [1320, 275, 0, 0, 0], estimated(0.01078), '19:58:35.463', '19:58:38.866'],
  ],
  'claude-code/errors-401': [],
  'claude-code/subagent': [
    [d1, 'claude-opus-5-5', 4, [480, 100, 0, 0, 0], estimated(0.00392), '19:58:41.220', '19:58:42.077'],
  ],
  'claude-code/subagent-background': [
    [d1, 'claude-opus-5-5', 5, [600, 125, 0, 0, 0], estimated(0.0049), '19:58:44.549', '19:58:45.605'],
  ],
  'codex/error-response-failed': [],
  'codex/read': [[d1, 'gpt-5.5', 5, [10300, 170, 37100, 0, 0], estimated(0.07515), '20:01:26.590', '20:01:27.001']],
  'codex/subagent': [[d1, 'gpt-5.5', 6, [15100, 220, 0, 0, 0], estimated(0.0821), '20:01:28.761', '20:01:29.194']],
  // Recorded on 2026-12-05: its own day, not the others'.
  'codex/workdir': [
    ['2026-12-05', 'gpt-5.5', 8, [10520, 160, 280, 0, 28], estimated(0.05838), '05:48:37.814', '05:48:38.381'],
  ],
  'codex/write-edit': [[d1, 'gpt-5.5', 5, [6000, 200, 0, 0, 0], estimated(0.036), '20:01:27.538', '20:01:27.710']],
  'copilot/api-401': [],
  'copilot/resume': [[d1, 'fake-model', 2, [1500, 10, 0, 0, 0], unknown, '20:03:51.348', '20:03:53.447']],
  'copilot/subagent': [[d1, 'fake-model', 4, [5200, 90, 0, 0, 0], unknown, '20:03:39.642', '20:03:39.770']],
  'copilot/tool-errors': [[d1, 'fake-model', 3, [4100, 80, 0, 0, 0], unknown, '20:03:28.989', '20:03:29.137']],
  'gemini/error-http-400': [],
  'gemini/file-tools': [
    [d1, 'gemini-2.5-flash', 8, [50800, 171, 0, 0, 0], estimated(0.0156675), '19:59:26.833', '19:59:27.094'],
  ],
  'gemini/subagent': [
    [d1, 'gemini-2.5-flash', 4, [20200, 72, 0, 0, 0], estimated(0.00624), '19:59:34.497', '19:59:34.731'],
  ],
  'gemini/text-thoughts-resume': [
    [d1, 'gemini-2.5-flash', 2, [1204, 20, 9296, 0, 37], estimated(0.00078258), '19:59:43.162', '19:59:47.518'],
  ],
  'gemini/text-thoughts-resume-later': [
    [d1, 'gemini-2.5-flash', 2, [1204, 20, 9296, 0, 37], estimated(0.00078258), '20:06:06.017', '20:07:11.161'],
  ],
  'gemini/tool-errors': [
    [d1, 'gemini-2.5-flash', 6, [37500, 68, 0, 0, 0], estimated(0.01142), '19:59:31.070', '19:59:31.227'],
  ],
  'kilo/api-401': [],
  'kilo/files': [[d1, 'fake-model', 4, [4200, 165, 9600, 0, 0], reported(0.017955), '20:05:04.759', '20:05:08.368']],
  'kilo/shell': [[d1, 'fake-model', 4, [2300, 110, 4900, 0, 0], reported(0.01002), '20:04:42.746', '20:04:45.655']],
  'kilo/task-skill': [[d1, 'fake-model', 6, [9100, 140, 0, 0, 0], reported(0.0294), '20:05:31.056', '20:05:36.168']],
  'opencode/error-stream-dropped': [
    [d1, 'fake-model', 1, [1200, 40, 0, 0, 0], unknown, '20:02:33.391', '20:02:33.391'],
  ],
  'opencode/read': [[d1, 'fake-model', 4, [3400, 125, 7800, 0, 0], unknown, '20:01:46.454', '20:01:48.513']],
  'opencode/shell': [[d1, 'fake-model', 9, [10800, 360, 0, 0, 0], unknown, '20:02:00.426', '20:02:06.341']],
  'opencode/task-subagent': [[d1, 'fake-model', 5, [7500, 145, 0, 0, 0], unknown, '20:02:21.443', '20:02:23.206']],
  'pi/files': [[d1, 'fake-model', 5, [4600, 380, 13000, 0, 0], reported(0.00666), '20:02:32.714', '20:02:32.875']],
  'pi/multi-prompt': [
    [d1, 'fake-model', 3, [2900, 48, 4700, 0, 0], reported(0.003466), '20:02:35.479', '20:02:35.524'],
  ],
  'pi/retry': [[d1, 'fake-model', 1, [2000, 3, 0, 0, 0], reported(0.002006), '20:02:41.266', '20:02:41.266']],
  'pi/text-reasoning-continue': [
    [d1, 'fake-model', 2, [1276, 48, 3124, 0, 0], reported(0.0016844), '20:02:44.602', '20:02:47.172'],
  ],
  'qwen/files': [[d1, 'fake-model', 5, [8200, 380, 26900, 0, 0], unknown, '20:01:29.364', '20:01:30.408']],
  'qwen/subagent': [[d1, 'fake-model', 4, [12100, 106, 5500, 0, 0], unknown, '20:01:42.427', '20:01:44.367']],
  'qwen/subagent-background': [
    [d1, 'fake-model', 5, [12500, 119, 11400, 0, 0], unknown, '20:01:52.321', '20:01:54.895'],
  ],
  'qwen/text-reasoning-continue': [
    [d1, 'fake-model', 4, [3004, 40, 9196, 0, 18], unknown, '20:02:08.250', '20:02:20.683'],
  ],
  'qwen/turn-limit': [[d1, 'fake-model', 1, [5000, 20, 0, 0, 0], unknown, '20:01:59.969', '20:01:59.969']],
};

const captures = readdirSync(fixturePath('.')).flatMap((harness) =>
  existsSync(fixturePath(`${harness}/transcripts`))
    ? readdirSync(fixturePath(`${harness}/transcripts`))
        .filter((run) => existsSync(fixturePath(`${harness}/transcripts/${run}/home`)))
        .map((run) => `${harness}/${run}`)
    : [],
);

test('the table holds every published capture home, and only those', () => {
  expect(Object.keys(expected).sort()).toEqual([...captures].sort());
});

describe('usage --json --by day,harness,model on every capture home', { timeout: 120_000 }, () => {
  test.each(Object.keys(expected))('%s', async (capture) => {
    const home = fixturePath(`${capture.replace('/', '/transcripts/')}/home`);
    const args = ['usage', '--home', home, '--json', '--by', 'day,harness,model', '--tz', 'UTC'];
    const { code, lines, errors } = await inProcess(args);
    expect({ code, errors }).toEqual({ code: 0, errors: '' });
    const harness = capture.split('/')[0];
    expect(lines.map((line) => JSON.parse(line))).toEqual(
      expected[capture]!.map(
        ([day, model, calls, [input, output, cache_read, cache_write, reasoning], cost, first, last]) => ({
          v: 2,
          group: { day, harness, model },
          calls,
          tokens: { input, output, cache_read, cache_write, reasoning },
          // Session files give each call: no token is left unitemized.
          unitemized: { input: 0, output: 0, cache_read: 0, cache_write: 0, reasoning: 0 },
          cost,
          first: `${day}T${first}Z`,
          last: `${day}T${last}Z`,
        }),
      ),
    );
  });
});
