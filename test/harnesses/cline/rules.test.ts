/**
 * One test per row of cline.md's tables, on authored lines in Cline 3.0.65's real shapes
 * (docs/harnesses/cline.md, the lab captures), for the rows no capture covers (teams, notices, aborts,
 * zen, a cut stream) and to pin each rule alone.
 */
import { describe, expect, test } from 'vitest';
import { agentEvents, records, teamEvents } from '../../../lib/harnesses/cline/correlate.js';
import { ruleNames } from '../../../lib/kernel/record-table.js';
import { bodies, jsonl, run } from '../../helpers.js';

const harness = 'cline';
const cwd = '/ws';
const ts = '2026-12-01T20:35:26.727Z';

const line = (type: string, fields: Record<string, unknown> = {}) => ({ ts, type, ...fields });
const agent = (event: Record<string, unknown>) => line('agent_event', { event });
const team = (event: Record<string, unknown>) => line('team_event', { event });
const start = (id: string, toolName: string, input: unknown) =>
  agent({ type: 'content_start', contentType: 'tool', toolName, toolCallId: id, input });
const end = (id: string, toolName: string, output: unknown, more: Record<string, unknown> = {}) =>
  agent({ type: 'content_end', contentType: 'tool', toolName, toolCallId: id, output, ...more });
const text = (kind: 'text' | 'reasoning', value: string) =>
  agent({ type: 'content_end', contentType: kind, [kind]: value });
const delta = (kind: 'text' | 'reasoning', value: string) =>
  agent({ type: 'content_start', contentType: kind, [kind]: value });
const result = (finishReason: string, more: Record<string, unknown> = {}) =>
  line('run_result', { finishReason, iterations: 1, durationMs: 10, text: 'Final.', ...more });

async function events(...lines: unknown[]) {
  return bodies((await run(jsonl(...lines), { harness, cwd })).events);
}
/** The events of one call: its content_start and content_end. */
async function call(toolName: string, input: unknown, output: unknown, more: Record<string, unknown> = {}) {
  return events(start('call_1', toolName, input), end('call_1', toolName, output, more));
}

test('rule ids are distinct across the three tables', () => {
  const ids = ruleNames(records, agentEvents, teamEvents);
  expect(new Set(ids).size).toBe(ids.length);
});

