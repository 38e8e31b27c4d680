/**
 * One test per row of pi.md's tables, on authored records in pi 0.73.1's real shapes
 * (docs/harnesses/pi.md, the lab captures), for the rows no capture covers and to pin each rule alone.
 */
import { homedir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/pi/correlate.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const harness = 'pi';
const cwd = '/ws';

const session = {
  type: 'session',
  version: 3,
  id: '01a22f20-0000-7000-8000-000000000001',
  timestamp: '2026-12-01T01:00:00.000Z',
  cwd,
};
const zero = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

interface AssistantOptions {
  usage?: unknown;
  stopReason?: string;
  errorMessage?: string;
}

/** An assistant message as pi writes it. */
function assistant(content: unknown[], { usage = zero, stopReason = 'stop', errorMessage }: AssistantOptions = {}) {
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: 'lab',
    model: 'fake-model',
    usage,
    stopReason,
    timestamp: 1796087001151,
    errorMessage,
  };
}
function end(message: unknown) {
  return { type: 'message_end', message };
}
function said(content: unknown[], options?: AssistantOptions) {
  return end(assistant(content, options));
}
function failed(errorMessage: string | undefined, stopReason = 'error') {
  return said([], { stopReason, errorMessage });
}
function usage(input: number, output: number, cacheRead: number, cacheWrite: number, total: number) {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
  };
}
function start(toolCallId: string, toolName: string, args: unknown) {
  return { type: 'tool_execution_start', toolCallId, toolName, args };
}
function finish(toolCallId: string, toolName: string, text: string, isError = false) {
  return {
    type: 'tool_execution_end',
    toolCallId,
    toolName,
    result: { content: [{ type: 'text', text }], details: {} },
    isError,
  };
}
/** One tool call, started and ended. */
function call(toolName: string, args: unknown, text = 'ok', isError = false) {
  return [start('call_1', toolName, args), finish('call_1', toolName, text, isError)];
}

const turnEnd = { type: 'turn_end', message: assistant([]), toolResults: [] };
const agentEnd = { type: 'agent_end', messages: [] };
const retryStart = (attempt: number, errorMessage: string) => ({
  type: 'auto_retry_start',
  attempt,
  maxAttempts: 3,
  delayMs: 2000 * 2 ** (attempt - 1),
  errorMessage,
});

async function events(...lines: unknown[]) {
  return bodies((await run(jsonl(...lines), { harness })).events);
}

