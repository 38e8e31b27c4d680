/**
 * copilot.md's raw event stream rows for session errors, warnings and infos, abort, assistant.usage, the
 * result line and any other line.
 */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/copilot/correlate.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, sessionId, event, message, result, events } from './lines.js';

describe('raw event stream', () => {
  test('session.error: error with data.message, code data.errorType; without a message unknown', async () => {
    const bad = event('session.error', { errorType: 'query' });
    const { events, rules } = await run(
      jsonl(event('session.error', { errorType: 'authentication', message: 'HTTP 401', statusCode: 401 }), bad),
      { harness },
    );
    expect(bodies(events)).toEqual([
      { type: 'error', message: 'HTTP 401', code: 'authentication' },
      { type: 'unknown', raw: bad },
    ]);
    expect(rules).toEqual([records['session.error'].rules.error, records['session.error'].rules.malformed]);
  });

  test('session.warning: warning with data.message, code data.warningType; without a message unknown', async () => {
    const bad = event('session.warning', { warningType: 'mcp' });
    const { events, rules } = await run(
      jsonl(event('session.warning', { warningType: 'context', message: 'Context window nearly full' }), bad),
      { harness },
    );
    expect(bodies(events)).toEqual([
      { type: 'warning', message: 'Context window nearly full', code: 'context' },
      { type: 'unknown', raw: bad },
    ]);
    expect(rules).toEqual([records['session.warning'].rules.warning, records['session.warning'].rules.malformed]);
  });

  test(
    'session.info model_retry: a warning with code model_retry; any other infoType consumed; model_retry ' +
      'without message unknown',
    async () => {
      const bad = event('session.info', { infoType: 'model_retry' });
      const { events, rules } = await run(
        jsonl(
          event('session.info', {
            infoType: 'model_retry',
            message: 'Request failed due to a transient API error. Retrying...',
          }),
          event('session.info', { infoType: 'file_created', message: 'Created docs/guide.md' }),
          event('session.info', {}),
          bad,
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'warning', message: 'Request failed due to a transient API error. Retrying...', code: 'model_retry' },
        { type: 'unknown', raw: bad },
      ]);
      expect(rules).toEqual([
        records['session.info'].rules.retry,
        records['session.info'].rules.notice,
        records['session.info'].rules.notice,
        records['session.info'].rules.malformed,
      ]);
    },
  );

  test('abort: error "aborted: <reason>", code abort; without a reason "aborted"', async () => {
    const { events, rules } = await run(jsonl(event('abort', { reason: 'user initiated' }), event('abort', {})), {
      harness,
    });
    expect(bodies(events)).toEqual([
      { type: 'error', message: 'aborted: user initiated', code: 'abort' },
      { type: 'error', message: 'aborted', code: 'abort' },
    ]);
    expect(rules).toEqual([records.abort.rules.error, records.abort.rules.error]);
  });

  test(
    'assistant.usage: one usage per model call; input ' + 'excludes the cached part; the metrics are the sums',
    async () => {
      const usage = (data: Record<string, unknown>) =>
        event('assistant.usage', { model: 'fake-model', apiCallId: 'chatcmpl_0001', ...data }, { ephemeral: true });
      const { events, metrics, rules } = await run(
        jsonl(
          usage({
            inputTokens: 2300,
            outputTokens: 30,
            cacheReadTokens: 1800,
            cacheWriteTokens: 0,
            reasoningTokens: 12,
            cost: 0.25,
          }),
          usage({ inputTokens: 2600, outputTokens: 60, cacheReadTokens: 2200, parentToolCallId: 'call_0002' }),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        {
          type: 'usage',
          tokens: { input: 500, cache_read: 1800, cache_write: 0, output: 30, reasoning: 12 },
          cost: 0.25,
        },
        { type: 'usage', tokens: { input: 400, cache_read: 2200, output: 60 } },
      ]);
      expect(metrics.tokens).toEqual({ input: 900, cache_read: 4000, cache_write: 0, output: 90, reasoning: 12 });
      expect(metrics.cost).toBe(0.25);
      expect(rules).toEqual([records['assistant.usage'].rules.usage, records['assistant.usage'].rules.usage]);
    },
  );

  test(
    'assistant.usage: each class only when its field is present; inputTokens alone is the input; no valid count ' +
      'is unknown',
    async () => {
      const costOnly = event('assistant.usage', { model: 'fake-model', cost: 1 });
      const absurd =
        '{"type":"assistant.usage","data":{"outputTokens":-1,"inputTokens":1e400},"id":"u3",' +
        '"timestamp":"2026-12-01T00:56:14.553Z","parentId":null}';
      const { events, metrics, rules } = await run(
        jsonl(event('assistant.usage', { inputTokens: 100 }), costOnly, absurd),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'usage', tokens: { input: 100 } },
        { type: 'unknown', raw: costOnly },
        {
          type: 'unknown',
          raw: {
            type: 'assistant.usage',
            data: { outputTokens: -1, inputTokens: Infinity },
            id: 'u3',
            timestamp: '2026-12-01T00:56:14.553Z',
            parentId: null,
          },
        },
      ]);
      expect(metrics.tokens).toEqual({ input: 100 });
      expect(metrics.cost).toBeUndefined();
      expect(rules).toEqual([
        records['assistant.usage'].rules.usage,
        records['assistant.usage'].rules.malformed,
        records['assistant.usage'].rules.malformed,
      ]);
    },
  );

  test('result: session id, exit code, durations to the metrics; events before it carry no session id', async () => {
    const { events, metrics, rules } = await run(jsonl(message('Done.'), result(0)), { harness });
    expect(untimed(events)).toEqual([{ type: 'agent', message: 'Done.' }]);
    expect(metrics).toMatchObject({
      session_id: sessionId,
      ended: true,
      exit_code: 0,
      is_error: false,
      duration_ms: 1657,
      api_duration_ms: 194,
    });
    expect(rules).toEqual([records['assistant.message'].rules.agent, records.result.rules.metrics]);
  });

  test(
    'result with a non-zero exitCode and no error ' + 'before it: one error carrying the session id just captured',
    async () => {
      const { events, metrics, rules } = await run(jsonl(message('Trying.'), result(1)), { harness });
      expect(untimed(events)).toEqual([
        { type: 'agent', message: 'Trying.' },
        { type: 'error', session_id: sessionId, message: 'copilot exited with code 1', code: 'exit_code' },
      ]);
      expect(metrics).toMatchObject({ exit_code: 1, is_error: true });
      expect(rules[1]).toBe(records.result.rules.error);
    },
  );

  test('result with a non-zero exitCode after an error event (session.error or abort): no second error', async () => {
    expect(await events(event('session.error', { errorType: 'query', message: 'failed' }), result(1))).toEqual([
      { type: 'error', message: 'failed', code: 'query' },
    ]);
    expect(await events(event('abort', { reason: 'user initiated' }), result(1))).toEqual([
      { type: 'error', message: 'aborted: user initiated', code: 'abort' },
    ]);
  });

  test(
    'result without an integer exitCode or usage: the session id still; no exit code, no error, durations only ' +
      'when finite',
    async () => {
      const { events, metrics } = await run(
        jsonl({
          type: 'result',
          sessionId,
          exitCode: '1',
          usage: { sessionDurationMs: 1e400, totalApiDurationMs: -5 },
        }),
        { harness },
      );
      expect(events).toEqual([]);
      expect(metrics).toMatchObject({ session_id: sessionId, ended: true });
      expect(metrics.exit_code).toBeUndefined();
      expect(metrics.is_error).toBeUndefined();
      expect(metrics.duration_ms).toBeUndefined();
      expect(metrics.api_duration_ms).toBeUndefined();
    },
  );

  test('a stream without its result line has not ended, and names no session', async () => {
    const { metrics } = await run(jsonl(message('Cut short.')), { harness });
    expect(metrics.ended).toBe(false);
    expect(metrics.session_id).toBeUndefined();
  });

  test('external_tool.requested and external_tool.completed (tools served by an SDK host) are unknown', async () => {
    const requested = event('external_tool.requested', { requestId: 'r1', toolName: 'host_tool', arguments: {} });
    const completed = event('external_tool.completed', { requestId: 'r1' });
    const { events, rules } = await run(jsonl(requested, completed), { harness });
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: requested },
      { type: 'unknown', raw: completed },
    ]);
    expect(rules).toEqual([
      records['external_tool.requested'].rules.unknown,
      records['external_tool.completed'].rules.unknown,
    ]);
  });

  test('any other type is unknown, verbatim; a line that is not JSON is a warning', async () => {
    const novel = event('assistant.brand_new', { x: 1 });
    const { events, rules } = await run(jsonl(novel, 'Error: not json', { data: {} }), { harness });
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: novel },
      { type: 'warning', message: 'Error: not json', code: 'not_json' },
      { type: 'unknown', raw: { data: {} } },
    ]);
    expect(rules).toEqual([
      sharedRecords['any other type'].rules.unknown,
      sharedRecords['not JSON'].rules.warning,
      sharedRecords['not a typed object'].rules.unknown,
    ]);
  });
});