describe('raw event stream', () => {
  test('agent_event: by event.type; without an event object it is unknown', async () => {
    const bad = line('agent_event', { event: 'x' });
    const { events: out, rules } = await run(jsonl(text('text', 'Hi.'), bad), { harness });
    expect(bodies(out)).toEqual([
      { type: 'agent', message: 'Hi.' },
      { type: 'unknown', raw: bad },
    ]);
    expect(rules).toEqual([agentEvents.content_end.rules.agent, records.agent_event.rules.malformed]);
  });

  test('hook_event: consumed', async () => {
    const hook = line('hook_event', { hookEventName: 'agent_start', agentId: 'agent_1', taskId: 'conv_1' });
    const { events: out, rules } = await run(jsonl(hook), { harness });
    expect(out).toEqual([]);
    expect(rules).toEqual([records.hook_event.rules.consumed]);
  });

  test('team_event: by event.type; without an event object it is unknown', async () => {
    const bad = line('team_event', {});
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('run_start: consumed; a non-empty sessionId is the session id', async () => {
    const withId = line('run_start', {
      providerId: 'openai-compatible',
      modelId: 'm',
      sessionId: '1796157253512_ggc01',
    });
    const { events: out, metrics } = await run(jsonl(withId, text('text', 'Hi.')), { harness });
    expect(out.map((e) => e.session_id)).toEqual(['1796157253512_ggc01']);
    expect(metrics.session_id).toBe('1796157253512_ggc01');
    const without = await run(jsonl(line('run_start', { providerId: 'p', sessionId: '' })), { harness });
    expect(without.metrics.session_id).toBeUndefined();
  });

  test('run_result completed: the metrics (final output, turns, duration), no event', async () => {
    const { events: out, metrics, rules } = await run(jsonl(result('completed')), { harness });
    expect(out).toEqual([]);
    expect(rules).toEqual([records.run_result.rules.consumed]);
    expect(metrics).toMatchObject({ ended: true, is_error: false, final_output: 'Final.', turns: 1, duration_ms: 10 });
  });

  test('run_result aborted: no event, the run ended in error', async () => {
    const { events: out, metrics } = await run(jsonl(result('aborted')), { harness });
    expect(out).toEqual([]);
    expect(metrics.is_error).toBe(true);
  });

  test('run_result failed: error with text and finishReason, once; empty text names the reason', async () => {
    expect(await events(result('max_iterations', { text: 'Stopped.' }))).toEqual([
      { type: 'error', message: 'Stopped.', code: 'max_iterations' },
    ]);
    expect(await events(result('error', { text: '' }))).toEqual([
      { type: 'error', message: 'run finished with error', code: 'error' },
    ]);
    const fatal = agent({ type: 'error', error: { message: 'Boom.' }, recoverable: false, iteration: 1 });
    const { events: out, rules } = await run(jsonl(fatal, result('error', { text: 'Boom.' })), { harness });
    expect(bodies(out)).toEqual([{ type: 'error', message: 'Boom.' }]);
    expect(rules).toEqual([agentEvents.error.rules.fatal, records.run_result.rules.repeated]);
  });

  test('run_aborted: error with message and reason', async () => {
    const aborted = line('run_aborted', { reason: 'external_abort', message: 'aborted by another client' });
    expect(await events(result('aborted'), aborted)).toEqual([
      { type: 'error', message: 'aborted by another client', code: 'external_abort' },
    ]);
    const bad = line('run_aborted', { reason: 'local_abort' });
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });

  test('run_abort_requested: warning abort requested: <reason>', async () => {
    expect(await events(line('run_abort_requested', { reason: 'sigterm' }))).toEqual([
      { type: 'warning', message: 'abort requested: sigterm', code: 'abort_requested' },
    ]);
  });

  test('team_restored: consumed', async () => {
    expect(await events(line('team_restored', { teamName: 'lab' }))).toEqual([]);
  });

  test('zen_dispatched: consumed, its sessionId is the session id', async () => {
    const zen = line('zen_dispatched', { sessionId: '1796157253512_zen01', hubUrl: 'ws://h', workspaceRoot: '/ws' });
    const { events: out, metrics } = await run(jsonl(zen), { harness });
    expect(out).toEqual([]);
    expect(metrics.session_id).toBe('1796157253512_zen01');
  });

  test(
    'error (standard error merged): error, unless one with that message ' + 'was emitted; without message, unknown',
    async () => {
      const fatal = agent({ type: 'error', error: { message: 'Incorrect API key provided.' }, recoverable: false });
      const { events: out, rules } = await run(
        jsonl(fatal, line('error', { message: 'Incorrect API key provided.' }), line('error', { message: 'Other.' })),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'error', message: 'Incorrect API key provided.' },
        { type: 'error', message: 'Other.' },
      ]);
      expect(rules.slice(1)).toEqual([records.error.rules.repeated, records.error.rules.error]);
      const bad = line('error', {});
      expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
    },
  );

  test('zen_error: error with message', async () => {
    expect(await events(line('zen_error', { sessionId: 's', message: 'hub unreachable' }))).toEqual([
      { type: 'error', message: 'hub unreachable' },
    ]);
  });

  test('a line that is not JSON: a warning, and the stream goes on', async () => {
    const { events: out } = await run('Warning: AI SDK Warning System\n' + jsonl(text('text', 'Hi.')), { harness });
    expect(bodies(out)).toEqual([
      { type: 'warning', code: 'not_json', message: 'Warning: AI SDK Warning System' },
      { type: 'agent', message: 'Hi.' },
    ]);
  });

  test('without run_result the run ended in error when an error event was emitted, and is incomplete', async () => {
    const fatal = agent({ type: 'error', error: { message: 'socket closed' }, recoverable: false });
    expect((await run(jsonl(fatal), { harness })).metrics).toMatchObject({ ended: false, is_error: true });
    expect((await run(jsonl(text('text', 'Partial ')), { harness })).metrics).toMatchObject({ ended: false });
    expect((await run(jsonl(text('text', 'Partial ')), { harness })).metrics.is_error).toBeUndefined();
  });

  test('any other type, and a line without a string type: unknown', async () => {
    const other = line('task_started', { taskId: '1' });
    expect(await events(other, { event: {} })).toEqual([
      { type: 'unknown', raw: other },
      { type: 'unknown', raw: { event: {} } },
    ]);
  });
});