describe('raw event stream', () => {
  test(
    'session: its id is the session id of every later event, its cwd resolves relative paths; no event of its ' + 'own',
    async () => {
      const out = await run(jsonl(session, ...call('read', { path: 'a.ts' })), { harness });
      expect(untimed(out.events)).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true, session_id: session.id },
      ]);
      expect(out.metrics.session_id).toBe(session.id);
      expect(out.rules).toEqual([
        records.session.rules.session,
        records.tool_execution_start.rules.recorded,
        records.tool_execution_end.rules.tool,
      ]);
    },
  );

  test('session without an id is unknown (its cwd still counts)', async () => {
    const bad = { type: 'session', version: 3, cwd: '/other' };
    expect(await events(bad, ...call('read', { path: 'a.ts' }))).toEqual([
      { type: 'unknown', raw: bad },
      { type: 'read', path: '/other/a.ts', is_success: true },
    ]);
  });

  test(
    'agent_start, turn_start, turn_end, agent_end: consumed; agent_end ends the run, agent_start opens one, ' +
      'turn_end counts a turn',
    async () => {
      const out = await run(
        jsonl(session, { type: 'agent_start' }, { type: 'turn_start' }, turnEnd, agentEnd, { type: 'agent_start' }),
        { harness },
      );
      expect(out.events).toEqual([]);
      expect(out.metrics).toMatchObject({ ended: false, turns: 1 });
      expect(out.rules.slice(1)).toEqual([
        records.agent_start.rules.consumed,
        records.turn_start.rules.consumed,
        records.turn_end.rules.consumed,
        records.agent_end.rules.consumed,
        records.agent_start.rules.consumed,
      ]);
      const done = await run(jsonl(session, { type: 'agent_start' }, agentEnd), { harness });
      expect(done.metrics.ended).toBe(true);
    },
  );

  test('a stream without agent_end has not ended (the harness terminal record)', async () => {
    const out = await run(jsonl(session), { harness });
    expect(out.metrics.ended).toBe(false);
  });

  test('message_start and message_update: consumed, whatever they stream', async () => {
    const partial = assistant([{ type: 'text', text: 'Hel' }]);
    const out = await run(
      jsonl(
        { type: 'message_start', message: assistant([]) },
        {
          type: 'message_update',
          assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'Hel', partial },
          message: partial,
        },
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_start.rules.consumed, records.message_update.rules.consumed]);
  });

  test('message_end: by message.role (the message table); without a message or a role it is unknown', async () => {
    const noMessage = { type: 'message_end' };
    const noRole = end({ content: [] });
    const out = await run(jsonl(said([{ type: 'text', text: 'hi' }]), noMessage, noRole), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'agent', message: 'hi' },
      { type: 'unknown', raw: noMessage },
      { type: 'unknown', raw: noRole },
    ]);
    expect(out.rules).toEqual([
      records.message_end.rules.assistant,
      records.message_end.rules.malformed,
      records.message_end.rules.malformed,
    ]);
  });

  test(
    'tool_execution_start: the call is recorded, no ' + 'event; its tool_execution_end classifies it with its args',
    async () => {
      const out = await run(jsonl(start('call_1', 'read', { path: 'a.ts', offset: 3 })), { harness, cwd });
      // Never ended: emitted at the end of input with success unset (docs/contract.md).
      expect(bodies(out.events)).toEqual([{ type: 'read', path: '/ws/a.ts', start_line: 3 }]);
      expect(out.rules).toEqual([records.tool_execution_start.rules.recorded]);
    },
  );

  test('tool_execution_start without a toolCallId or toolName is unknown', async () => {
    const noId = { type: 'tool_execution_start', toolName: 'read', args: { path: 'a' } };
    const noName = { type: 'tool_execution_start', toolCallId: 'call_1', args: {} };
    expect(await events(noId, noName)).toEqual([
      { type: 'unknown', raw: noId },
      { type: 'unknown', raw: noName },
    ]);
  });

  test('tool_execution_update: consumed', async () => {
    const update = {
      type: 'tool_execution_update',
      toolCallId: 'call_1',
      toolName: 'bash',
      args: { command: 'ls' },
      partialResult: { content: [{ type: 'text', text: 'a\n' }] },
    };
    const out = await run(jsonl(start('call_1', 'bash', { command: 'ls' }), update, finish('call_1', 'bash', 'a\n')), {
      harness,
      cwd,
    });
    // A bare `ls` has no operand, so no path (the shell rules).
    expect(bodies(out.events)).toEqual([{ type: 'list', is_success: true }]);
    expect(out.rules[1]).toBe(records.tool_execution_update.rules.consumed);
  });

  test(
    "tool_execution_end: the recorded call's event, " + 'success = !isError; paired by id, in the order they end',
    async () => {
      expect(
        await events(
          session,
          start('call_1', 'read', { path: 'a.ts' }),
          start('call_2', 'write', { path: 'b.ts', content: 'x' }),
          finish('call_2', 'write', 'Successfully wrote 1 bytes to b.ts'),
          finish('call_1', 'read', 'ENOENT', true),
        ),
      ).toEqual([
        { type: 'write', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/a.ts', is_success: false },
      ]);
    },
  );

  test('tool_execution_end with an isError that is not a boolean leaves success unset', async () => {
    const odd = { ...finish('call_1', 'read', 'x'), isError: 'no' };
    expect(await events(session, start('call_1', 'read', { path: 'a.ts' }), odd)).toEqual([
      { type: 'read', path: '/ws/a.ts' },
    ]);
  });

  test(
    'a tool_execution_end whose call was never started is classified from its own toolName with no input; a ' +
      'read without a path is unknown',
    async () => {
      const lone = finish('call_9', 'read', 'x');
      const ls = finish('call_8', 'ls', 'a.ts');
      const out = await run(jsonl(session, lone, ls), { harness });
      expect(bodies(out.events)).toEqual([
        { type: 'unknown', raw: { tool_execution_end: lone } },
        { type: 'list', is_success: true },
      ]);
      expect(out.rules.slice(1)).toEqual([
        records.tool_execution_end.rules.unstarted,
        records.tool_execution_end.rules.unstarted,
      ]);
    },
  );

  test('tool_execution_end without a toolName that matches no call is unknown', async () => {
    const bad = { type: 'tool_execution_end', toolCallId: 'call_1', isError: false };
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

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

describe('messages (message_end)', () => {
  test('user: consumed (the prompt), string or blocks', async () => {
    const out = await run(
      jsonl(
        end({ role: 'user', content: 'hi', timestamp: 1 }),
        end({
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image', data: 'AA==', mimeType: 'image/png' },
          ],
          timestamp: 2,
        }),
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_end.rules.consumed, records.message_end.rules.consumed]);
  });

  test(
    'assistant: text blocks joined into one agent event, thinking blocks into one reasoning event, in content ' +
      'order; toolCall blocks consumed',
    async () => {
      const content = [
        { type: 'thinking', thinking: 'First ', thinkingSignature: 'reasoning_content' },
        { type: 'text', text: 'I will read ' },
        { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.ts' } },
        { type: 'thinking', thinking: 'then second.' },
        { type: 'text', text: 'a.ts.' },
      ];
      expect(await events(said(content))).toEqual([
        { type: 'reasoning', message: 'First then second.' },
        { type: 'agent', message: 'I will read a.ts.' },
      ]);
      expect(
        await events(
          said([
            { type: 'text', text: 'Answer.' },
            { type: 'thinking', thinking: 'Afterthought.' },
          ]),
        ),
      ).toEqual([
        { type: 'agent', message: 'Answer.' },
        { type: 'reasoning', message: 'Afterthought.' },
      ]);
    },
  );

  test(
    "assistant: empty thinking and redacted thinking (pi's placeholder) give no reasoning; a message of tool " +
      'calls alone gives no text',
    async () => {
      const out = await run(
        jsonl(
          said([
            { type: 'thinking', thinking: '' },
            { type: 'text', text: 'ok' },
          ]),
          said([{ type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: 'opaque', redacted: true }]),
          said([{ type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'ls' } }], {
            stopReason: 'toolUse',
          }),
        ),
        { harness },
      );
      expect(bodies(out.events)).toEqual([{ type: 'agent', message: 'ok' }]);
      // The last message has no text: no final output.
      expect(out.metrics.final_output).toBeUndefined();
    },
  );

  test('assistant: a block of another shape is unknown, carrying the block, in its place', async () => {
    const image = { type: 'image', data: 'AA==', mimeType: 'image/png' };
    const noText = { type: 'text', text: 42 };
    expect(await events(said([{ type: 'text', text: 'a' }, image, noText, 'stray']))).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'unknown', raw: image },
      { type: 'unknown', raw: noText },
      { type: 'unknown', raw: 'stray' },
    ]);
  });

  test('assistant without a content array is unknown', async () => {
    const bad = end({ role: 'assistant', content: 'hi', stopReason: 'stop' });
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('assistant: then a usage event when any token count or the cost is not zero', async () => {
    expect(
      await events(
        said([{ type: 'text', text: 'a' }], { usage: usage(100, 20, 300, 5, 0.0125) }),
        said([{ type: 'text', text: 'b' }], { usage: zero }),
        said([{ type: 'text', text: 'c' }], { usage: usage(0, 0, 0, 0, 0.5) }),
        said([{ type: 'text', text: 'd' }], { usage: usage(0, 7, 0, 0, 0) }),
      ),
    ).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'usage', tokens: { input: 100, output: 20, cache_read: 300, cache_write: 5 }, cost: 0.0125 },
      { type: 'agent', message: 'b' },
      { type: 'agent', message: 'c' },
      { type: 'usage', tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 }, cost: 0.5 },
      { type: 'agent', message: 'd' },
      // Cost 0 is omitted.
      { type: 'usage', tokens: { input: 0, output: 7, cache_read: 0, cache_write: 0 } },
    ]);
  });

  test(
    'assistant: when stopReason is error or aborted, an error with errorMessage (else "Request <stopReason>"), ' +
      'after the text and usage',
    async () => {
      expect(
        await events(
          said([{ type: 'text', text: 'Partial' }], {
            usage: usage(10, 2, 0, 0, 0),
            stopReason: 'aborted',
            errorMessage: 'Request was aborted',
          }),
          failed(undefined, 'aborted'),
          failed(undefined, 'error'),
          said([{ type: 'text', text: 'cut' }], { stopReason: 'length' }),
        ),
      ).toEqual([
        { type: 'agent', message: 'Partial' },
        { type: 'usage', tokens: { input: 10, output: 2, cache_read: 0, cache_write: 0 } },
        { type: 'error', message: 'Request was aborted' },
        { type: 'error', message: 'Request aborted' },
        { type: 'error', message: 'Request error' },
        { type: 'agent', message: 'cut' },
      ]);
    },
  );

  test('toolResult: consumed (tool_execution_end carries the same result)', async () => {
    const out = await run(
      jsonl(
        end({
          role: 'toolResult',
          toolCallId: 'call_1',
          toolName: 'read',
          content: [{ type: 'text', text: 'x' }],
          isError: false,
          timestamp: 1,
        }),
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_end.rules.consumed]);
  });

  test('compactionSummary and branchSummary: consumed', async () => {
    const out = await run(
      jsonl(
        end({ role: 'compactionSummary', summary: 's', tokensBefore: 9000, timestamp: 1 }),
        end({ role: 'branchSummary', summary: 's', fromId: 'e1', timestamp: 2 }),
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_end.rules.consumed, records.message_end.rules.consumed]);
  });

  test('custom, bashExecution and any other role: unknown, carrying the record', async () => {
    const custom = end({ role: 'custom', customType: 'note', content: 'x', display: true, timestamp: 1 });
    const bash = end({
      role: 'bashExecution',
      command: 'ls',
      output: 'a',
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 2,
    });
    const other = end({ role: 'system', content: 'x' });
    const out = await run(jsonl(custom, bash, other), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'unknown', raw: custom },
      { type: 'unknown', raw: bash },
      { type: 'unknown', raw: other },
    ]);
    expect(out.rules).toEqual([
      records.message_end.rules.other,
      records.message_end.rules.other,
      records.message_end.rules.other,
    ]);
  });
});

