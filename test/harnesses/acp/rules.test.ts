/**
 * One test per row of acp.md's tables and rules, on authored messages in the agents' real shapes
 * (docs/harnesses/acp.md, the captures), for the rows no capture covers and to pin each rule alone.
 */
import { describe, expect, test } from 'vitest';
import { records, updates } from '../../../lib/harnesses/acp/records.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';

const harness = 'acp';
const cwd = '/ws';

const rpc = (message: Record<string, unknown>) => ({ jsonrpc: '2.0', ...message });
const initialize = (name = 'test-agent') =>
  rpc({ id: 1, result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name, version: '1.0.0' } } });
const sessionNew = rpc({ id: 2, result: { sessionId: 's1' } });
const answer = (result: Record<string, unknown> = { stopReason: 'end_turn' }) => rpc({ id: 3, result });
const update = (sessionUpdate: string, fields: Record<string, unknown> = {}) =>
  rpc({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate, ...fields } } });
const text = (kind: string, chunk: string, fields: Record<string, unknown> = {}) =>
  update(kind, { content: { type: 'text', text: chunk }, ...fields });
const say = (chunk: string, fields?: Record<string, unknown>) => text('agent_message_chunk', chunk, fields);
const think = (chunk: string, fields?: Record<string, unknown>) => text('agent_thought_chunk', chunk, fields);
const toolCall = (fields: Record<string, unknown>) => update('tool_call', { toolCallId: 't1', ...fields });
const toolUpdate = (fields: Record<string, unknown>) => update('tool_call_update', { toolCallId: 't1', ...fields });
const permission = (toolCall: Record<string, unknown>) =>
  rpc({
    id: 0,
    method: 'session/request_permission',
    params: { sessionId: 's1', toolCall, options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }] },
  });

async function outcome(...lines: unknown[]) {
  return run(jsonl(...lines), { harness, cwd });
}
async function events(...lines: unknown[]) {
  return bodies((await outcome(...lines)).events);
}
/**
 * The events of one tool call: announced with `fields`, then finished with `status` (and `end`'s fields), by an agent
 * named `agent`.
 */
async function tool(
  fields: Record<string, unknown>,
  {
    status = 'completed',
    end = {},
    agent = 'test-agent',
  }: { status?: string; end?: Record<string, unknown>; agent?: string } = {},
) {
  return events(
    initialize(agent),
    sessionNew,
    toolCall({ status: 'pending', ...fields }),
    toolUpdate({ status, ...end }),
  );
}

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

describe('usage', () => {
  const usageOf = async (usage: Record<string, unknown>) =>
    (await events(answer({ stopReason: 'end_turn', usage }))).map((event) => event.tokens);

  test(
    'disjoint (total = input + output + thought + ' + 'cache, not input + output: Kilo): input and output as sent',
    async () => {
      expect(
        await usageOf({
          inputTokens: 800,
          outputTokens: 18,
          totalTokens: 930,
          thoughtTokens: 12,
          cachedReadTokens: 100,
        }),
      ).toEqual([{ input: 800, output: 18, reasoning: 12, cache_read: 100 }]);
    },
  );

  test(
    'inclusive (total = input + output: Copilot, ' + 'Qwen): cache taken out of input, thought out of output',
    async () => {
      expect(
        await usageOf({
          inputTokens: 900,
          outputTokens: 30,
          totalTokens: 930,
          thoughtTokens: 12,
          cachedReadTokens: 100,
          cachedWriteTokens: 50,
        }),
      ).toEqual([{ input: 750, output: 18, reasoning: 12, cache_read: 100, cache_write: 50 }]);
      // Inconsistent counts never go below 0.
      expect(
        await usageOf({ inputTokens: 10, outputTokens: 5, totalTokens: 15, thoughtTokens: 9, cachedReadTokens: 20 }),
      ).toEqual([{ input: 0, output: 0, reasoning: 9, cache_read: 20 }]);
    },
  );

  test('reasoning and cache classes only when sent (not null); absent totalTokens is inclusive', async () => {
    expect(await usageOf({ inputTokens: 5, outputTokens: 3, thoughtTokens: null, cachedReadTokens: null })).toEqual([
      { input: 5, output: 3 },
    ]);
  });

  test("a usage whose counts are all 0 (Kilo's cancelled turn): no event, nothing in the metrics", async () => {
    const out = await outcome(
      answer({ stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } }),
    );
    expect(bodies(out.events)).toEqual([{ type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' }]);
    expect(out.metrics.tokens).toEqual({});
  });

  test('hostile counts (1e400, negative, fractional) are dropped, never summed', async () => {
    expect(await usageOf({ inputTokens: 1e400, outputTokens: -3, totalTokens: 1.5, thoughtTokens: 7 })).toEqual([
      { reasoning: 7 },
    ]);
  });

  test(
    "_meta.usage on a chunk (Qwen): the chunk's text first, then the usage event flushes the span and follows " +
      "it; the prompt response's usage then gives none",
    async () => {
      const out = await outcome(
        say('Reading.'),
        say('', {
          _meta: {
            usage: { inputTokens: 1000, outputTokens: 20, totalTokens: 1020, thoughtTokens: 8, cachedReadTokens: 0 },
            durationMs: 5,
          },
        }),
        think('More.', { _meta: { usage: { inputTokens: 100, outputTokens: 2, totalTokens: 102 } } }),
        answer({ stopReason: 'end_turn', usage: { inputTokens: 1100, outputTokens: 22, totalTokens: 1122 } }),
      );
      expect(bodies(out.events)).toEqual([
        { type: 'agent', message: 'Reading.' },
        { type: 'usage', tokens: { input: 1000, output: 12, reasoning: 8, cache_read: 0 } },
        { type: 'reasoning', message: 'More.' },
        { type: 'usage', tokens: { input: 100, output: 2 } },
      ]);
      expect(out.metrics.tokens).toEqual({ input: 1100, output: 14, reasoning: 8, cache_read: 0 });
      expect(out.rules.slice(1, 3)).toEqual([
        updates.agent_message_chunk.rules.usage,
        updates.agent_thought_chunk.rules.usage,
      ]);
    },
  );

  test("no other _meta is read: Gemini's _meta.quota, a _meta.usage without token numbers", async () => {
    expect(
      await events(
        say('a', { _meta: { usage: { inputTokens: '5', outputTokens: 1 } } }),
        answer({ stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: 900, output_tokens: 30 } } } }),
      ),
    ).toEqual([{ type: 'agent', message: 'a' }]);
  });

  test("usage_update: no event; the last cost.amount in USD is the run's cost", async () => {
    const out = await outcome(
      update('usage_update', { used: 900, size: 128000, cost: { amount: 0.5, currency: 'USD' } }),
      update('usage_update', { used: 1300, size: 128000, cost: { amount: 0.75, currency: 'USD' } }),
      update('usage_update', { used: 1400, size: 128000, cost: { amount: 9, currency: 'EUR' } }),
      update('usage_update', { used: 1500, size: 128000 }),
    );
    expect(out.events).toEqual([]);
    expect(out.metrics.cost).toBe(0.75);
  });
});