describe('agent_event', () => {
  test('content_start text/reasoning: consumed while content_end restates it', async () => {
    const { events: out, rules } = await run(
      jsonl(delta('text', 'Hel'), delta('text', 'lo.'), text('text', 'Hello.')),
      {
        harness,
      },
    );
    expect(bodies(out)).toEqual([{ type: 'agent', message: 'Hello.' }]);
    expect(rules).toEqual([
      agentEvents.content_start.rules.delta,
      agentEvents.content_start.rules.delta,
      agentEvents.content_end.rules.agent,
    ]);
  });

  test(
    'content_start text/reasoning cut off by the end of input: emitted as ' + 'they stand, in the order they began',
    async () => {
      expect(await events(delta('reasoning', 'Think'), delta('reasoning', 'ing.'), delta('text', 'Partial '))).toEqual([
        { type: 'reasoning', message: 'Thinking.' },
        { type: 'agent', message: 'Partial ' },
      ]);
    },
  );

  test('pending deltas are bounded by maxSpanBytes: the rest is dropped, with a warning', async () => {
    const { events: out } = await run(jsonl(delta('text', 'abcd'), delta('text', 'efgh')), {
      harness,
      maxSpanBytes: 6,
    });
    expect(bodies(out)).toEqual([
      { type: 'agent', message: 'abcd' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text cut off by the end of input reached maxSpanBytes (6); its last 4 bytes were dropped',
      },
    ]);
  });

  test('content_start tool: recorded, no event; another contentType is unknown', async () => {
    const image = agent({ type: 'content_start', contentType: 'image' });
    const { events: out, rules } = await run(jsonl(start('call_1', 'editor', { path: 'a' }), image), { harness });
    // The call never ended: classified with success unset; without a cwd its relative path is as given.
    expect(bodies(out)).toEqual([
      { type: 'unknown', raw: image },
      { type: 'write', path: 'a' },
    ]);
    expect(rules).toEqual([agentEvents.content_start.rules.tool, agentEvents.content_start.rules.malformedStart]);
  });

  test('an id announced twice while the first waits: the first is given unresolved, the second gets the end', async () => {
    expect(
      await events(
        start('call_1', 'editor', { path: '/ws/a.ts', new_text: 'x' }),
        start('call_1', 'editor', { path: '/ws/b.ts', new_text: 'y' }),
        end('call_1', 'editor', { success: true }),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/a.ts' },
      { type: 'write', path: '/ws/b.ts', is_success: true },
    ]);
  });

  test('content_start spawn_agent: subagent_started at once; a pending one adds nothing at the end', async () => {
    expect(await events(start('call_9', 'spawn_agent', { task: 'x' }))).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_9' },
    ]);
  });

  test('content_update: consumed', async () => {
    const update = agent({ type: 'content_update', contentType: 'tool', toolName: 'run_commands', toolCallId: 'c' });
    expect(await events(update)).toEqual([]);
  });

  test('content_end text: agent exactly as sent; empty or whitespace: nothing', async () => {
    expect(await events(text('text', '  Two  lines\n'), text('text', ' \n'), text('text', ''))).toEqual([
      { type: 'agent', message: '  Two  lines\n' },
    ]);
  });

  test('content_end reasoning: reasoning on the same terms', async () => {
    expect(await events(text('reasoning', 'Why.'), text('reasoning', ''))).toEqual([
      { type: 'reasoning', message: 'Why.' },
    ]);
  });

  test('content_end tool: the tool table; a call never announced is unknown', async () => {
    const orphan = end('call_7', 'editor', { success: true });
    expect(await events(orphan)).toEqual([{ type: 'unknown', raw: orphan }]);
  });

  test('content_end media: unknown', async () => {
    const media = agent({ type: 'content_end', contentType: 'media', media: { url: 'x' } });
    expect(await events(media)).toEqual([{ type: 'unknown', raw: media }]);
  });

  test('usage: input is inputTokens less both cache classes, never below 0; cost above 0; metrics summed', async () => {
    const { events: out, metrics } = await run(
      jsonl(
        agent({
          type: 'usage',
          inputTokens: 3000,
          outputTokens: 120,
          cacheReadTokens: 1000,
          cacheWriteTokens: 500,
          cost: 0.5,
        }),
        agent({ type: 'usage', inputTokens: 10, outputTokens: 1, cacheReadTokens: 20, cost: 0 }),
      ),
      { harness },
    );
    expect(bodies(out)).toEqual([
      { type: 'usage', tokens: { input: 1500, output: 120, cache_read: 1000, cache_write: 500 }, cost: 0.5 },
      { type: 'usage', tokens: { input: 0, output: 1, cache_read: 20 } },
    ]);
    expect(metrics.tokens).toEqual({ input: 1500, output: 121, cache_read: 1020, cache_write: 500 });
    expect(metrics.cost).toBe(0.5);
  });

  test('usage with every count 0 and no cost: no event', async () => {
    const zero = agent({ type: 'usage', inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cost: 0, totalCost: 0 });
    const { events: out, rules } = await run(jsonl(zero), { harness });
    expect(out).toEqual([]);
    expect(rules).toEqual([agentEvents.usage.rules.zero]);
  });

  test('notice status: consumed; recovery and stop: warnings with their reason; other: unknown', async () => {
    const other = agent({ type: 'notice', noticeType: 'banner', message: 'x' });
    expect(
      await events(
        agent({ type: 'notice', noticeType: 'status', message: 'auto-compacting', reason: 'auto_compaction' }),
        agent({ type: 'notice', noticeType: 'recovery', message: 'context window exceeded', reason: 'overflow' }),
        agent({ type: 'notice', noticeType: 'stop', message: 'Stopping.' }),
        other,
      ),
    ).toEqual([
      { type: 'warning', message: 'context window exceeded', code: 'overflow' },
      { type: 'warning', message: 'Stopping.' },
      { type: 'unknown', raw: other },
    ]);
  });

  test('error recoverable false: error with errorClass; true: warning; without a message: unknown', async () => {
    const bad = agent({ type: 'error', error: {}, recoverable: false });
    expect(
      await events(
        agent({
          type: 'error',
          error: { message: 'Too long.' },
          errorClass: 'context_window_exceeded',
          recoverable: false,
        }),
        agent({ type: 'error', error: { message: '2 tool call(s) failed' }, recoverable: true }),
        bad,
      ),
    ).toEqual([
      { type: 'error', message: 'Too long.', code: 'context_window_exceeded' },
      { type: 'warning', message: '2 tool call(s) failed' },
      { type: 'unknown', raw: bad },
    ]);
  });

  test('iteration_start, iteration_end, done: consumed', async () => {
    expect(
      await events(
        agent({ type: 'iteration_start', iteration: 1 }),
        agent({ type: 'iteration_end', iteration: 1, hadToolCalls: false, toolCallCount: 0 }),
        agent({ type: 'done', reason: 'completed', text: 'Hi.', iterations: 1 }),
      ),
    ).toEqual([]);
  });

  test('any other event.type: unknown', async () => {
    const other = agent({ type: 'checkpoint', id: 1 });
    expect(await events(other)).toEqual([{ type: 'unknown', raw: other }]);
  });
});

