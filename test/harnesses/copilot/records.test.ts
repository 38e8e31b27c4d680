/**
 * copilot.md's raw event stream rows for messages, tool execution and subagents, and its consumed records
 * (one test per row).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/copilot/correlate.js';
import { consumedRecords } from '../../../lib/harnesses/copilot/records.js';
import { bodies, fixturePath, jsonl, run } from '../../helpers.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';
import { harness, cwd, event, message, start, complete, call, events, rules } from './lines.js';

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