describe('session/update kinds', () => {
  test('agent_message_chunk: text appended to the open agent span', async () => {
    expect(await events(say('The magic '), say('word is '), say('pineapple.'))).toEqual([
      { type: 'agent', message: 'The magic word is pineapple.' },
    ]);
  });

  test(
    'agent_thought_chunk: text appended to the open ' + "reasoning span, kept verbatim (Gemini's bold subject)",
    async () => {
      expect(await events(think('**Plan**\n'), think('Read it.'), say('Done.'))).toEqual([
        { type: 'reasoning', message: '**Plan**\nRead it.' },
        { type: 'agent', message: 'Done.' },
      ]);
    },
  );

  test('user_message_chunk: consumed, and it ends the open span', async () => {
    expect(await events(say('a'), text('user_message_chunk', 'the prompt'), say('b'))).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'agent', message: 'b' },
    ]);
  });

  test('tool_call and tool_call_update: the tool call record, by toolCallId; without one, unknown', async () => {
    const broken = update('tool_call', { title: 'x', kind: 'read' });
    const out = await outcome(
      toolCall({ kind: 'read', status: 'pending', rawInput: { path: 'a.ts' } }),
      toolUpdate({ status: 'completed' }),
      broken,
    );
    expect(bodies(out.events)).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'unknown', raw: broken },
    ]);
    expect(out.rules).toEqual([
      updates.tool_call.rules.open,
      updates.tool_call_update.rules.finished,
      updates.tool_call.rules.malformed,
    ]);
  });

  test('plan: consumed, and the span stays open', async () => {
    expect(
      await events(
        say('a'),
        update('plan', { entries: [{ content: 'x', priority: 'high', status: 'pending' }] }),
        say('b'),
      ),
    ).toEqual([{ type: 'agent', message: 'ab' }]);
  });

  test('usage_update: consumed, and the span stays open', async () => {
    expect(await events(say('a'), update('usage_update', { used: 1, size: 2 }), say('b'))).toEqual([
      { type: 'agent', message: 'ab' },
    ]);
  });

  test(
    'available_commands_update, current_mode_update, config_option_update, session_info_update: consumed, the ' +
      'span stays open',
    async () => {
      const kinds = [
        'available_commands_update',
        'current_mode_update',
        'config_option_update',
        'session_info_update',
      ] as const;
      const out = await outcome(say('a'), ...kinds.map((kind) => update(kind)), say('b'));
      expect(bodies(out.events)).toEqual([{ type: 'agent', message: 'ab' }]);
      expect(out.rules.slice(1, 5)).toEqual(kinds.map((kind) => updates[kind].rules.consumed));
    },
  );

  test(
    'compaction_update, compaction_summary_chunk: ' + "consumed; being no chunk of the span's kind, they end it",
    async () => {
      expect(
        await events(
          say('a'),
          update('compaction_update', { status: 'started' }),
          update('compaction_summary_chunk', { content: { type: 'text', text: 'sum' } }),
          say('b'),
        ),
      ).toEqual([
        { type: 'agent', message: 'a' },
        { type: 'agent', message: 'b' },
      ]);
    },
  );

  test(
    'notice: a warning, title then ": " and the description when present; severity error makes it an error; no ' +
      'title: unknown',
    async () => {
      const broken = update('notice', { severity: 'info', description: 'd' });
      expect(
        await events(
          update('notice', { severity: 'warning', title: 'Rate limited', description: 'retrying in 5 s' }),
          update('notice', { severity: 'info', title: 'Indexed' }),
          update('notice', { severity: 'error', title: 'Quota exceeded', description: '' }),
          broken,
        ),
      ).toEqual([
        { type: 'warning', message: 'Rate limited: retrying in 5 s' },
        { type: 'warning', message: 'Indexed' },
        { type: 'error', message: 'Quota exceeded' },
        { type: 'unknown', raw: broken },
      ]);
    },
  );

  test(
    'any other kind (subagent_update, session_message, plan_update, a future kind, `constructor`): unknown, ' +
      'with the whole notification',
    async () => {
      const lines = ['subagent_update', 'session_message', 'plan_update', 'next_year', 'constructor'].map((kind) =>
        update(kind, { x: 1 }),
      );
      const out = await outcome(...lines);
      expect(bodies(out.events)).toEqual(lines.map((raw) => ({ type: 'unknown', raw })));
      expect(new Set(out.rules)).toEqual(new Set([updates['any other kind'].rules.unknown]));
    },
  );
});

