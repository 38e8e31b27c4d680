/**
 * One test per row of copilot.md's tables, on authored lines in Copilot 1.0.102's real shapes
 * (docs/harnesses/copilot.md, the lab captures), for the rows no capture covers (`assistant.usage`,
 * `abort`, `subagent.failed`, `session.warning`, ...) and to pin each rule alone.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/copilot/correlate.js';
import { consumedRecords } from '../../../lib/harnesses/copilot/records.js';
import { bodies, fixturePath, jsonl, run, untimed } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const harness = 'copilot';
const cwd = '/ws';
const sessionId = '58c80243-8c7d-4f1f-86d8-6352881ca8d8';

let sequence = 0;
/** A session event as Copilot writes it: type, data, id, timestamp, parentId; `extra` adds `agentId`, `ephemeral`. */
function event(type: string, data: unknown = {}, extra: Record<string, unknown> = {}) {
  sequence++;
  return {
    type,
    data,
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    timestamp: '2026-12-01T00:56:14.553Z',
    parentId: null,
    ...extra,
  };
}
function message(content: unknown, extra: Record<string, unknown> = {}) {
  return event(
    'assistant.message',
    { messageId: 'm1', content, toolRequests: [], turnId: '0', apiCallId: 'chatcmpl_0001' },
    extra,
  );
}
function start(toolCallId: string, toolName: string, args: unknown, extra: Record<string, unknown> = {}) {
  return event('tool.execution_start', { toolCallId, toolName, arguments: args, turnId: '0' }, extra);
}
function complete(toolCallId: string, success: unknown, more: Record<string, unknown> = {}) {
  return event('tool.execution_complete', { toolCallId, success, toolTelemetry: { properties: {} }, ...more });
}
function result(
  exitCode: unknown,
  usage: unknown = { premiumRequests: 0, totalApiDurationMs: 194, sessionDurationMs: 1657 },
) {
  return { type: 'result', timestamp: '2026-12-01T00:56:14.733Z', sessionId, exitCode, usage };
}
/** A call started and completed, with its completion's extra fields. */
function call(toolName: string, args: unknown, success: unknown, more: Record<string, unknown> = {}) {
  const id = `call_${++sequence}`;
  return [start(id, toolName, args), complete(id, success, more)];
}

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness, cwd })).events);
}
async function rules(...records: unknown[]) {
  return (await run(jsonl(...records), { harness, cwd })).rules;
}