describe('team_event', () => {
  test('teammate_spawned: subagent_started with the agentId', async () => {
    expect(await events(team({ type: 'teammate_spawned', agentId: 'researcher', role: 'r' }))).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'researcher' },
    ]);
  });

  test('teammate_shutdown: subagent_completed once per agentId', async () => {
    expect(
      await events(
        team({ type: 'teammate_shutdown', agentId: 'researcher', reason: 'done' }),
        team({ type: 'teammate_shutdown', agentId: 'researcher', reason: 'session_complete' }),
      ),
    ).toEqual([{ type: 'orchestration', action: 'subagent_completed', subagent_id: 'researcher', is_success: true }]);
  });

  test(
    "agent_event: the teammate's event mapped like the main agent's; its " +
      'usage consumed; calls carry the team lines',
    async () => {
      const teamStart = team({
        type: 'agent_event',
        agentId: 'researcher',
        event: { type: 'content_start', contentType: 'tool', toolName: 'team_status', toolCallId: 't1', input: {} },
      });
      const teamEnd = team({
        type: 'agent_event',
        agentId: 'researcher',
        event: { type: 'content_end', contentType: 'tool', toolName: 'team_status', toolCallId: 't1', output: {} },
      });
      const { events: out, rules } = await run(
        jsonl(
          team({
            type: 'agent_event',
            agentId: 'researcher',
            event: { type: 'content_end', contentType: 'text', text: 'Found it.' },
          }),
          team({
            type: 'agent_event',
            agentId: 'researcher',
            event: { type: 'usage', inputTokens: 10, outputTokens: 1 },
          }),
          teamStart,
          teamEnd,
        ),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'agent', message: 'Found it.' },
        { type: 'unknown', raw: { content_start: teamStart, content_end: teamEnd } },
      ]);
      expect(rules).toEqual([
        agentEvents.content_end.rules.agent,
        teamEvents.agent_event.rules.teammateUsage,
        agentEvents.content_start.rules.tool,
        agentEvents.content_end.rules.toolEnd,
      ]);
    },
  );

  test('task_start, run_completed and the other team bookkeeping: consumed', async () => {
    expect(
      await events(
        team({ type: 'task_start', agentId: 'r', message: 'go' }),
        team({ type: 'run_completed', runId: '1' }),
        team({ type: 'outcome_finalized', outcomeId: 'o' }),
      ),
    ).toEqual([]);
  });

  test('any other team event: unknown', async () => {
    const other = team({ type: 'team_disbanded' });
    expect(await events(other)).toEqual([{ type: 'unknown', raw: other }]);
  });
});

