/** acp.md's raw stream rows: JSON-RPC messages on the agent's stdout, the session id, the stop reason. */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/acp/records.js';
import { bodies, untimed } from '../../helpers.js';
import {
  rpc,
  initialize,
  sessionNew,
  answer,
  update,
  say,
  toolCall,
  toolUpdate,
  permission,
  outcome,
  events,
} from './messages.js';

describe("raw stream: JSON-RPC messages on the agent's stdout", () => {
  test('response with result.sessionId (session/new): captures the session id; no event', async () => {
    const out = await outcome(sessionNew, say('hi'), answer());
    expect(untimed(out.events)).toEqual([{ type: 'agent', message: 'hi', session_id: 's1' }]);
    expect(out.rules[0]).toBe(records['session/new response'].rules.session);
  });

  test(
    'response with result.stopReason (session/prompt): the end of the turn: spans and open calls flushed, then ' +
      'the stop reason and usage',
    async () => {
      const out = await outcome(
        sessionNew,
        toolCall({ kind: 'execute', status: 'in_progress', rawInput: { command: 'make' } }),
        say('Building.'),
        answer({ stopReason: 'max_tokens', usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } }),
      );
      expect(bodies(out.events)).toEqual([
        { type: 'agent', message: 'Building.' },
        { type: 'command', command: 'make' },
        { type: 'warning', code: 'max_tokens', message: 'ACP turn ended: max_tokens' },
        { type: 'usage', tokens: { input: 10, output: 2 } },
      ]);
      expect(out.metrics).toMatchObject({
        ended: true,
        is_error: true,
        turns: 1,
        final_output: 'Building.',
        tokens: { input: 10, output: 2 },
      });
    },
  );

  test(
    'any other response with a result (initialize, ' + 'session/set_model): consumed; agentInfo.name names the agent',
    async () => {
      const out = await outcome(
        initialize('qwen-code'),
        sessionNew,
        rpc({ id: 3, result: {} }),
        toolCall({ kind: 'read', status: 'completed', rawInput: { file_path: 'a.ts', offset: 0, limit: 2 } }),
      );
      // The name is Qwen's: its 0-based offset 0 is line 1.
      expect(bodies(out.events)).toEqual([
        { type: 'read', path: '/ws/a.ts', start_line: 1, end_line: 2, is_success: true },
      ]);
      expect(out.rules.filter((rule) => rule === records['other response'].rules.consumed)).toHaveLength(2);
    },
  );

  test(
    'response with error: error, message = error.message, code = error.code as a string; answering the prompt, ' +
      'the run ends in error',
    async () => {
      const out = await outcome(
        initialize(),
        sessionNew,
        say('Working.'),
        rpc({ id: 3, error: { code: -32603, message: 'Internal error', data: { details: 'boom' } } }),
      );
      expect(bodies(out.events)).toEqual([
        { type: 'agent', message: 'Working.' },
        { type: 'error', message: 'Internal error', code: '-32603' },
      ]);
      expect(out.metrics).toMatchObject({ is_error: true, ended: true });
    },
  );

  test(
    'response with error before the session ' + '(initialize, session/new): the run ends in error, with no turn',
    async () => {
      const out = await outcome(
        initialize(),
        rpc({ id: 2, error: { code: -32000, message: 'Authentication required' } }),
      );
      expect(bodies(out.events)).toEqual([{ type: 'error', message: 'Authentication required', code: '-32000' }]);
      expect(out.metrics).toMatchObject({ is_error: true, ended: false });
    },
  );

  test(
    'response with error to session/set_model: an error ' + "event; the prompt's answer that follows decides the run",
    async () => {
      const out = await outcome(
        initialize(),
        sessionNew,
        rpc({ id: 3, error: { code: -32602, message: 'Unknown model' } }),
        say('Hi.'),
        rpc({ id: 4, result: { stopReason: 'end_turn' } }),
      );
      expect(bodies(out.events)).toEqual([
        { type: 'error', message: 'Unknown model', code: '-32602' },
        { type: 'agent', message: 'Hi.' },
      ]);
      expect(out.metrics).toMatchObject({ is_error: false, ended: true });
    },
  );

  test('response with an error that has no message: unknown', async () => {
    const message = rpc({ id: 3, error: { code: 1 } });
    const out = await outcome(message);
    expect(bodies(out.events)).toEqual([{ type: 'unknown', raw: message }]);
    expect(out.rules).toEqual([records['error response'].rules.malformed]);
  });

  test('notification session/update: by its kind; one without an update object is unknown', async () => {
    const broken = rpc({ method: 'session/update', params: { sessionId: 's1' } });
    expect(await events(say('hi'), broken)).toEqual([
      { type: 'agent', message: 'hi' },
      { type: 'unknown', raw: broken },
    ]);
  });

  test(
    'request session/request_permission: its toolCall merged into the record (it may create it: Gemini); no ' +
      'event of its own',
    async () => {
      const out = await outcome(
        initialize('gemini-cli'),
        sessionNew,
        permission({ toolCallId: 'run_1', status: 'pending', title: 'npm test', kind: 'execute', locations: [] }),
        update('tool_call_update', { toolCallId: 'run_1', status: 'completed', title: 'npm test', kind: 'execute' }),
      );
      expect(bodies(out.events)).toEqual([{ type: 'command', command: 'npm test' }]);
      expect(out.rules[2]).toBe(records['session/request_permission'].rules.open);
    },
  );

  test(
    'request session/request_permission: the input Qwen gives only there is merged; a request without a ' +
      'toolCall is unknown',
    async () => {
      const broken = rpc({ id: 5, method: 'session/request_permission', params: { options: [] } });
      expect(
        await events(
          toolCall({ kind: 'execute', status: 'pending', rawInput: {} }),
          permission({ toolCallId: 't1', rawInput: { command: 'npm test' } }),
          toolUpdate({ status: 'completed', rawOutput: { exitCode: 0 } }),
          broken,
        ),
      ).toEqual([
        { type: 'command', command: 'npm test', exit_code: 0, is_success: true },
        { type: 'unknown', raw: broken },
      ]);
    },
  );

  test(
    "requests fs/* and terminal/* (not offered), and other requests and notifications in ACP's namespaces: " +
      'unknown, with the message',
    async () => {
      const lines = [
        rpc({ id: 7, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/ws/a', content: 'x' } }),
        rpc({ id: 8, method: 'terminal/output', params: { sessionId: 's1', terminalId: 'x' } }),
        rpc({ id: 9, method: 'authenticate', params: {} }),
        rpc({ method: 'session/cancel', params: { sessionId: 's1' } }),
        rpc({ method: '$/cancel_request', params: { requestId: 1 } }),
        rpc({ id: 10, method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'plan' } } }),
      ];
      const out = await outcome(...lines);
      expect(bodies(out.events)).toEqual(lines.map((raw) => ({ type: 'unknown', raw })));
      expect(new Set(out.rules)).toEqual(new Set([records['ACP method'].rules.unknown]));
    },
  );

  test("requests and notifications outside ACP's namespaces (`_`-prefixed, vendor-named): consumed", async () => {
    const out = await outcome(
      say('a'),
      rpc({ id: 0, method: 'craft/drainMidTurnQueue', params: { todoStopGuardWatchQueuedPrompt: true } }),
      rpc({ method: 'qwen/notify/session/prompt-suggestion', params: { v: 1, suggestion: 'more' } }),
      rpc({ method: '_zed/hello', params: {} }),
      say('b'),
    );
    // Consumed: no event, and the span stays open across them.
    expect(bodies(out.events)).toEqual([{ type: 'agent', message: 'ab' }]);
    expect(out.rules.slice(1, 4)).toEqual(Array(3).fill(records['extension method'].rules.consumed));
  });

  test('a JSON value that is not a JSON-RPC object: unknown', async () => {
    const lines = [{ jsonrpc: '2.0' }, { id: 1 }, { method: 42, id: 1 }, [1, 2], 'text', null];
    expect(await events(...lines.map((line) => JSON.stringify(line)))).toEqual(
      lines.map((raw) => ({ type: 'unknown', raw })),
    );
  });

  test('a line that is not JSON: a warning (not_json), after the open span', async () => {
    expect(await events(say('hi'), 'Debugger attached.')).toEqual([
      { type: 'agent', message: 'hi' },
      { type: 'warning', code: 'not_json', message: 'Debugger attached.' },
    ]);
  });
});

