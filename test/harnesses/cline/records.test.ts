/** cline.md's raw event stream and team_event tables, one test per row. */
import { describe, expect, test } from 'vitest';
import { agentEvents, records, teamEvents } from '../../../lib/harnesses/cline/correlate.js';
import { ruleNames } from '../../../lib/kernel/record-table.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, line, agent, team, text, result, events } from './lines.js';

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