describe('text spans', () => {
  test(
    'the same messageId extends the span; another one, or ' + 'a chunk without one after one with, starts a new span',
    async () => {
      expect(
        await events(
          say('a', { messageId: 'm1' }),
          say('b', { messageId: 'm1' }),
          say('c', { messageId: 'm2' }),
          say('d'),
          say('e'),
        ),
      ).toEqual([
        { type: 'agent', message: 'ab' },
        { type: 'agent', message: 'c' },
        { type: 'agent', message: 'de' },
      ]);
    },
  );

  test(
    'the open span is flushed before anything else ' + 'produces an event, and by a chunk of the other kind',
    async () => {
      expect(await events(think('hmm'), say('a'), rpc({ id: 1, error: { code: 1, message: 'e' } }), say('b'))).toEqual([
        { type: 'reasoning', message: 'hmm' },
        { type: 'agent', message: 'a' },
        { type: 'error', message: 'e', code: '1' },
        { type: 'agent', message: 'b' },
      ]);
    },
  );

  test('a tool_call or tool_call_update flushes it, even one that produces no event yet', async () => {
    expect(
      await events(
        say('a'),
        toolCall({ kind: 'read', status: 'pending', rawInput: { path: 'x' } }),
        say('b'),
        toolUpdate({ status: 'in_progress' }),
        say('c'),
      ),
    ).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'agent', message: 'b' },
      { type: 'agent', message: 'c' },
      { type: 'read', path: '/ws/x' },
    ]);
  });

  test('the end of input flushes it; chunks are joined exactly as sent (no trimming)', async () => {
    expect(await events(say('  two '), say(' spaces\n'))).toEqual([{ type: 'agent', message: '  two  spaces\n' }]);
  });

  test("a span whose text is empty produces no event (claude-code-acp's empty chunk before each message)", async () => {
    expect(await events(think(''), say(''), say('hi'), think(''))).toEqual([{ type: 'agent', message: 'hi' }]);
  });

  test(
    'a chunk whose content is not text (image, audio, ' + 'resource, resource_link) flushes the span and is unknown',
    async () => {
      const image = update('agent_message_chunk', { content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } });
      const link = update('agent_thought_chunk', {
        content: { type: 'resource_link', uri: 'file:///ws/a', name: 'a' },
      });
      expect(await events(say('a'), image, link)).toEqual([
        { type: 'agent', message: 'a' },
        { type: 'unknown', raw: image },
        { type: 'unknown', raw: link },
      ]);
    },
  );
});