describe('the session id', () => {
  test(
    'a notification before the session/new response gives it (Copilot announces its commands first); every ' +
      'event carries it',
    async () => {
      const out = await outcome(
        initialize(),
        rpc({
          method: 'session/update',
          params: { sessionId: 'early', update: { sessionUpdate: 'available_commands_update', availableCommands: [] } },
        }),
        rpc({ id: 2, result: { sessionId: 'early' } }),
        say('hi'),
        answer(),
      );
      expect(out.metrics.session_id).toBe('early');
      expect(untimed(out.events)).toEqual([{ type: 'agent', message: 'hi', session_id: 'early' }]);
    },
  );

  test('the first response with a string sessionId; events before any capture carry none', async () => {
    const out = await outcome(
      rpc({ id: 9, method: 'fs/read_text_file', params: {} }),
      rpc({ id: 2, result: { sessionId: 'first' } }),
      rpc({ id: 5, result: { sessionId: 'second' } }),
      say('hi'),
    );
    expect(untimed(out.events).map((event) => event.session_id)).toEqual([undefined, 'first']);
  });
});

describe('stop reason (the session/prompt response)', () => {
  test('end_turn: no event; the run did not end in error', async () => {
    const out = await outcome(sessionNew, answer());
    expect(out.events).toEqual([]);
    expect(out.metrics).toMatchObject({ ended: true, is_error: false });
  });

  for (const stopReason of ['max_tokens', 'max_turn_requests', 'refusal', 'cancelled']) {
    test(`${stopReason}: a warning with that code; the run ended in error`, async () => {
      const out = await outcome(sessionNew, answer({ stopReason }));
      expect(bodies(out.events)).toEqual([
        { type: 'warning', code: stopReason, message: `ACP turn ended: ${stopReason}` },
      ]);
      expect(out.metrics).toMatchObject({ ended: true, is_error: true });
    });
  }
});
