/**
 * The failure class of a run (`metrics.failure`) on the real captures of each harness's failures: the same 401 is
 * `auth` whatever code the harness gave it (kept as it was in the error event), and so on for each class. A
 * successful capture has none.
 */
import { describe, expect, test } from 'vitest';
import { classifyError, messageFailures, runFailure } from '../../lib/kernel/failures.js';
import type { RunMetrics } from '../../lib/kernel/events.js';
import { harnesses, type HarnessName } from '../../lib/index.js';
import { runFixture } from '../helpers.js';

/** Each capture: its harness, the code its error keeps, the class of the run. */
const captures: [HarnessName, string, string | undefined, string][] = [
  ['claude-code', 'claude-code/lab/errors-401.jsonl', 'authentication_failed', 'auth'],
  ['claude-code', 'claude-code/lab/errors-429.jsonl', 'rate_limit', 'rate_limit'],
  ['claude-code', 'claude-code/lab/rate-limit-rejected-429.jsonl', 'rate_limit', 'rate_limit'],
  ['claude-code', 'claude-code/lab/errors-529.jsonl', 'server_error', 'api_error'],
  ['claude-code', 'claude-code/lab/errors-max-turns.jsonl', 'error_max_turns', 'limit'],
  ['claude-code', 'claude-code/lab/errors-budget.jsonl', 'error_max_budget_usd', 'limit'],
  ['claude-code', 'claude-code/lab/errors-resume-missing.jsonl', 'error_during_execution', 'other'],
  ['cline', 'cline/lab/api-401.jsonl', 'auth', 'auth'],
  ['cline', 'cline/lab/retry-then-400.jsonl', 'error', 'other'],
  ['codex', 'codex/lab/error-http-401.jsonl', undefined, 'auth'],
  ['codex', 'codex/lab/error-http-429.jsonl', undefined, 'rate_limit'],
  ['codex', 'codex/lab/error-http-500.jsonl', undefined, 'api_error'],
  ['codex', 'codex/lab/error-stream-dropped-final.jsonl', undefined, 'api_error'],
  ['copilot', 'copilot/lab/api-401.jsonl', 'authentication', 'auth'],
  ['copilot', 'copilot/lab/api-500.jsonl', 'query', 'api_error'],
  ['copilot', 'copilot/lab/unreachable.jsonl', 'query', 'api_error'],
  ['gemini', 'gemini/lab/error-http-400.jsonl', 'unknown', 'api_error'],
  ['gemini', 'gemini/lab/empty-response.jsonl', undefined, 'api_error'],
  ['goose', 'goose/odd-records.jsonl', undefined, 'rate_limit'],
  ['kilo', 'kilo/lab/api-401.jsonl', 'APIError', 'auth'],
  ['opencode', 'opencode/lab/error-http-401.jsonl', 'APIError', 'auth'],
  ['opencode', 'opencode/sortie-v1.14.25-error-model-not-found.jsonl', 'UnknownError', 'api_error'],
  ['pi', 'pi/lab/api-error.jsonl', undefined, 'auth'],
  ['qwen', 'qwen/lab/api-error.jsonl', undefined, 'auth'],
];

describe('a failed run has one class, its error keeps the harness code', () => {
  test.each(captures)('%s %s: code %s, class %s', async (harness, file, code, failure) => {
    const { events, metrics } = await runFixture(file, { harness });
    const errors = events.filter((event) => event.type === 'error');
    expect(errors.length, 'errors').toBeGreaterThan(0);
    expect(errors[0]!.code).toBe(code);
    expect(metrics.is_error).toBe(true);
    expect(metrics.failure).toBe(failure);
  });
});

test('a run that succeeded has no class', async () => {
  const { metrics } = await runFixture('claude-code/lab/parallel.jsonl', { harness: 'claude-code' });
  expect(metrics.is_error).toBe(false);
  expect(metrics.failure).toBeUndefined();
});

test("every harness's table: ids are stable strings, each row names a class; the message rows are last resorts", () => {
  for (const [name, harness] of harnesses) {
    if (name === 'gg') continue;
    const rows = Object.entries(harness.failures ?? {});
    expect(rows.length, name).toBeGreaterThan(0);
    // The message rows, in their order, among the harness's own.
    expect(
      rows.map(([id]) => id).filter((id) => id in messageFailures),
      name,
    ).toEqual(Object.keys(messageFailures));
  }
});

test('the first row that matches wins: a code alone, a message alone, both', () => {
  const rows = harnesses.get('opencode')!.failures!;
  expect(classifyError(rows, { code: 'APIError', message: 'Incorrect API key provided' })).toEqual({
    id: 'message:auth',
    class: 'auth',
  });
  expect(classifyError(rows, { code: 'APIError', message: 'teapot' })).toEqual({ id: 'APIError', class: 'api_error' });
  expect(classifyError(rows, { code: 'ContextOverflowError', message: '401' })).toMatchObject({
    class: 'context_overflow',
  });
  expect(classifyError(rows, { code: 'UnknownError', message: 'teapot' })).toBeUndefined();
});

test("how the library ended a run wins; a kill or an exit code keeps the errors' class", () => {
  const metrics = (failure?: string) => ({ failure }) as RunMetrics;
  expect(runFailure('aborted', metrics('auth'))).toBe('aborted');
  expect(runFailure('timeout', metrics())).toBe('timeout');
  expect(runFailure('max_buffer', metrics())).toBe('max_buffer');
  expect(runFailure('exit_code', metrics('rate_limit'))).toBe('rate_limit');
  expect(runFailure('exit_code', metrics())).toBe('other');
  expect(runFailure('killed', metrics())).toBe('killed');
});