describe('tool calls', () => {
  test(
    "each field carried with a non-null value replaces the record's (collections replaced, not appended); null " +
      'leaves it',
    async () => {
      expect(
        await events(
          toolCall({ title: 'edit', kind: 'edit', status: 'pending', locations: [], rawInput: {} }),
          toolUpdate({
            status: 'in_progress',
            locations: [{ path: 'a.ts' }, { path: 'b.ts' }],
            rawInput: { filePath: 'a.ts' },
          }),
          toolUpdate({ locations: [{ path: 'c.ts' }], rawInput: null, kind: null }),
          toolUpdate({ status: 'completed', title: 'c.ts' }),
        ),
      ).toEqual([{ type: 'write', path: '/ws/c.ts', is_success: true }]);
    },
  );

  test(
    'a tool_call for an id already recorded merges (claude-code-acp announces every call twice); an update for ' +
      'an id never seen creates the record',
    async () => {
      expect(
        await events(
          toolCall({ kind: 'read', status: 'pending', rawInput: {}, locations: [] }),
          toolCall({
            kind: 'read',
            status: 'pending',
            rawInput: { file_path: '/ws/a.ts' },
            locations: [{ path: '/ws/a.ts', line: 0 }],
          }),
          toolUpdate({ status: 'completed' }),
          update('tool_call_update', {
            toolCallId: 't9',
            kind: 'search',
            status: 'failed',
            rawInput: { pattern: 'x' },
          }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'search', query: 'x', is_success: false },
      ]);
    },
  );

  test(
    'completed is success, failed is failure; the record is then closed and later messages for its id are ' +
      'consumed',
    async () => {
      const out = await outcome(
        toolCall({ kind: 'read', status: 'failed', rawInput: { path: 'gone.txt' } }),
        toolUpdate({ status: 'completed' }),
        toolCall({ kind: 'execute', status: 'completed', rawInput: { command: 'rm -rf /' } }),
        permission({ toolCallId: 't1', status: 'completed' }),
      );
      expect(bodies(out.events)).toEqual([{ type: 'read', path: '/ws/gone.txt', is_success: false }]);
      expect(out.rules.slice(1)).toEqual([
        updates.tool_call_update.rules.closed,
        updates.tool_call.rules.closed,
        records['session/request_permission'].rules.closed,
      ]);
    },
  );

  test(
    'nothing for pending or in_progress; open records at the prompt response and the end of input, unfinished, ' +
      'in the order first seen',
    async () => {
      const second = update('tool_call', {
        toolCallId: 't2',
        kind: 'read',
        status: 'in_progress',
        rawInput: { path: 'b' },
      });
      expect(
        await events(
          toolCall({ kind: 'read', status: 'pending', rawInput: { path: 'a' } }),
          second,
          update('tool_call_update', { toolCallId: 't2', status: 'in_progress' }),
          toolUpdate({ status: 'in_progress' }),
          answer(),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a' },
        { type: 'read', path: '/ws/b' },
      ]);
      expect(await events(toolCall({ kind: 'search', status: 'pending', rawInput: { pattern: 'q' } }))).toEqual([
        { type: 'search', query: 'q' },
      ]);
    },
  );
});

