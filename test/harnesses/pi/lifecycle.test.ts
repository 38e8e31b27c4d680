/** pi.md's raw event stream rows: retries, compaction, queue updates, and any other line. */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/pi/correlate.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, session, said, failed, turnEnd, agentEnd, retryStart, events } from './lines.js';

describe('raw event stream', () => {
  test(
    'auto_retry_start: consumed; it turns the held ' + 'error before it into a warning with code auto_retry',
    async () => {
      const out = await run(
        jsonl(
          session,
          failed('503 Service temporarily unavailable'),
          turnEnd,
          agentEnd,
          retryStart(1, '503 Service temporarily unavailable'),
          { type: 'agent_start' },
        ),
        {
          harness,
        },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'warning', message: '503 Service temporarily unavailable', code: 'auto_retry' },
      ]);
      expect(out.rules.at(-2)).toBe(records.auto_retry_start.rules.warning);
      // A retry is coming: the run has not ended.
      expect(out.metrics.ended).toBe(false);
    },
  );

  test('auto_retry_start with no error held: consumed', async () => {
    const out = await run(jsonl(session, retryStart(1, '503')), { harness });
    expect(out.events).toEqual([]);
    expect(out.rules[1]).toBe(records.auto_retry_start.rules.consumed);
  });

  test('auto_retry_end: consumed when success is true', async () => {
    const out = await run(jsonl(session, { type: 'auto_retry_end', success: true, attempt: 1 }), { harness });
    expect(out.events).toEqual([]);
    expect(out.rules[1]).toBe(records.auto_retry_end.rules.success);
  });

  test(
    'auto_retry_end failed after the retries ran out: the last error, held, is the one error (not downgraded, ' +
      'not repeated)',
    async () => {
      const error = '503 Service temporarily unavailable';
      const attempt = (n: number) => [
        failed(error),
        turnEnd,
        agentEnd,
        retryStart(n, error),
        { type: 'agent_start' },
        { type: 'turn_start' },
      ];
      const out = await run(
        jsonl(
          session,
          { type: 'agent_start' },
          ...attempt(1),
          ...attempt(2),
          ...attempt(3),
          failed(error),
          turnEnd,
          agentEnd,
          { type: 'auto_retry_end', success: false, attempt: 3, finalError: error },
        ),
        {
          harness,
        },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'warning', message: error, code: 'auto_retry' },
        { type: 'warning', message: error, code: 'auto_retry' },
        { type: 'warning', message: error, code: 'auto_retry' },
        { type: 'error', message: error },
      ]);
      expect(out.rules.at(-1)).toBe(records.auto_retry_end.rules.repeated);
      expect(out.metrics).toMatchObject({ ended: true, is_error: true, turns: 4 });
    },
  );

  test(
    'auto_retry_end failed with an error not emitted yet (a retry cancelled during its delay): error with ' +
      'finalError',
    async () => {
      const out = await run(
        jsonl(session, failed('429 rate limited'), turnEnd, agentEnd, retryStart(1, '429 rate limited'), {
          type: 'auto_retry_end',
          success: false,
          attempt: 1,
          finalError: 'Retry cancelled',
        }),
        {
          harness,
        },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'warning', message: '429 rate limited', code: 'auto_retry' },
        { type: 'error', message: 'Retry cancelled' },
      ]);
      expect(out.rules.at(-1)).toBe(records.auto_retry_end.rules.error);
    },
  );

  test('auto_retry_end without a boolean success, or failed without finalError, is unknown', async () => {
    const noSuccess = { type: 'auto_retry_end', attempt: 1 };
    const noError = { type: 'auto_retry_end', success: false, attempt: 1 };
    expect(await events(noSuccess, noError)).toEqual([
      { type: 'unknown', raw: noSuccess },
      { type: 'unknown', raw: noError },
    ]);
  });

  test(
    'compaction_start and compaction_end: consumed, except a compaction_end with errorMessage and aborted ' +
      'false: a warning',
    async () => {
      const out = await run(
        jsonl(
          { type: 'compaction_start', reason: 'threshold' },
          { type: 'compaction_end', reason: 'threshold', result: { summary: 's' }, aborted: false, willRetry: false },
          { type: 'compaction_start', reason: 'overflow' },
          {
            type: 'compaction_end',
            reason: 'overflow',
            aborted: true,
            willRetry: false,
            errorMessage: 'Compaction aborted',
          },
          {
            type: 'compaction_end',
            reason: 'manual',
            aborted: false,
            willRetry: false,
            errorMessage: 'Summarization failed: 500',
          },
        ),
        { harness },
      );
      expect(bodies(out.events)).toEqual([{ type: 'warning', message: 'Summarization failed: 500' }]);
      expect(out.rules).toEqual([
        records.compaction_start.rules.consumed,
        records.compaction_end.rules.consumed,
        records.compaction_start.rules.consumed,
        records.compaction_end.rules.consumed,
        records.compaction_end.rules.warning,
      ]);
    },
  );

  test('queue_update and thinking_level_changed: consumed', async () => {
    const out = await run(
      jsonl(
        { type: 'queue_update', steering: [], followUp: ['next'] },
        { type: 'thinking_level_changed', level: 'high' },
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.queue_update.rules.consumed, records.thinking_level_changed.rules.consumed]);
  });

  test('any other type is unknown, verbatim (rpc responses, extension UI requests, prototype names)', async () => {
    const response = { type: 'response', command: 'prompt', success: true };
    const ui = { type: 'extension_ui_request', id: 'u1', method: 'notify' };
    const proto = { type: 'constructor' };
    const out = await run(jsonl(response, ui, proto, '[1]'), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'unknown', raw: response },
      { type: 'unknown', raw: ui },
      { type: 'unknown', raw: proto },
      { type: 'unknown', raw: [1] },
    ]);
    expect(out.rules).toEqual([
      sharedRecords['any other type'].rules.unknown,
      sharedRecords['any other type'].rules.unknown,
      sharedRecords['any other type'].rules.unknown,
      sharedRecords['not a typed object'].rules.unknown,
    ]);
  });

  test('a line that is not JSON is a warning, and the stream goes on', async () => {
    expect(await events('Debugger attached.', said([{ type: 'text', text: 'hi' }]))).toEqual([
      { type: 'warning', message: 'Debugger attached.', code: 'not_json' },
      { type: 'agent', message: 'hi' },
    ]);
  });

  test('the table has a row for every record type docs/harnesses/pi.md lists', () => {
    expect(Object.keys(records).sort()).toEqual(
      [
        'session',
        'agent_start',
        'agent_end',
        'turn_start',
        'turn_end',
        'message_start',
        'message_update',
        'message_end',
        'tool_execution_start',
        'tool_execution_update',
        'tool_execution_end',
        'auto_retry_start',
        'auto_retry_end',
        'compaction_start',
        'compaction_end',
        'queue_update',
        'thinking_level_changed',
      ].sort(),
    );
  });
});
