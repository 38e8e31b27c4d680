/**
 * Issue 41, OpenTelemetry export: trace records become GenAI spans (names, kinds, parents, links, times, attributes),
 * checked whole on the SDK's InMemorySpanExporter: hand-written records that exercise every rule, and the trace of
 * real captures.
 */
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { parseTraceparent, contextFromEnv, toOtel, traceEnv } from '../../../lib/interfaces/otel/index.js';
import type { TraceRecord } from '../../../lib/kernel/trace.js';
import { fromReadable, plain, spansOf, type PlainSpan } from './spans.js';

const S = 'session-1';
/** 2026-11-30T10:00:0n.000Z, as a record's `at` and as the span's ms. */
const T = (n: number) => `2026-11-30T10:00:0${n}.000Z`;
const ms = (n: number) => Date.parse(T(n));
const harness = (n: number) => ({ at: T(n), at_source: 'harness' as const });
const observed = (n: number) => ({ at: T(n), at_source: 'observed' as const });
const stamp = { timestamp: T(0), session_id: S };

/** A run with every rule's case: a foreground and a background subagent, failures, late and unresolved calls. */
const records: TraceRecord[] = [
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
const expected: PlainSpan[] = [
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

afterEach(() => vi.unstubAllEnvs());

describe('trace records to GenAI spans', () => {
  test('every rule: the tree, kinds, links, harness and observed times, usage, failures, content off', async () => {
    expect((await spansOf(records)).spans).toEqual(expected);
  });

  test('captureContent: the commands, paths and queries the calls became, on their spans', async () => {
    const { spans } = await spansOf(records, { captureContent: true });
    const content = spans.flatMap(({ name, attributes }) =>
      Object.entries(attributes)
        .filter(([key]) => /command|path|query/.test(key))
        .map((entry) => [name, ...entry]),
    );
    expect(content).toEqual([
      ['execute_tool Bash', 'harness_events.command', 'cat secret.txt'],
      ['execute_tool Grep', 'harness_events.query', 'password'],
      ['execute_tool Read', 'harness_events.path', '/repo/secret.txt'],
    ]);
  });

  test('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true is the same opt-in; an explicit false wins', async () => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true');
    const withEnv = (await spansOf(records)).spans;
    expect(withEnv).toEqual((await spansOf(records, { captureContent: true })).spans);
    expect((await spansOf(records, { captureContent: false })).spans).toEqual(expected);
  });

  test("read back (clock 'harness'): observed times take the latest harness time, the run starts with its first span", async () => {
    const { spans } = await spansOf(
      [
        { kind: 'run_started', v: 1, harness: 'opencode', at: '2026-12-05T09:00:00.000Z', at_source: 'observed' },
        { kind: 'call_started', call_id: 'c1', tool: 'bash', ...harness(1) },
        { kind: 'call_ended', call_id: 'c1', status: 'completed', ...harness(2) },
        {
          kind: 'call_started',
          call_id: 'c2',
          tool: 'read',
          late: true,
          at: '2026-12-05T09:00:01.000Z',
          at_source: 'observed',
        },
        {
          kind: 'call_ended',
          call_id: 'c2',
          status: 'completed',
          at: '2026-12-05T09:00:01.000Z',
          at_source: 'observed',
        },
        { kind: 'model_call', model: 'anthropic/claude-sonnet-5', ...harness(3) },
        { kind: 'run_ended', at: '2026-12-05T09:00:02.000Z', at_source: 'observed' },
      ],
      { clock: 'harness' },
    );
    expect(
      spans.map(({ name, start, end, parent, attributes }) => [
        name,
        start,
        end,
        parent,
        attributes['gen_ai.provider.name'],
      ]),
    ).toEqual([
      ['invoke_agent opencode', ms(1), ms(3), undefined, 'anthropic'],
      ['execute_tool bash', ms(1), ms(2), 'invoke_agent opencode', undefined],
      ['execute_tool read', ms(2), ms(2), 'invoke_agent opencode', undefined],
      ['chat anthropic/claude-sonnet-5', ms(3), ms(3), 'invoke_agent opencode', 'anthropic'],
    ]);
  });

  test('spans held open are bounded: past maxOpenSpans the oldest call ends unresolved at the latest time', async () => {
    const { spans } = await spansOf(
      [
        { kind: 'run_started', v: 1, harness: 'codex', ...observed(0) },
        { kind: 'call_started', call_id: 'c1', tool: 'shell', ...observed(1) },
        { kind: 'call_started', call_id: 'c2', tool: 'shell', ...observed(2) },
        { kind: 'call_started', call_id: 'c3', tool: 'shell', ...observed(3) },
      ],
      { maxOpenSpans: 2 },
    );
    expect(
      spans.map(({ attributes, start, end }) => [
        attributes['gen_ai.tool.call.id'] ?? 'run',
        start,
        end,
        attributes['harness_events.outcome'],
      ]),
    ).toEqual([
      // Its input ended without run_ended: the run is unresolved too, at the last time read.
      ['run', ms(0), ms(3), 'unresolved'],
      ['c1', ms(1), ms(3), 'unresolved'],
      ['c2', ms(2), ms(3), 'unresolved'],
      ['c3', ms(3), ms(3), 'unresolved'],
    ]);
  });
});

describe('TRACEPARENT', () => {
  test('parsed: the W3C form only (version ff, bad ids and extra fields on version 00 are none)', () => {
    const id = '0af7651916cd43dd8448eb211c80319c';
    expect(parseTraceparent(`00-${id}-b7ad6b7169203331-01`)).toEqual({
      traceId: id,
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
    for (const bad of [
      `ff-${id}-b7ad6b7169203331-01`,
      `00-${'0'.repeat(32)}-b7ad6b7169203331-01`,
      `00-${id}-0000000000000000-01`,
      `00-${id}-b7ad6b7169203331-01-extra`,
      'garbage',
      undefined,
    ])
      expect(parseTraceparent(bad), String(bad)).toBeUndefined();
    expect(parseTraceparent(`cc-${id}-b7ad6b7169203331-01-future`)?.spanId).toBe('b7ad6b7169203331');
  });

  test("the run span is TRACEPARENT's child, and what a spawned CLI gets names the run span", async () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const sink = toOtel({
      tracerProvider: provider,
      kind: 'client',
      harness: 'gemini',
      parent: contextFromEnv({ TRACEPARENT: parent, TRACESTATE: 'vendor=x' }),
    });
    // Before any record, as `run` does before it spawns the CLI.
    const env = sink.traceEnv();
    sink.end(records[0]);
    await new Promise((resolve) => sink.on('finish', resolve));
    const [run] = exporter.getFinishedSpans().map(fromReadable);
    expect(run).toMatchObject({
      name: 'invoke_agent claude-code',
      kind: 'CLIENT',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      parentSpanId: 'b7ad6b7169203331',
      attributes: { 'gen_ai.agent.name': 'claude-code', 'harness_events.outcome': 'unresolved' },
    });
    expect(env).toEqual({ TRACEPARENT: `00-${run!.traceId}-${run!.spanId}-01`, TRACESTATE: 'vendor=x' });
    await provider.shutdown();
  });

  test('traceEnv of a span with no trace state: TRACEPARENT alone', () => {
    const span = trace.wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 0 });
    expect(traceEnv(span)).toEqual({ TRACEPARENT: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-00` });
    expect(contextFromEnv({})).toBeUndefined();
    expect(
      trace.getSpanContext(contextFromEnv({ TRACEPARENT: traceEnv(span).TRACEPARENT }) ?? ROOT_CONTEXT),
    ).toMatchObject({ spanId: 'b'.repeat(16) });
  });
});

export { plain };