describe('the kind table', () => {
  test(
    "read: read; with a string rawInput.pattern or an array rawInput.patterns, a search (Copilot's grep and " + 'glob)',
    async () => {
      expect(await tool({ kind: 'read', rawInput: { path: '/ws/notes.md' } })).toEqual([
        { type: 'read', path: '/ws/notes.md', is_success: true },
      ]);
      expect(
        await tool({
          kind: 'read',
          title: "Searching for 'magic'",
          rawInput: { pattern: 'magic', output_mode: 'content' },
        }),
      ).toEqual([{ type: 'search', query: 'magic', is_success: true }]);
      expect(await tool({ kind: 'read', rawInput: { patterns: ['**/*.ts'], path: 'src' } })).toEqual([
        { type: 'search', query: '**/*.ts', path: '/ws/src', is_success: true },
      ]);
    },
  );

  test('search: search', async () => {
    expect(await tool({ kind: 'search', rawInput: { pattern: 'magic', path: '/ws/src' } })).toEqual([
      { type: 'search', query: 'magic', path: '/ws/src', is_success: true },
    ]);
  });

  test("other or absent, with rawInput.pattern or rawInput.patterns: a search (Droid's Glob)", async () => {
    expect(await tool({ kind: 'other', rawInput: { patterns: ['*.md'] } })).toEqual([
      { type: 'search', query: '*.md', is_success: true },
    ]);
    expect(await tool({ rawInput: { pattern: 'TODO' } })).toEqual([
      { type: 'search', query: 'TODO', is_success: true },
    ]);
  });

  test('execute: a command, or the file operations of the shell rules', async () => {
    expect(await tool({ kind: 'execute', rawInput: { command: 'npm test' } })).toEqual([
      { type: 'command', command: 'npm test', is_success: true },
    ]);
    expect(await tool({ kind: 'execute', rawInput: { command: 'cat a.txt && ls src' } })).toEqual([
      { type: 'read', path: '/ws/a.txt', is_success: true },
      { type: 'list', path: '/ws/src', is_success: true },
    ]);
  });

  test('edit: one write per distinct path of the diff entries, in order', async () => {
    const diff = (path: string) => ({ type: 'diff', path, oldText: 'a', newText: 'b' });
    expect(
      await tool({
        kind: 'edit',
        content: [
          { type: 'content', content: { type: 'text', text: 'ok' } },
          diff('/ws/b.ts'),
          diff('/ws/a.ts'),
          diff('/ws/b.ts'),
        ],
        locations: [{ path: '/ws/z.ts' }],
      }),
    ).toEqual([
      { type: 'write', path: '/ws/b.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
    ]);
  });

  test('delete: with no diff, one write per locations entry; with neither, the rawInput path', async () => {
    expect(await tool({ kind: 'delete', locations: [{ path: 'old.ts' }] })).toEqual([
      { type: 'write', path: '/ws/old.ts', is_success: true },
    ]);
    expect(await tool({ kind: 'delete', locations: [], rawInput: { file_path: 'gone.ts' } })).toEqual([
      { type: 'write', path: '/ws/gone.ts', is_success: true },
    ]);
  });

  test('move: source and destination when both are listed', async () => {
    expect(
      await tool({
        kind: 'move',
        locations: [{ path: 'a.ts' }, { path: 'lib/a.ts' }],
        rawInput: { source: 'a.ts', destination: 'lib/a.ts' },
      }),
    ).toEqual([
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/lib/a.ts', is_success: true },
    ]);
  });

  test(
    'fetch, think, switch_mode, other or absent without a pattern, any other value: unknown, raw = the merged ' +
      'record without _meta',
    async () => {
      const cases: Record<string, unknown>[] = [
        { kind: 'fetch', title: 'Fetch https://example.com', rawInput: { url: 'https://example.com' } },
        { kind: 'think', title: 'Task', rawInput: { prompt: 'p' } },
        { kind: 'switch_mode', title: 'Ready to code?' },
        { kind: 'other', title: 'mcp__x__y', rawInput: { a: 1 } },
        { title: 'no kind' },
        { kind: 42, title: 'a number' },
        { kind: 'toString', title: 'a prototype member' },
      ];
      for (const fields of cases) {
        const out = await events(
          toolCall({ status: 'pending', _meta: { claudeCode: { toolName: 'X' } }, ...fields }),
          toolUpdate({ status: 'completed', rawOutput: 'r', _meta: { x: 1 } }),
        );
        expect(out, JSON.stringify(fields)).toEqual([
          { type: 'unknown', raw: { toolCallId: 't1', status: 'completed', rawOutput: 'r', ...fields } },
        ]);
      }
    },
  );
});

describe('paths, line ranges, searches (acp.md)', () => {
  test(
    'paths: locations[0].path first; then rawInput path, file_path, filePath, absolute_path, filename, ' +
      'directory_path, dir_path',
    async () => {
      expect(
        await tool({ kind: 'read', locations: [{ path: '/ws/loc.ts' }], rawInput: { path: '/ws/input.ts' } }),
      ).toEqual([{ type: 'read', path: '/ws/loc.ts', is_success: true }]);
      const fields = ['path', 'file_path', 'filePath', 'absolute_path', 'filename', 'directory_path', 'dir_path'];
      for (const [index, field] of fields.entries()) {
        const rawInput = Object.fromEntries(fields.slice(index).map((later) => [later, `${later}.txt`]));
        expect(await tool({ kind: 'read', rawInput }), field).toEqual([
          { type: 'read', path: `/ws/${field}.txt`, is_success: true },
        ]);
      }
    },
  );

  test('paths: relative ones resolve against the working directory; a read or write with none is unknown', async () => {
    expect(await tool({ kind: 'read', rawInput: { path: '../up/a.ts' } })).toEqual([
      { type: 'read', path: '/up/a.ts', is_success: true },
    ]);
    expect(await tool({ kind: 'read', title: 'Read', rawInput: {} })).toEqual([
      { type: 'unknown', raw: { toolCallId: 't1', kind: 'read', title: 'Read', rawInput: {}, status: 'completed' } },
    ]);
    expect(await tool({ kind: 'edit', title: 'Edit' })).toEqual([
      { type: 'unknown', raw: { toolCallId: 't1', kind: 'edit', title: 'Edit', status: 'completed' } },
    ]);
  });

  test(
    'line ranges: view_range [a, b] (Copilot) is a..b, ' + '[a, -1] a start only; a view_range out of form is skipped',
    async () => {
      const range = async (rawInput: Record<string, unknown>, locations?: unknown[]) =>
        (await tool({ kind: 'read', rawInput: { path: 'f', ...rawInput }, locations })).map(
          ({ start_line, end_line }) => ({ start_line, end_line }),
        )[0];
      expect(await range({ view_range: [2, 5] })).toEqual({ start_line: 2, end_line: 5 });
      expect(await range({ view_range: [7, -1] })).toEqual({ start_line: 7, end_line: undefined });
      expect(await range({ view_range: [5, 2], offset: 3 })).toEqual({ start_line: 3, end_line: undefined });
      // offset/limit: offset is the first line, limit the count (Droid: offset 2 limit 3 read lines 2-4); limit alone
      // 1..limit.
      expect(await range({ offset: 2, limit: 3 })).toEqual({ start_line: 2, end_line: 4 });
      expect(await range({ limit: 10 })).toEqual({ start_line: 1, end_line: 10 });
      // locations[0].line at least 1: a start line only (Gemini); 0 is no range (Droid, claude-code-acp).
      expect(await range({}, [{ path: 'f', line: 12 }])).toEqual({ start_line: 12, end_line: undefined });
      expect(await range({}, [{ path: 'f', line: 0 }])).toEqual({ start_line: undefined, end_line: undefined });
    },
  );

  test(
    "line ranges: Qwen's read_file offset is 0-based (agentInfo.name qwen-code); another agent's offset 0 is no " +
      'line',
    async () => {
      expect(
        await tool({ kind: 'read', rawInput: { file_path: 'f', offset: 4, limit: 2 } }, { agent: 'qwen-code' }),
      ).toEqual([{ type: 'read', path: '/ws/f', start_line: 5, end_line: 6, is_success: true }]);
      expect(await tool({ kind: 'read', rawInput: { file_path: 'f', offset: 0, limit: 2 } })).toEqual([
        { type: 'read', path: '/ws/f', start_line: 1, end_line: 2, is_success: true },
      ]);
    },
  );

  test(
    'searches: query from pattern, query, regex, glob, then patterns[0]; path from path, dir_path, ' +
      'directory_path, else locations[0].path',
    async () => {
      expect(await tool({ kind: 'search', rawInput: { glob: '*.md', regex: 'r', query: 'q' } })).toEqual([
        { type: 'search', query: 'q', is_success: true },
      ]);
      expect(
        await tool({ kind: 'search', rawInput: { regex: 'r', glob: 'g', dir_path: 'src', directory_path: 'lib' } }),
      ).toEqual([{ type: 'search', query: 'r', path: '/ws/src', is_success: true }]);
      expect(
        await tool({ kind: 'search', rawInput: { patterns: ['a', 'b'] }, locations: [{ path: '/ws/docs' }] }),
      ).toEqual([{ type: 'search', query: 'a', path: '/ws/docs', is_success: true }]);
    },
  );

  test(
    "searches: with no query field, the title: 'Q' within P and 'Q' (Gemini), any other title as it stands; " +
      'neither: unknown',
    async () => {
      expect(await tool({ kind: 'search', title: "'magic' within ./" })).toEqual([
        { type: 'search', query: 'magic', path: '/ws', is_success: true },
      ]);
      expect(await tool({ kind: 'search', title: "'**/*.ts'" })).toEqual([
        { type: 'search', query: '**/*.ts', is_success: true },
      ]);
      expect(await tool({ kind: 'search', title: 'List the src directory', locations: [{ path: 'src' }] })).toEqual([
        { type: 'search', query: 'List the src directory', path: '/ws/src', is_success: true },
      ]);
      expect(await tool({ kind: 'search', rawInput: {} })).toEqual([
        { type: 'unknown', raw: { toolCallId: 't1', kind: 'search', rawInput: {}, status: 'completed' } },
      ]);
    },
  );
});

describe('commands (execute)', () => {
  test(
    'command: rawInput.command as a string; an array joined as a command line, quoted where needed, a bash -lc ' +
      'wrapper unwrapped',
    async () => {
      expect(await tool({ kind: 'execute', rawInput: { command: ['git', 'commit', '-m', "it's done"] } })).toEqual([
        { type: 'command', command: "git commit -m 'it'\\''s done'", is_success: true },
      ]);
      expect(
        await tool({ kind: 'execute', rawInput: { command: ['bash', '-lc', 'npm run build && npm test'] } }),
      ).toEqual([{ type: 'command', command: 'npm run build && npm test', is_success: true }]);
    },
  );

  test('command: with no rawInput.command, the title (Gemini); with neither, unknown', async () => {
    expect(await tool({ kind: 'execute', title: 'ls -la && echo done' })).toEqual([
      { type: 'command', command: 'ls -la && echo done', is_success: true },
    ]);
    expect(await tool({ kind: 'execute' })).toEqual([
      { type: 'unknown', raw: { toolCallId: 't1', kind: 'execute', status: 'completed' } },
    ]);
  });

  test(
    'working_directory: rawInput.cwd, workdir or dir_path, else rawOutput.directory, else the shell_exit ' +
      "entry's cwd",
    async () => {
      const directory = async (rawInput: Record<string, unknown>, rawOutput?: unknown) =>
        (await tool({ kind: 'execute', rawInput: { command: 'make', ...rawInput } }, { end: { rawOutput } }))[0]!
          .working_directory;
      expect(await directory({ cwd: '/a', workdir: '/b' })).toBe('/a');
      expect(await directory({ workdir: '/b', dir_path: '/c' })).toBe('/b');
      expect(await directory({ dir_path: '/c' }, { directory: '/d' })).toBe('/c');
      expect(await directory({}, { directory: '/d', contents: [{ type: 'shell_exit', exitCode: 0, cwd: '/e' }] })).toBe(
        '/d',
      );
      expect(await directory({}, { contents: [{ type: 'shell_exit', exitCode: 0, cwd: '/e' }] })).toBe('/e');
      expect(await directory({})).toBeUndefined();
    },
  );

  test(
    'exit code: rawOutput.exitCode, exit_code, metadata.exit, then a shell_exit entry; non-zero fails a ' +
      'completed command',
    async () => {
      const exit = async (rawOutput: unknown) =>
        (await tool({ kind: 'execute', rawInput: { command: 'make' } }, { end: { rawOutput } }))[0];
      const failed = (exit_code: number) => ({ type: 'command', command: 'make', exit_code, is_success: false });
      expect(await exit({ exitCode: 3, exit_code: 4, metadata: { exit: 5 } })).toEqual(failed(3));
      expect(await exit({ exit_code: 4, metadata: { exit: 5 } })).toEqual(failed(4));
      expect(await exit({ metadata: { exit: 5 }, contents: [{ type: 'shell_exit', exitCode: 6 }] })).toEqual(failed(5));
      expect(await exit({ contents: [{ type: 'text' }, { type: 'shell_exit', exitCode: 6 }] })).toEqual(failed(6));
      // No integer anywhere (Droid, claude-code-acp, Gemini): success from the status alone.
      expect(await exit({ exitCode: '3', output: 'Exit code 3' })).toEqual({
        type: 'command',
        command: 'make',
        is_success: true,
      });
    },
  );

  test(
    "exit code: Kilo's metadata.exit null (killed by the " + 'abort) is no exit code and a failure, though completed',
    async () => {
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'sleep 30' } },
          { end: { rawOutput: { output: 'User aborted the command', metadata: { exit: null } } } },
        ),
      ).toEqual([{ type: 'command', command: 'sleep 30', is_success: false }]);
    },
  );

  test(
    'a search reclassified from a command that exited 1 completed with no match; so did one whose whole ' +
      'rawOutput is `Exit code 1` (claude-code-acp)',
    async () => {
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn magic src' } },
          { end: { rawOutput: { exitCode: 1 } } },
        ),
      ).toEqual([{ type: 'search', query: 'magic', path: '/ws/src', is_success: true }]);
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn magic src' } },
          { status: 'failed', end: { rawOutput: 'Exit code 1' } },
        ),
      ).toEqual([{ type: 'search', query: 'magic', path: '/ws/src', is_success: true }]);
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn magic src' } },
          { status: 'failed', end: { rawOutput: 'Exit code 2' } },
        ),
      ).toEqual([{ type: 'search', query: 'magic', path: '/ws/src', is_success: false }]);
    },
  );

  test(
    'Gemini CLI (agentInfo.name gemini-cli): a completed execute record has success unset, a failed one stays ' +
      'false; its other kinds are not affected',
    async () => {
      expect(await tool({ kind: 'execute', title: "node -e 'process.exit(3)'" }, { agent: 'gemini-cli' })).toEqual([
        { type: 'command', command: "node -e 'process.exit(3)'" },
      ]);
      expect(await tool({ kind: 'execute', title: 'false' }, { agent: 'gemini-cli', status: 'failed' })).toEqual([
        { type: 'command', command: 'false', is_success: false },
      ]);
      expect(await tool({ kind: 'read', locations: [{ path: '/ws/a' }] }, { agent: 'gemini-cli' })).toEqual([
        { type: 'read', path: '/ws/a', is_success: true },
      ]);
    },
  );
});