describe('raw event stream', () => {
  test('assistant.message: agent with data.content; the last main-agent message is the final output', async () => {
    const { events, metrics, rules } = await run(jsonl(message('First.'), message('Second.')), { harness });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'First.' },
      { type: 'agent', message: 'Second.' },
    ]);
    expect(rules).toEqual([records['assistant.message'].rules.agent, records['assistant.message'].rules.agent]);
    expect(metrics.final_output).toBe('Second.');
  });

  test(
    'assistant.message with empty content (only ' + 'toolRequests) gives no event; without content it is unknown',
    async () => {
      const noContent = event('assistant.message', { messageId: 'm1', toolRequests: [] });
      const noData = event('assistant.message', 'text');
      const { events, rules } = await run(jsonl(message(''), noContent, noData), { harness });
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: noContent },
        { type: 'unknown', raw: noData },
      ]);
      expect(rules).toEqual([
        records['assistant.message'].rules.empty,
        records['assistant.message'].rules.malformed,
        records['assistant.message'].rules.malformed,
      ]);
    },
  );

  test("a subagent's message (with agentId) is an agent event too, but not the final output", async () => {
    const { events, metrics } = await run(
      jsonl(message('Main.'), message('From the subagent.', { agentId: 'b25eade9' })),
      { harness },
    );
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'Main.' },
      { type: 'agent', message: 'From the subagent.' },
    ]);
    expect(metrics.final_output).toBe('Main.');
  });

  test(
    'assistant.reasoning: reasoning with data.content, after the message as on the wire; empty is consumed; ' +
      'without content unknown',
    async () => {
      const reasoning = (content: unknown) => event('assistant.reasoning', { reasoningId: 'r1', content });
      const bad = reasoning(7);
      const { events, rules } = await run(jsonl(message('Text.'), reasoning('Thinking.'), reasoning(''), bad), {
        harness,
      });
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Text.' },
        { type: 'reasoning', message: 'Thinking.' },
        { type: 'unknown', raw: bad },
      ]);
      expect(rules.slice(1)).toEqual(Object.values(records['assistant.reasoning'].rules));
    },
  );

  test('tool.execution_start records the call: no event until it completes', async () => {
    const { events, rules } = await run(jsonl(start('c1', 'view', { path: '/ws/a.ts' })), { harness });
    // Never completed: emitted at the end of input with its outcome unset.
    expect(bodies(events)).toEqual([{ type: 'read', path: '/ws/a.ts' }]);
    expect(rules).toEqual([records['tool.execution_start'].rules.recorded]);
  });

  test(
    'tool.execution_start without toolCallId or toolName is unknown; a second start under a waiting id is ' + 'unknown',
    async () => {
      const noId = event('tool.execution_start', { toolName: 'view', arguments: {} });
      const noName = event('tool.execution_start', { toolCallId: 'c9', arguments: {} });
      const again = start('c1', 'bash', { command: 'ls' });
      const { events, rules } = await run(
        jsonl(noId, noName, start('c1', 'view', { path: 'a.ts' }), again, complete('c1', true)),
        { harness, cwd },
      );
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: noId },
        { type: 'unknown', raw: noName },
        { type: 'unknown', raw: again },
        { type: 'read', path: '/ws/a.ts', is_success: true },
      ]);
      expect(rules.slice(0, 4)).toEqual([
        records['tool.execution_start'].rules.malformed,
        records['tool.execution_start'].rules.malformed,
        records['tool.execution_start'].rules.recorded,
        records['tool.execution_start'].rules.repeated,
      ]);
    },
  );

  test('tool.execution_complete: the recorded call classified with data.success, in completion order', async () => {
    expect(
      await events(
        start('c1', 'view', { path: 'a.ts' }),
        start('c2', 'view', { path: 'b.ts' }),
        complete('c2', false, { error: { message: 'Path does not exist', code: 'failure' } }),
        complete('c1', true),
      ),
    ).toEqual([
      { type: 'read', path: '/ws/b.ts', is_success: false },
      { type: 'read', path: '/ws/a.ts', is_success: true },
    ]);
  });

  test('tool.execution_complete for a call never started, or without toolCallId, is unknown', async () => {
    const orphan = complete('c404', true);
    const noId = event('tool.execution_complete', { success: true });
    const { events, rules } = await run(jsonl(orphan, noId), { harness });
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: orphan },
      { type: 'unknown', raw: noId },
    ]);
    expect(rules).toEqual([
      records['tool.execution_complete'].rules.unpaired,
      records['tool.execution_complete'].rules.unpaired,
    ]);
  });

  test('a success that is not a boolean leaves success unset', async () => {
    expect(await events(...call('view', { path: 'a.ts' }, 'yes'))).toEqual([{ type: 'read', path: '/ws/a.ts' }]);
  });

  test('subagent.started: orchestration subagent_started, id = data.toolCallId, name = data.agentName', async () => {
    const started = event(
      'subagent.started',
      {
        toolCallId: 'call_0002',
        agentName: 'explore',
        agentDisplayName: 'explorer',
        agentType: 'explore',
        executionMode: 'sync',
      },
      { agentId: 'b25e' },
    );
    const { events, rules } = await run(jsonl(started), { harness });
    expect(bodies(events)).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_0002', subagent_name: 'explore' },
    ]);
    expect(rules).toEqual([records['subagent.started'].rules.orchestration]);
  });

  test('subagent.completed: orchestration subagent_completed, successful', async () => {
    const completed = event(
      'subagent.completed',
      { toolCallId: 'call_0002', agentName: 'explore', totalToolCalls: 1, totalTokens: 1930, durationMs: 189 },
      { agentId: 'b25e' },
    );
    expect(await events(completed)).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'call_0002',
        subagent_name: 'explore',
        is_success: true,
      },
    ]);
  });

  test('subagent.failed: orchestration subagent_failed, unsuccessful', async () => {
    const failed = event(
      'subagent.failed',
      { toolCallId: 'call_0002', agentName: 'explore', error: 'model call failed' },
      { agentId: 'b25e' },
    );
    expect(await events(failed)).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_failed',
        subagent_id: 'call_0002',
        subagent_name: 'explore',
        is_success: false,
      },
    ]);
  });

  test('subagent records without a toolCallId are unknown', async () => {
    const records_ = ['subagent.started', 'subagent.completed', 'subagent.failed'].map((type) =>
      event(type, { agentName: 'explore' }),
    );
    const { events, rules } = await run(jsonl(...records_), { harness });
    expect(bodies(events)).toEqual(records_.map((raw) => ({ type: 'unknown', raw })));
    expect(rules).toEqual([
      records['subagent.started'].rules.malformed,
      records['subagent.completed'].rules.malformed,
      records['subagent.failed'].rules.malformed,
    ]);
  });

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
        '{"type":"assistant.usage","data":{"outputTokens":-1,"inputTokens":1e400},"id":"u3","timestamp":"2026-12-01T00:56:14.553Z","parentId":null}';
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

