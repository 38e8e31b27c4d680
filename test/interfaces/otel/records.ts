/** Hand-written trace records that exercise every rule of the OTel sink, and the spans they must become. */
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import type { PlainSpan } from './spans.js';

const S = 'session-1';
/** 2026-11-30T10:00:0n.000Z, as a record's `at` and as the span's ms. */
export const T = (n: number) => `2026-11-30T10:00:0${n}.000Z`;
export const ms = (n: number) => Date.parse(T(n));
export const harness = (n: number) => ({ at: T(n), at_source: 'harness' as const });
export const observed = (n: number) => ({ at: T(n), at_source: 'observed' as const });
const stamp = { timestamp: T(0), session_id: S };

/** A run with every rule's case: a foreground and a background subagent, failures, late and unresolved calls. */
export const records: TraceRecord[] = [
  { kind: 'run_started', v: 1, harness: 'claude-code', ...observed(0) },
  { kind: 'event', seq: 1, event: { type: 'agent', ...stamp, message: 'Delegating.' } },
  {
    kind: 'model_call',
    model_call_id: 'msg_1',
    model: 'claude-opus-5-5',
    tokens: { input: 100, output: 30, cache_read: 20, cache_write: 5, reasoning: 7 },
    cost: 0.01,
    started_at: T(1),
    started_at_source: 'harness',
    ...harness(2),
  },
  { kind: 'call_started', call_id: 'toolu_A', tool: 'Agent', ...harness(2) },
  {
    kind: 'agent_started',
    agent_id: 'toolu_A',
    call_id: 'toolu_A',
    native_id: 'a95e18',
    name: 'general-purpose',
    ...harness(3),
  },
  { kind: 'call_started', call_id: 'toolu_R', tool: 'Bash', agent_id: 'toolu_A', ...harness(3) },
  { kind: 'call_ended', call_id: 'toolu_R', status: 'failed', agent_id: 'toolu_A', ...harness(4) },
  {
    kind: 'event',
    seq: 2,
    call_id: 'toolu_R',
    agent_id: 'toolu_A',
    event: { type: 'command', ...stamp, command: 'cat secret.txt', exit_code: 2, is_success: false },
  },
  {
    kind: 'model_call',
    model_call_id: 'msg_2',
    agent_id: 'toolu_A',
    model: 'claude-opus-5-5',
    tokens: { input: 10, output: 5 },
    ...harness(4),
  },
  { kind: 'agent_ended', agent_id: 'toolu_A', status: 'failed', ...harness(5) },
  { kind: 'call_ended', call_id: 'toolu_A', status: 'completed', ...harness(5) },
  { kind: 'call_started', call_id: 'toolu_B', tool: 'Agent', ...harness(5) },
  { kind: 'agent_started', agent_id: 'toolu_B', call_id: 'toolu_B', name: 'explore', background: true, ...harness(5) },
  { kind: 'call_ended', call_id: 'toolu_B', status: 'completed', ...harness(6) },
  // Announced only with its end, with no time of its own (Claude's stdout without trace hints).
  { kind: 'call_started', call_id: 'he:1', tool: 'Read', late: true, ...observed(7) },
  { kind: 'call_ended', call_id: 'he:1', status: 'completed', ...observed(7) },
  {
    kind: 'event',
    seq: 3,
    call_id: 'he:1',
    event: { type: 'read', ...stamp, path: '/repo/secret.txt', is_success: true },
  },
  // Announced at its end but with its real start (OpenCode's state.time.start).
  { kind: 'call_started', call_id: 'toolu_L', tool: 'Grep', late: true, ...harness(6) },
  { kind: 'call_ended', call_id: 'toolu_L', status: 'completed', ...harness(8) },
  {
    kind: 'event',
    seq: 4,
    call_id: 'toolu_L',
    event: { type: 'search', ...stamp, query: 'password', is_success: true },
  },
  { kind: 'call_started', call_id: 'toolu_U', tool: 'Bash', ...harness(8) },
  { kind: 'call_ended', call_id: 'toolu_U', status: 'unresolved', ...observed(9) },
  {
    kind: 'event',
    seq: 5,
    event: {
      type: 'usage',
      ...stamp,
      tokens: { input: 110, output: 35, cache_read: 20, cache_write: 5, reasoning: 7 },
      cost: 0.01,
    },
  },
  { kind: 'run_ended', failure: 'rate_limit', ...observed(9) },
];