describe('bounded state', () => {
  test(
    'past maxPendingTools open records, the oldest is ' + 'emitted unfinished; a later update for it is consumed',
    async () => {
      const call = (id: string, path: string) =>
        update('tool_call', { toolCallId: id, kind: 'read', status: 'pending', rawInput: { path } });
      const out = await run(
        jsonl(
          call('a', 'a.ts'),
          call('b', 'b.ts'),
          call('c', 'c.ts'),
          update('tool_call_update', { toolCallId: 'a', status: 'failed' }),
          update('tool_call_update', { toolCallId: 'c', status: 'completed' }),
        ),
        {
          harness,
          cwd,
          maxPendingTools: 2,
        },
      );
      expect(bodies(out.events)).toEqual([
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/c.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts' },
      ]);
      expect(out.rules[3]).toBe(updates.tool_call_update.rules.closed);
    },
  );

  test(
    'the finished ids are bounded by maxPendingTools too: past it the oldest is forgotten, and a message for it ' +
      'starts a new record',
    async () => {
      const finished = (id: string) =>
        update('tool_call', { toolCallId: id, kind: 'read', status: 'completed', rawInput: { path: `${id}.ts` } });
      const out = await run(jsonl(finished('a'), finished('b'), finished('a'), finished('c'), finished('a')), {
        harness,
        cwd,
        maxPendingTools: 2,
      });
      expect(bodies(out.events).map((event) => event.path)).toEqual(['/ws/a.ts', '/ws/b.ts', '/ws/c.ts', '/ws/a.ts']);
      expect(out.rules[2]).toBe(updates.tool_call.rules.closed);
    },
  );

  test('a span longer than maxSpanBytes is emitted in parts, with a warning', async () => {
    const { events } = await run(jsonl(say('a'.repeat(6)), say('b'.repeat(6)), say('c')), {
      harness,
      maxSpanBytes: 10,
    });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'aaaaaabbbbbb' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text reached 12 bytes (maxSpanBytes is 10); emitted in parts',
      },
      { type: 'agent', message: 'c' },
    ]);
  });

  test('hostile amounts: a cost of 1e400 or below 0 is dropped, and the metrics stay valid', async () => {
    const cost = (amount: string) =>
      `{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"usage_update","used":1,"size":2,"cost":{"amount":${amount},"currency":"USD"}}}}`;
    expect((await run([cost('0.25'), cost('1e400'), cost('-1')].join('\n') + '\n', { harness })).metrics.cost).toBe(
      0.25,
    );
  });
});