describe('held error', () => {
  test(
    'held past turn_end and agent_end; the next other ' + "record makes it an error, before that record's own events",
    async () => {
      expect(
        await events(
          failed('401 Unauthorized'),
          turnEnd,
          agentEnd,
          { type: 'agent_start' },
          said([{ type: 'text', text: 'next prompt' }]),
        ),
      ).toEqual([
        { type: 'error', message: '401 Unauthorized' },
        { type: 'agent', message: 'next prompt' },
      ]);
    },
  );

  test(
    'a second assistant error releases the first as ' + 'an error; the second is the one a retry downgrades',
    async () => {
      expect(await events(failed('first'), failed('second'), turnEnd, agentEnd, retryStart(1, 'second'))).toEqual([
        { type: 'error', message: 'first' },
        { type: 'warning', message: 'second', code: 'auto_retry' },
      ]);
    },
  );

  test('at the end of input the held error is an error, after calls still waiting', async () => {
    expect(
      await events(session, start('call_1', 'read', { path: 'a.ts' }), failed('socket hang up'), turnEnd, agentEnd),
    ).toEqual([
      { type: 'read', path: '/ws/a.ts' },
      { type: 'error', message: 'socket hang up' },
    ]);
  });

  test('a line that is not JSON is not a record: the error stays held (pi may still retry)', async () => {
    expect(await events(failed('503'), turnEnd, agentEnd, 'not json', retryStart(1, '503'))).toEqual([
      { type: 'warning', message: 'not json', code: 'not_json' },
      { type: 'warning', message: '503', code: 'auto_retry' },
    ]);
  });
});