const op = (name: string) => ({ 'gen_ai.operation.name': name, 'gen_ai.conversation.id': S });
const tool = (name: string, id: string) => ({
  ...op('execute_tool'),
  'gen_ai.tool.name': name,
  'gen_ai.tool.call.id': id,
});

/** What `records` become, content off. */
export const expected: PlainSpan[] = [
  {
    name: 'invoke_agent claude-code',
    kind: 'INTERNAL',
    start: ms(0),
    end: ms(9),
    status: 'ERROR',
    attributes: {
      ...op('invoke_agent'),
      'gen_ai.agent.name': 'claude-code',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      // input + cache read + cache write; output + reasoning.
      'gen_ai.usage.input_tokens': 135,
      'gen_ai.usage.output_tokens': 42,
      'gen_ai.usage.cache_read.input_tokens': 20,
      'gen_ai.usage.cache_creation.input_tokens': 5,
      'gen_ai.usage.reasoning.output_tokens': 7,
      'harness_events.cost_usd': 0.01,
      'error.type': 'rate_limit',
      'harness_events.timing': 'observed',
    },
  },
  {
    name: 'chat claude-opus-5-5',
    kind: 'CLIENT',
    parent: 'invoke_agent claude-code',
    start: ms(1),
    end: ms(2),
    attributes: {
      ...op('chat'),
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      'gen_ai.response.id': 'msg_1',
      'gen_ai.usage.input_tokens': 125,
      'gen_ai.usage.output_tokens': 37,
      'gen_ai.usage.cache_read.input_tokens': 20,
      'gen_ai.usage.cache_creation.input_tokens': 5,
      'gen_ai.usage.reasoning.output_tokens': 7,
      'harness_events.cost_usd': 0.01,
    },
  },
  {
    name: 'execute_tool Agent',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: ms(2),
    end: ms(5),
    attributes: tool('Agent', 'toolu_A'),
  },
  {
    name: 'invoke_agent general-purpose',
    kind: 'INTERNAL',
    parent: 'execute_tool Agent',
    start: ms(3),
    end: ms(5),
    status: 'ERROR',
    attributes: {
      ...op('invoke_agent'),
      'gen_ai.agent.id': 'a95e18',
      'gen_ai.agent.name': 'general-purpose',
      'gen_ai.provider.name': 'anthropic',
      'error.type': '_OTHER',
    },
  },
  {
    name: 'execute_tool Bash',
    kind: 'INTERNAL',
    parent: 'invoke_agent general-purpose',
    start: ms(3),
    end: ms(4),
    status: 'ERROR',
    attributes: {
      ...tool('Bash', 'toolu_R'),
      'error.type': '_OTHER',
      'harness_events.exit_code': 2,
      'harness_events.event_types': ['command'],
    },
  },
  {
    name: 'chat claude-opus-5-5',
    kind: 'CLIENT',
    parent: 'invoke_agent general-purpose',
    // No request marker: zero-length at its end, never a start made up.
    start: ms(4),
    end: ms(4),
    attributes: {
      ...op('chat'),
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      'gen_ai.response.id': 'msg_2',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'harness_events.timing': 'end_only',
    },
  },
  {
    name: 'execute_tool Agent',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: ms(5),
    end: ms(6),
    attributes: tool('Agent', 'toolu_B'),
  },
  {
    // Background: under the agent that launched it, linked to the call that did.
    name: 'invoke_agent explore',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    links: ['execute_tool Agent'],
    start: ms(5),
    end: ms(9),
    attributes: {
      ...op('invoke_agent'),
      'gen_ai.agent.id': 'toolu_B',
      'gen_ai.agent.name': 'explore',
      'harness_events.background': true,
      'gen_ai.provider.name': 'anthropic',
      'harness_events.outcome': 'unresolved',
      'harness_events.timing': 'observed',
    },
  },
  {
    name: 'execute_tool Grep',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: ms(6),
    end: ms(8),
    attributes: { ...tool('Grep', 'toolu_L'), 'harness_events.event_types': ['search'] },
  },
  {
    name: 'execute_tool Read',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: ms(7),
    end: ms(7),
    attributes: {
      ...tool('Read', 'he:1'),
      'harness_events.timing': 'end_only',
      'harness_events.event_types': ['read'],
    },
  },
  {
    name: 'execute_tool Bash',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: ms(8),
    end: ms(9),
    attributes: {
      ...tool('Bash', 'toolu_U'),
      'harness_events.timing': 'observed',
      'harness_events.outcome': 'unresolved',
    },
  },
];