describe('revision 2026-12-01b', () => {
  test('a span of only whitespace emits nothing; any other keeps its whitespace as sent (acp.md Text spans)', async () => {
    expect(await events(think('\n\n'), say(' '), think(' \t'), say('\n\nhi '))).toEqual([
      { type: 'agent', message: '\n\nhi ' },
    ]);
  });

  test("plan: claude-agent-acp's TodoWrite arrives as one; consumed, no event", async () => {
    const plan = update('plan', {
      entries: [{ content: 'Read the notes', status: 'in_progress', priority: 'medium' }],
    });
    const out = await outcome(initialize('@zed-industries/claude-agent-acp'), sessionNew, plan, answer());
    expect(out.events).toEqual([]);
    expect(out.rules[2]).toBe(updates.plan.rules.consumed);
  });

  test("OpenCode's and Kilo's todowrite (kind other, rawInput.todos) is consumed; from another agent unknown", async () => {
    const todos = { todos: [{ content: 'Read the notes', status: 'pending', priority: 'high' }] };
    const fields = { kind: 'other', title: 'todowrite', rawInput: todos };
    expect(await tool(fields, { agent: 'OpenCode' })).toEqual([]);
    expect(await tool(fields, { agent: 'Kilo' })).toEqual([]);
    expect((await tool(fields, { agent: 'test-agent' })).map((event) => event.type)).toEqual(['unknown']);
  });

  describe("codex-acp's Codex commands (rawInput.parsed_cmd; shapes of test/fixtures/acp/codex-acp/)", () => {
    const exec = (script: string, parsed_cmd: unknown[], cwd = '/ws') => ({
      command: ['/bin/bash', '-lc', script],
      cwd,
      parsed_cmd,
      source: 'unified_exec_startup',
    });
    const ended = (exit_code: number) => ({ rawOutput: { exit_code, stdout: '', stderr: '' } });
    const codex = (kind: string, title: string, rawInput: unknown, status: string, exit_code: number) =>
      tool({ kind, title, rawInput }, { status, end: ended(exit_code), agent: 'codex-acp' });

    test('a search that matched nothing ends failed with exit code 1: is_success true', async () => {
      expect(
        await codex(
          'search',
          'Search zzz',
          exec('rg -n zzz', [{ type: 'search', cmd: 'rg -n zzz', query: 'zzz', path: null }]),
          'failed',
          1,
        ),
      ).toEqual([{ type: 'search', query: 'zzz', is_success: true }]);
      // Exit 2 is an error.
      expect(
        await codex(
          'search',
          'Search zzz in src',
          exec('rg -n zzz src', [{ type: 'search', cmd: 'rg -n zzz src', query: 'zzz', path: 'src' }]),
          'failed',
          2,
        ),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: false }]);
    });

    test("paths from the script joined onto its cd, not Codex's shortened display path; lines from the cmd", async () => {
      expect(
        await codex(
          'search',
          'Search greet in webview',
          exec('cd pkg && rg -n greet webview/src', [
            { type: 'search', cmd: 'rg -n greet webview/src', query: 'greet', path: 'webview' },
          ]),
          'completed',
          0,
        ),
      ).toEqual([{ type: 'search', query: 'greet', path: '/ws/pkg/webview/src', is_success: true }]);
      expect(
        await codex(
          'read',
          'Read a.ts',
          exec("sed -n '1,5p' src/a.ts", [
            { type: 'read', cmd: "sed -n '1,5p' src/a.ts", name: 'a.ts', path: 'src/a.ts' },
          ]),
          'completed',
          0,
        ),
      ).toEqual([{ type: 'read', path: '/ws/src/a.ts', start_line: 1, end_line: 5, is_success: true }]);
      expect(
        await codex(
          'search',
          'List files',
          exec('ls -la', [{ type: 'list_files', cmd: 'ls -la', path: null }], '/ws/./pkg/'),
          'completed',
          0,
        ),
      ).toEqual([{ type: 'list', is_success: true }]);
    });

    test('one event per entry, in order; an unknown entry makes the whole call one command', async () => {
      expect(
        await codex(
          'read',
          'Read a.ts, b.ts',
          exec('cat a.ts && cat b.ts', [
            { type: 'read', cmd: 'cat a.ts', name: 'a.ts', path: 'a.ts' },
            { type: 'read', cmd: 'cat b.ts', name: 'b.ts', path: 'b.ts' },
          ]),
          'completed',
          1,
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: false },
        { type: 'read', path: '/ws/b.ts', is_success: false },
      ]);
      expect(
        await codex(
          'execute',
          'npm test',
          exec('npm test', [{ type: 'unknown', cmd: 'npm test' }], '/ws/pkg/'),
          'completed',
          3,
        ),
      ).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws/pkg', exit_code: 3, is_success: false },
      ]);
    });
  });

  test('an argv [SHELL, -c | -lc, SCRIPT] is its SCRIPT, even one the shell rules cannot read', async () => {
    expect(await tool({ kind: 'execute', rawInput: { command: ['/bin/bash', '-lc', 'echo $(date) # now'] } })).toEqual([
      { type: 'command', command: 'echo $(date) # now', is_success: true },
    ]);
    // Not one of Codex's shell names: joined as a command line.
    expect(await tool({ kind: 'execute', rawInput: { command: ['fish', '-c', 'ls'] } })).toEqual([
      { type: 'command', command: 'fish -c ls', is_success: true },
    ]);
  });

  test('a search exiting 1 succeeds whatever the status, for every agent (Kilo, OpenCode: metadata.exit)', async () => {
    for (const agent of ['Kilo', 'OpenCode', 'test-agent']) {
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn zzz src', cwd: '/ws' } },
          { status: 'failed', end: { rawOutput: { output: '', metadata: { exit: 1 } } }, agent },
        ),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: true }]);
    }
  });
});