describe('usage and metrics', () => {
  test("per-call deltas: each a usage event, their sums the metrics' tokens and cost", async () => {
    const { events: out, metrics } = await run(
      jsonl(
        said([{ type: 'text', text: 'one' }], { usage: usage(1000, 50, 0, 0, 0.25) }),
        said([{ type: 'text', text: 'two' }], { usage: usage(200, 30, 1000, 10, 0.5) }),
      ),
      { harness },
    );
    expect(bodies(out).filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', tokens: { input: 1000, output: 50, cache_read: 0, cache_write: 0 }, cost: 0.25 },
      { type: 'usage', tokens: { input: 200, output: 30, cache_read: 1000, cache_write: 10 }, cost: 0.5 },
    ]);
    expect(metrics).toMatchObject({
      tokens: { input: 1200, output: 80, cache_read: 1000, cache_write: 10 },
      cost: 0.75,
    });
  });

  test(
    'a class is present only when its field is; counts that are not safe integers and costs that are not finite ' +
      'are dropped',
    async () => {
      const odd = { input: 5, output: -1, cacheRead: 1e400, cost: { total: 1e400 } };
      const { events: out, metrics } = await run(
        jsonl(said([], { usage: odd }), said([], { usage: { cost: 'free' } }), said([], { usage: 'lots' })),
        { harness },
      );
      expect(bodies(out)).toEqual([{ type: 'usage', tokens: { input: 5 } }]);
      expect(metrics.tokens).toEqual({ input: 5 });
      expect(metrics.cost).toBeUndefined();
    },
  );

  test(
    'the final output is the text of the last assistant message; the run ended in error when its stopReason is ' +
      'error or aborted',
    async () => {
      const ok = await run(
        jsonl(said([{ type: 'text', text: 'one' }]), failed('boom'), said([{ type: 'text', text: 'two' }])),
        { harness },
      );
      expect(ok.metrics).toMatchObject({ final_output: 'two', is_error: false });
      const bad = await run(
        jsonl(said([{ type: 'text', text: 'one' }]), said([{ type: 'text', text: 'half' }], { stopReason: 'aborted' })),
        { harness },
      );
      expect(bad.metrics).toMatchObject({ final_output: 'half', is_error: true });
      const error = await run(jsonl(said([{ type: 'text', text: 'one' }]), failed('boom')), { harness });
      expect(error.metrics.is_error).toBe(true);
      expect(error.metrics.final_output).toBeUndefined();
    },
  );
});