describe('tools', () => {
  test(
    'read_files: every input shape; ranges; entry success; a request ' + 'without a path makes the call unknown',
    async () => {
      const output = [{ success: true }, { success: false }, { success: true }];
      expect(
        await call(
          'read_files',
          { files: ['a.ts', { file_path: 'b.ts', start_line: 3 }, { filePath: 'c.ts', end_line: 5 }] },
          output,
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts', start_line: 3, is_success: false },
        { type: 'read', path: '/ws/c.ts', start_line: 1, end_line: 5, is_success: true },
      ]);
      expect(await call('read_files', { paths: '/abs/x', file_paths: undefined }, [])).toEqual([
        { type: 'read', path: '/abs/x' },
      ]);
      expect(await call('read_files', 'x.ts', [{ success: true }])).toEqual([
        { type: 'read', path: '/ws/x.ts', is_success: true },
      ]);
      expect(
        await call('read_files', [{ path: 'y.ts', start_line: null, end_line: null }], [{ success: true }]),
      ).toEqual([{ type: 'read', path: '/ws/y.ts', is_success: true }]);
      expect((await call('read_files', { files: [{ path: 'a' }, { nope: 1 }] }, [])).map((e) => e.type)).toEqual([
        'unknown',
      ]);
    },
  );

  test('a call that failed as a whole (error, or output.error) fails every event', async () => {
    expect(await call('read_files', { files: ['a', 'b'] }, [], { error: 'boom' })).toEqual([
      { type: 'read', path: '/ws/a', is_success: false },
      { type: 'read', path: '/ws/b', is_success: false },
    ]);
    expect(await call('editor', { path: 'a', new_text: 'x' }, { error: 'Invalid input' })).toEqual([
      { type: 'write', path: '/ws/a', is_success: false },
    ]);
  });

  test('search_codebase: one search per query, no path', async () => {
    expect(await call('search_codebase', { queries: ['a', 'b'] }, [{ success: true }, { success: true }])).toEqual([
      { type: 'search', query: 'a', is_success: true },
      { type: 'search', query: 'b', is_success: true },
    ]);
    expect(await call('search_codebase', { queries: 'c' }, [{ success: true }])).toEqual([
      { type: 'search', query: 'c', is_success: true },
    ]);
  });

  test('run_commands: one entry per command; exit codes from the entries; {command, args} rendered', async () => {
    const output = [
      { query: 'make', result: '[Command exited with code 2]', error: 'Command exited with code 2', success: false },
      { query: 'sleep 60', error: 'Command timed out after 30000ms', success: false },
      { success: true },
    ];
    expect(
      await call(
        'run_commands',
        { commands: ['make', 'sleep 60', { command: 'echo', args: ['a b', 'say "hi"', 'a"b', 'c'] }] },
        output,
      ),
    ).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', exit_code: 2, is_success: false },
      { type: 'command', command: 'sleep 60', working_directory: '/ws', is_success: false },
      // Quoted for whitespace, and for a `"` alone (`a"b`).
      { type: 'command', command: 'echo "a b" "say \\"hi\\"" "a\\"b" c', working_directory: '/ws', is_success: true },
    ]);
    expect(await call('run_commands', { command: 'make' }, [{ success: true }])).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
    ]);
    expect(await call('run_commands', { cmd: 'make' }, [{ success: true }])).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
    ]);
    expect(await call('run_commands', ['make', 'make test'], [{ success: true }])).toEqual([
      { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
      { type: 'command', command: 'make test', working_directory: '/ws' },
    ]);
    expect(await call('run_commands', { command: 'node', args: ['-v'] }, [{ success: true }])).toEqual([
      { type: 'command', command: 'node -v', working_directory: '/ws', is_success: true },
    ]);
    expect((await call('run_commands', { commands: [42] }, [])).map((e) => e.type)).toEqual(['unknown']);
  });

  test('editor: write; insert_line >= 1 gives start_line', async () => {
    expect(await call('editor', { path: 'a', old_text: 'x', new_text: 'y' }, { success: true })).toEqual([
      { type: 'write', path: '/ws/a', is_success: true },
    ]);
    expect(await call('editor', { path: 'a', new_text: 'y', insert_line: 4 }, { success: false })).toEqual([
      { type: 'write', path: '/ws/a', start_line: 4, is_success: false },
    ]);
    expect(await call('editor', { path: 'a', new_text: 'y', insert_line: 0 }, {})).toEqual([
      { type: 'write', path: '/ws/a', is_success: true },
    ]);
  });

  test('apply_patch: one write per named file (a bare string too); a patch naming none is unknown', async () => {
    const patch = '*** Begin Patch\n*** Delete File: old.ts\n*** Update File: a.ts\n*** Move to: b.ts\n*** End Patch';
    expect(await call('apply_patch', patch, { success: true })).toEqual([
      { type: 'write', path: '/ws/old.ts', is_success: true },
      { type: 'write', path: '/ws/a.ts', is_success: true },
      { type: 'write', path: '/ws/b.ts', is_success: true },
    ]);
    expect((await call('apply_patch', { input: '*** Begin Patch\n*** End Patch' }, {})).map((e) => e.type)).toEqual([
      'unknown',
    ]);
  });

  test('skills: skill with the named SKILL.md under the cwd; not offered: false', async () => {
    expect(await call('skills', { skill: 'release-notes' }, '<command-name>release-notes</command-name>')).toEqual([
      { type: 'skill', path: '/ws/skills/release-notes/SKILL.md', skill_name: 'release-notes', is_success: true },
    ]);
    expect(await call('skills', { skill: 'x' }, { error: 'no such tool' })).toEqual([
      { type: 'skill', path: '/ws/skills/x/SKILL.md', skill_name: 'x', is_success: false },
    ]);
  });

  test('spawn_agent: subagent_completed, or subagent_failed for a finishReason other than completed', async () => {
    expect(await call('spawn_agent', { task: 't' }, { text: 'ok', finishReason: 'completed' })).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_1' },
      { type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_1', is_success: true },
    ]);
    expect((await call('spawn_agent', { task: 't' }, { text: 'Boom.', finishReason: 'error' }))[1]).toEqual({
      type: 'orchestration',
      action: 'subagent_failed',
      subagent_id: 'call_1',
      is_success: false,
    });
  });

  test('team_spawn_teammate, team_shutdown_teammate, submit_and_exit: consumed', async () => {
    for (const name of ['team_spawn_teammate', 'team_shutdown_teammate', 'submit_and_exit'])
      expect(await call(name, { agentId: 'r' }, { status: 'spawned' })).toEqual([]);
  });

  test('team_run_task, fetch_web_content, ask_question, MCP tools: unknown carrying both lines', async () => {
    for (const name of ['team_run_task', 'fetch_web_content', 'ask_question', 'lab__lookup_tile']) {
      const lines = [start('c', name, {}), end('c', name, { content: [] })];
      expect(await events(...lines)).toEqual([
        { type: 'unknown', raw: { content_start: lines[0], content_end: lines[1] } },
      ]);
    }
  });
});
