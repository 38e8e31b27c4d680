/**
 * Issue 41, OpenTelemetry export on real captures: the spans of Claude Code's subagent capture and of OpenCode's,
 * whole. Times the library observed while the test ran are shown as 'observed' (they differ on every run); the
 * harness's own times are kept.
 */
import { expect, test } from 'vitest';
import { traceFixture } from '../../helpers.js';
import { claudeSubagent } from './expected.js';
import { byName, spansOf, type PlainSpan } from './spans.js';

/** The spans of a capture's trace (read back: `clock: 'harness'`), observed times replaced. */
async function captureSpans(relative: string, harness: 'claude-code' | 'opencode') {
  const before = Date.now();
  const records = await traceFixture(relative, { harness, cwd: '/home/user/project' });
  const { spans } = await spansOf(records, { clock: 'harness' });
  const shown = (ms: number) => (ms >= before ? 'observed' : new Date(ms).toISOString());
  return byName(spans).map((span): Omit<PlainSpan, 'start' | 'end'> & { start: string; end: string } => ({
    ...span,
    start: shown(span.start),
    end: shown(span.end),
  }));
}

test('Claude Code, lab/subagent.jsonl: the run, the subagent and its Read, in one trace', async () => {
  expect(await captureSpans('claude-code/lab/subagent.jsonl', 'claude-code')).toEqual(claudeSubagent('INTERNAL'));
});

const OC = 'ses_dd5c69f20ffeEEi5a22fnoxdv0';

test('OpenCode, lab/task-subagent.jsonl: the task call at its own times, its subagent, a chat per step', async () => {
  expect(await captureSpans('opencode/lab/task-subagent.jsonl', 'opencode')).toEqual([
    {
      name: 'chat',
      kind: 'CLIENT',
      parent: 'invoke_agent opencode',
      start: '2026-11-30T02:12:16.404Z',
      end: '2026-11-30T02:12:17.885Z',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'opencode',
        'gen_ai.usage.input_tokens': 1200,
        'gen_ai.usage.output_tokens': 40,
        'gen_ai.usage.cache_read.input_tokens': 0,
        'gen_ai.usage.cache_creation.input_tokens': 0,
        'gen_ai.usage.reasoning.output_tokens': 0,
        'gen_ai.response.id': 'msg_22a3965d70012S5uz3GoRRPcm6',
        'harness_events.cost_usd': 0,
        'gen_ai.conversation.id': OC,
      },
    },
    {
      name: 'chat',
      kind: 'CLIENT',
      parent: 'invoke_agent opencode',
      start: '2026-11-30T02:12:18.135Z',
      end: '2026-11-30T02:12:18.286Z',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'opencode',
        'gen_ai.usage.input_tokens': 1200,
        'gen_ai.usage.output_tokens': 40,
        'gen_ai.usage.cache_read.input_tokens': 0,
        'gen_ai.usage.cache_creation.input_tokens': 0,
        'gen_ai.usage.reasoning.output_tokens': 0,
        'gen_ai.response.id': 'msg_22a397388001oXlUuvLf4aQyLU',
        'harness_events.cost_usd': 0,
        'gen_ai.conversation.id': OC,
      },
    },
    {
      name: 'execute_tool task',
      kind: 'INTERNAL',
      parent: 'invoke_agent opencode',
      start: '2026-11-30T02:12:16.356Z',
      end: '2026-11-30T02:12:17.764Z',
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'task',
        'gen_ai.tool.call.id': 'call_0066',
        'gen_ai.conversation.id': OC,
        'harness_events.event_types': ['orchestration'],
      },
    },
    {
      name: 'invoke_agent explore',
      kind: 'INTERNAL',
      parent: 'execute_tool task',
      start: '2026-11-30T02:12:16.356Z',
      end: '2026-11-30T02:12:17.764Z',
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.id': 'ses_dd5c692a3ffe6oj7YNnaY437mI',
        'gen_ai.agent.name': 'explore',
        'gen_ai.conversation.id': OC,
        'gen_ai.provider.name': 'opencode',
      },
    },
    {
      name: 'invoke_agent opencode',
      kind: 'INTERNAL',
      start: '2026-11-30T02:12:16.356Z',
      end: '2026-11-30T02:12:18.286Z',
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'opencode',
        'gen_ai.conversation.id': OC,
        'gen_ai.provider.name': 'opencode',
        'gen_ai.usage.input_tokens': 2400,
        'gen_ai.usage.output_tokens': 80,
        'gen_ai.usage.cache_read.input_tokens': 0,
        'gen_ai.usage.cache_creation.input_tokens': 0,
        'gen_ai.usage.reasoning.output_tokens': 0,
        'harness_events.cost_usd': 0,
        'harness_events.timing': 'observed',
      },
    },
  ]);
});