describe('tools', () => {
  async function tool(toolName: string, args: unknown, text = 'ok', isError = false) {
    return events(session, ...call(toolName, args, text, isError));
  }

  test(
    'read: path; offset (1-based) is start_line, end_line = offset + limit - 1; offset alone, limit alone, ' +
      'neither',
    async () => {
      expect(await tool('read', { path: 'a.ts', offset: 5, limit: 10 })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 5, end_line: 14, is_success: true },
      ]);
      expect(await tool('read', { path: 'a.ts', offset: 5 })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 5, is_success: true },
      ]);
      expect(await tool('read', { path: 'a.ts', limit: 3 })).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 3, is_success: true },
      ]);
      expect(await tool('read', { path: '/abs/b.ts' })).toEqual([
        { type: 'read', path: '/abs/b.ts', is_success: true },
      ]);
    },
  );

  test('read without a path is unknown, carrying both records', async () => {
    const [s, e] = call('read', { offset: 1 });
    expect(await events(s, e)).toEqual([{ type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } }]);
  });

  test(
    'paths as pi reads them: a leading @ stripped, ~ the home directory, Unicode spaces plain, relative to the ' +
      'session cwd',
    async () => {
      // No home option: the process's own (docs/contract.md "Paths").
      const home = homedir();
      expect(await tool('read', { path: '@src/a.ts' })).toEqual([
        { type: 'read', path: '/ws/src/a.ts', is_success: true },
      ]);
      expect(await tool('write', { path: '@/etc/motd', content: 'x' })).toEqual([
        { type: 'write', path: '/etc/motd', is_success: true },
      ]);
      expect(await tool('edit', { path: '~/notes.md', edits: [] })).toEqual([
        { type: 'write', path: `${home}/notes.md`, is_success: true },
      ]);
      expect(await tool('ls', { path: '~' })).toEqual([{ type: 'list', path: home, is_success: true }]);
      expect(await tool('grep', { pattern: 'x', path: '@~/src' })).toEqual([
        { type: 'search', query: 'x', path: `${home}/src`, is_success: true },
      ]);
      expect(await tool('read', { path: 'my\u00a0file.txt' })).toEqual([
        { type: 'read', path: '/ws/my file.txt', is_success: true },
      ]);
      // Not pi's home shorthand: ~user and a ~ inside a name are plain path text.
      expect(await tool('read', { path: '~bob/a' })).toEqual([{ type: 'read', path: '/ws/~bob/a', is_success: true }]);
    },
  );

  test("~ expands against the run's home option, never the process's (pi.md Tools, contract.md Paths)", async () => {
    const lines = jsonl(
      session,
      ...call('read', { path: '~/notes.md' }),
      ...call('grep', { pattern: 'x', path: '@~' }),
    );
    expect(bodies((await run(lines, { harness, home: '/home/agent//' })).events)).toEqual([
      { type: 'read', path: '/home/agent/notes.md', is_success: true },
      { type: 'search', query: 'x', path: '/home/agent', is_success: true },
    ]);
  });

  test('write and edit: write, path, no range', async () => {
    expect(await tool('write', { path: 'src/c.ts', content: 'export const c = 3;\n' })).toEqual([
      { type: 'write', path: '/ws/src/c.ts', is_success: true },
    ]);
    expect(await tool('edit', { path: 'src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] })).toEqual([
      { type: 'write', path: '/ws/src/a.ts', is_success: true },
    ]);
    // The legacy top-level oldText/newText form.
    expect(await tool('edit', { path: 'src/a.ts', oldText: 'a', newText: 'b' }, 'Could not find', true)).toEqual([
      { type: 'write', path: '/ws/src/a.ts', is_success: false },
    ]);
  });

  test('grep: search, query = pattern, path when given', async () => {
    expect(await tool('grep', { pattern: 'greet', path: 'src', ignoreCase: true })).toEqual([
      { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
    ]);
    expect(await tool('grep', { pattern: 'greet' }, 'No matches found')).toEqual([
      { type: 'search', query: 'greet', is_success: true },
    ]);
  });

  test('find: search, query = pattern, path when given', async () => {
    expect(await tool('find', { pattern: '*.ts', path: 'src' })).toEqual([
      { type: 'search', query: '*.ts', path: '/ws/src', is_success: true },
    ]);
    expect(await tool('find', { pattern: '**/*.md' })).toEqual([
      { type: 'search', query: '**/*.md', is_success: true },
    ]);
  });

  test('grep or find without a pattern is unknown', async () => {
    const [s, e] = call('find', { path: 'src' });
    expect(await events(s, e)).toEqual([{ type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } }]);
  });

  test('ls: list, path when given; without one no path (pi.md Tools, revision 2026-12-01b)', async () => {
    expect(await tool('ls', { path: 'src' })).toEqual([{ type: 'list', path: '/ws/src', is_success: true }]);
    // Never filled with the working directory (docs/contract.md "Paths").
    expect(await tool('ls', {})).toEqual([{ type: 'list', is_success: true }]);
    expect(await events(...call('ls', {}))).toEqual([{ type: 'list', is_success: true }]);
  });

  test(
    'bash: a command in the session cwd; a failed result ' + 'ending "Command exited with code N" gives exit_code N',
    async () => {
      expect(await tool('bash', { command: 'npm test', timeout: 60 }, 'passed\n')).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws', is_success: true },
      ]);
      expect(await tool('bash', { command: 'npm test' }, '1 failing\n\n\nCommand exited with code 3', true)).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 3, is_success: false },
      ]);
      // A failure with no exit code: a timeout, an abort.
      expect(
        await tool('bash', { command: 'sleep 99', timeout: 1 }, 'Command timed out after 1 seconds', true),
      ).toEqual([{ type: 'command', command: 'sleep 99', working_directory: '/ws', is_success: false }]);
      // The text must end with it, and the result must be a failure.
      expect(await tool('bash', { command: 'make' }, 'Command exited with code 1\nmore', true)).toEqual([
        { type: 'command', command: 'make', working_directory: '/ws', is_success: false },
      ]);
      expect(await tool('bash', { command: 'echo Command exited with code 4' }, 'Command exited with code 4')).toEqual([
        { type: 'command', command: 'echo Command exited with code 4', working_directory: '/ws', is_success: true },
      ]);
    },
  );

  test('bash: recognized file operations (contract.md shell rules), keeping the success and no exit code', async () => {
    expect(await tool('bash', { command: "cd src && sed -n '2,4p' a.ts" }, 'x')).toEqual([
      { type: 'read', path: '/ws/src/a.ts', start_line: 2, end_line: 4, is_success: true },
    ]);
    expect(
      await tool(
        'bash',
        { command: 'cat missing.txt' },
        'cat: missing.txt: No such file or directory\n\n\nCommand exited with code 1',
        true,
      ),
    ).toEqual([{ type: 'read', path: '/ws/missing.txt', is_success: false }]);
  });

  test('bash: a search that exited 1 completed without a match; exit 2 is a failed search', async () => {
    expect(
      await tool('bash', { command: 'grep -rn zzz src' }, '(no output)\n\nCommand exited with code 1', true),
    ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: true }]);
    expect(
      await tool(
        'bash',
        { command: 'rg zzz nowhere' },
        'rg: nowhere: No such file or directory\n\nCommand exited with code 2',
        true,
      ),
    ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/nowhere', is_success: false }]);
  });

  test('bash without a command string is unknown', async () => {
    const [s, e] = call('bash', { command: ['ls'] });
    expect(await events(s, e)).toEqual([{ type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } }]);
  });

  test(
    'any other tool (extension tools, made-up names, ' + 'prototype names) is unknown, carrying both records',
    async () => {
      for (const name of ['web_search', 'does_not_exist', 'constructor', 'toString', 'Read']) {
        const [s, e] = call(name, { q: 1 }, `Tool ${name} not found`, true);
        expect(await events(s, e), name).toEqual([
          { type: 'unknown', raw: { tool_execution_start: s, tool_execution_end: e } },
        ]);
      }
    },
  );
});

describe('state is bounded (docs/contract.md)', () => {
  test(
    'past maxPendingTools started calls, the oldest is emitted with its outcome unset; its end later is ' +
      'classified on its own',
    async () => {
      const out = await run(
        jsonl(
          session,
          start('call_1', 'read', { path: 'one' }),
          start('call_2', 'read', { path: 'two' }),
          start('call_3', 'read', { path: 'three' }),
          finish('call_3', 'read', 'x'),
          finish('call_1', 'read', 'x'),
        ),
        { harness, maxPendingTools: 2 },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'read', path: '/ws/one' },
        { type: 'read', path: '/ws/three', is_success: true },
        // call_1 was given up on: its end names no path.
        { type: 'unknown', raw: { tool_execution_end: finish('call_1', 'read', 'x') } },
        { type: 'read', path: '/ws/two' },
      ]);
    },
  );

  test('an id started again while it waits: the first call is emitted unresolved, the second waits', async () => {
    expect(
      await events(
        session,
        start('call_1', 'read', { path: 'one' }),
        start('call_1', 'read', { path: 'two' }),
        finish('call_1', 'read', 'x'),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/one' },
      { type: 'read', path: '/ws/two', is_success: true },
    ]);
  });
});