describe('consumed records (copilot.md "Consumed records"): one test per row', () => {
  for (const [type, row] of Object.entries(consumedRecords)) {
    const sample = type.endsWith('*') ? `${type.slice(0, -1)}not_yet_written` : type;
    test(`${type}: ${row.handling}`, async () => {
      const { events, rules } = await run(jsonl(event(sample, { anything: true }, { ephemeral: true })), { harness });
      expect(events).toEqual([]);
      expect(rules).toEqual([row.rules.consumed]);
    });
  }

  test('a family row takes only the types it names that have no row of their own', async () => {
    expect(
      await rules(
        event('session.error', { message: 'm' }),
        event('session.brand_new', {}),
        event('mcp.brand_new', {}),
        event('mcp_app.brand_new', {}),
        event('permission', {}),
      ),
    ).toEqual([
      records['session.error'].rules.error,
      records['session.*'].rules.consumed,
      records['mcp.*'].rules.consumed,
      sharedRecords['any other type'].rules.unknown,
      sharedRecords['any other type'].rules.unknown,
    ]);
  });

  test('every event type Copilot 1.0.102 can write (event-types-1.0.102.txt) has a row of its own', () => {
    const listed = readFileSync(fixturePath('copilot/lab/event-types-1.0.102.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.split('\t')[0]!);
    expect(listed.length).toBe(152);
    expect(listed.filter((type) => !Object.hasOwn(records, type))).toEqual([]);
  });
});

describe('tools (copilot.md "Tools")', () => {
  test(
    'view: read of arguments.path; no range, [a, b], and ' + '[a, -1] (only the start); a reversed range gives none',
    async () => {
      expect(
        await events(
          ...call('view', { path: '/ws/notes.txt' }, true, { toolTelemetry: { properties: { viewType: 'file' } } }),
          ...call('view', { path: 'README.md', view_range: [1, 2] }, true),
          ...call('view', { path: 'README.md', view_range: [5, -1] }, true),
          ...call('view', { path: 'README.md', view_range: [4, 2] }, true),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/notes.txt', is_success: true },
        { type: 'read', path: '/ws/README.md', start_line: 1, end_line: 2, is_success: true },
        { type: 'read', path: '/ws/README.md', start_line: 5, is_success: true },
        { type: 'read', path: '/ws/README.md', is_success: true },
      ]);
    },
  );

  test(
    'view of a directory (telemetry viewType directory) is a list; a failed view (viewType unknown) a failed ' + 'read',
    async () => {
      expect(
        await events(
          ...call('view', { path: '/ws/src' }, true, { toolTelemetry: { properties: { viewType: 'directory' } } }),
          ...call('view', { path: '/ws/missing.txt' }, false, {
            error: { message: 'Path does not exist', code: 'failure' },
            toolTelemetry: { properties: { viewType: 'unknown' } },
          }),
        ),
      ).toEqual([
        { type: 'list', path: '/ws/src', is_success: true },
        { type: 'read', path: '/ws/missing.txt', is_success: false },
      ]);
    },
  );

  test('create, edit: write of arguments.path', async () => {
    expect(
      await events(
        ...call('create', { path: 'docs/guide.md', file_text: '# Guide' }, false, {
          error: { message: 'Parent directory does not exist', code: 'failure' },
        }),
        ...call('edit', { path: '/ws/notes.txt', old_str: 'pineapple', new_str: 'mango' }, true, {
          fileEdits: [{ path: '/ws/notes.txt', kind: 'edit' }],
        }),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/docs/guide.md', is_success: false },
      { type: 'write', path: '/ws/notes.txt', is_success: true },
    ]);
  });

  test(
    'glob, grep: search of arguments.pattern; path from path when a string (glob takes path), else from paths when ' +
      'a string or an array of exactly one',
    async () => {
      expect(
        await events(
          ...call('glob', { pattern: '**/*.ts' }, true),
          ...call('glob', { pattern: '*.md', path: 'docs' }, true),
          ...call('grep', { pattern: 'greet', paths: 'src' }, true),
          ...call('grep', { pattern: 'greet', paths: ['/ws/lib'] }, true),
          ...call('grep', { pattern: 'greet', paths: ['src', 'lib'] }, true),
          ...call('grep', { pattern: 'zzz' }, true, { result: { content: 'No matches found.' } }),
        ),
      ).toEqual([
        { type: 'search', query: '**/*.ts', is_success: true },
        { type: 'search', query: '*.md', path: '/ws/docs', is_success: true },
        { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
        { type: 'search', query: 'greet', path: '/ws/lib', is_success: true },
        { type: 'search', query: 'greet', is_success: true },
        { type: 'search', query: 'zzz', is_success: true },
      ]);
    },
  );

  test('glob or grep without a pattern is unknown, carrying both records', async () => {
    const [started, completed] = call('grep', { paths: 'src' }, true);
    expect(await events(started, completed)).toEqual([
      { type: 'unknown', raw: { execution_start: started, execution_complete: completed } },
    ]);
  });

  test(
    "bash: a command in the run's cwd with shellExecution.exitCode; success true with a non-zero exit is a " +
      'failure',
    async () => {
      expect(
        await events(
          ...call('bash', { command: "node -e 'process.exit(3)'", description: 'check' }, true, {
            shellExecution: { exitCode: 3 },
          }),
          ...call('bash', { command: 'npm test' }, true, { shellExecution: { exitCode: 0 } }),
          ...call('bash', { command: 'npm test' }, false),
        ),
      ).toEqual([
        {
          type: 'command',
          command: "node -e 'process.exit(3)'",
          working_directory: '/ws',
          exit_code: 3,
          is_success: false,
        },
        { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 0, is_success: true },
        { type: 'command', command: 'npm test', working_directory: '/ws', is_success: false },
      ]);
    },
  );

  test(
    'bash: recognized file operations (docs/contract.md); a search ending the command that exited 1 completed ' +
      'without a match',
    async () => {
      expect(
        await events(
          ...call('bash', { command: "sed -n '1,3p' notes.txt" }, true, { shellExecution: { exitCode: 0 } }),
          ...call('bash', { command: 'ls no-such-dir' }, true, { shellExecution: { exitCode: 2 } }),
          ...call('bash', { command: 'grep -rn zzz src' }, true, { shellExecution: { exitCode: 1 } }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 3, is_success: true },
        { type: 'list', path: '/ws/no-such-dir', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
      ]);
    },
  );

  test('read_bash, write_bash, stop_bash, list_bash: consumed', async () => {
    expect(
      await events(
        ...call('read_bash', { shellId: '0' }, true),
        ...call('write_bash', { shellId: '0', input: 'y' }, true),
        ...call('stop_bash', { shellId: '0' }, true),
        ...call('list_bash', {}, true),
      ),
    ).toEqual([]);
  });

  test('task: consumed when a subagent.started named it; otherwise its completion is unknown', async () => {
    const subagentStarted = event('subagent.started', { toolCallId: 't1', agentName: 'explore' }, { agentId: 'a1' });
    const lone = call('task', { name: 'explorer', agent_type: 'explore', prompt: 'look' }, true);
    expect(
      await events(
        start('t1', 'task', { name: 'explorer', agent_type: 'explore', prompt: 'look' }),
        subagentStarted,
        complete('t1', true),
        ...lone,
      ),
    ).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 't1', subagent_name: 'explore' },
      { type: 'unknown', raw: { execution_start: lone[0], execution_complete: lone[1] } },
    ]);
  });

  test('read_agent, write_agent, list_agents: consumed', async () => {
    expect(
      await events(
        ...call('read_agent', { agent_id: 'a1' }, true),
        ...call('write_agent', { agent_id: 'a1', message: 'go' }, true),
        ...call('list_agents', {}, true),
      ),
    ).toEqual([]);
  });

  test(
    'skill: the path session.skills_loaded lists for its name; else the one skill.invoked gave; else ' +
      'skills/<name>/SKILL.md',
    async () => {
      const loaded = event('session.skills_loaded', {
        skills: [
          { name: 'release-notes', path: '/ws/.github/skills/release-notes/SKILL.md', source: 'project' },
          { name: 'no-path' },
          'not a skill',
        ],
      });
      const invoked = event('skill.invoked', {
        name: 'changelog',
        path: '/home/user/.copilot/skills/changelog/SKILL.md',
        content: '...',
      });
      const { events, rules } = await run(
        jsonl(
          loaded,
          invoked,
          ...call('skill', { skill: 'release-notes' }, true),
          ...call('skill', { skill: 'changelog' }, true),
          ...call('skill', { skill: 'no-such-skill' }, false, {
            error: { message: 'Skill not found: no-such-skill', code: 'failure' },
          }),
        ),
        { harness, cwd },
      );
      expect(bodies(events)).toEqual([
        {
          type: 'skill',
          path: '/ws/.github/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        {
          type: 'skill',
          path: '/home/user/.copilot/skills/changelog/SKILL.md',
          skill_name: 'changelog',
          is_success: true,
        },
        { type: 'skill', path: '/ws/skills/no-such-skill/SKILL.md', skill_name: 'no-such-skill', is_success: false },
      ]);
      expect(rules.slice(0, 2)).toEqual([
        records['session.skills_loaded'].rules.skills,
        records['skill.invoked'].rules.skills,
      ]);
    },
  );

  test("a subagent's calls (with parentToolCallId) map like the main agent's", async () => {
    const started = start('c7', 'view', { path: '/ws/src/a.ts' }, { agentId: 'a1' });
    const completed = event(
      'tool.execution_complete',
      {
        toolCallId: 'c7',
        success: true,
        parentToolCallId: 'call_0002',
        toolTelemetry: { properties: { viewType: 'file' } },
      },
      { agentId: 'a1' },
    );
    expect(await events(started, completed)).toEqual([{ type: 'read', path: '/ws/src/a.ts', is_success: true }]);
  });

  test(
    'any other tool (sql, web_fetch, an MCP ' + 'server/tool) is unknown, carrying both records of the call',
    async () => {
      const calls = [
        call('sql', { query: 'SELECT 1' }, true),
        call('web_fetch', { url: 'https://example.com' }, true),
        call('github-mcp-server/get_commit', { sha: 'abc' }, true),
      ];
      expect(await events(...calls.flat())).toEqual(
        calls.map(([execution_start, execution_complete]) => ({
          type: 'unknown',
          raw: { execution_start, execution_complete },
        })),
      );
    },
  );
});

describe('state is bounded (docs/contract.md)', () => {
  test(
    'past maxPendingTools waiting calls, the oldest is emitted with its outcome unset; its late completion is ' +
      'unpaired',
    async () => {
      const late = complete('c1', true);
      const { events } = await run(
        jsonl(
          start('c1', 'view', { path: 'a.ts' }),
          start('c2', 'view', { path: 'b.ts' }),
          start('c3', 'view', { path: 'c.ts' }),
          late,
          complete('c2', true),
          complete('c3', true),
        ),
        { harness, cwd, maxPendingTools: 2 },
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/ws/a.ts' },
        { type: 'unknown', raw: late },
        { type: 'read', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/c.ts', is_success: true },
      ]);
    },
  );

  test('the skill paths kept are bounded by maxPendingTools: the oldest name is forgotten', async () => {
    const loaded = event('session.skills_loaded', {
      skills: [
        { name: 'one', path: '/ws/.github/skills/one/SKILL.md' },
        { name: 'two', path: '/ws/.github/skills/two/SKILL.md' },
      ],
    });
    expect(
      await run(jsonl(loaded, ...call('skill', { skill: 'one' }, true), ...call('skill', { skill: 'two' }, true)), {
        harness,
        cwd,
        maxPendingTools: 1,
      }).then((r) => bodies(r.events)),
    ).toEqual([
      { type: 'skill', path: '/ws/skills/one/SKILL.md', skill_name: 'one', is_success: true },
      { type: 'skill', path: '/ws/.github/skills/two/SKILL.md', skill_name: 'two', is_success: true },
    ]);
  });
});
