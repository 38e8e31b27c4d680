/**
 * Issue 41, OpenTelemetry export: trace records become GenAI spans (names, kinds, parents, links, times, attributes),
 * checked whole on the SDK's InMemorySpanExporter: hand-written records that exercise every rule, and the trace of
 * real captures.
 */
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { parseTraceparent, contextFromEnv, toOtel, traceEnv } from '../../../lib/interfaces/otel/index.js';
import { fromReadable, spansOf } from './spans.js';
import { expected, harness, ms, observed, records } from './records.js';

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

  test('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: the same opt-in; false wins', async () => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true');
    const withEnv = (await spansOf(records)).spans;
    expect(withEnv).toEqual((await spansOf(records, { captureContent: true })).spans);
    expect((await spansOf(records, { captureContent: false })).spans).toEqual(expected);
  });

  test("read back (clock 'harness'): observed times are the latest harness time; the run starts with it", async () => {
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

  test('bounded: past maxOpenSpans the oldest call ends unresolved, at the latest time', async () => {
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
