/**
 * Limits and hostile bytes: a 200 MB line, invalid UTF-8, NUL bytes, lone surrogates, a lone
 * `\r`, prototype-polluting keys; for every harness.
 */
import { expect, test } from 'vitest';
import { createNormalizer, harnesses, type HarnessEvent } from '../../lib/index.js';
import { bodies, jsonl, run } from '../helpers.js';

const names = [...harnesses.keys()];

test(
  'a 200 MB line passes through bounded memory as a ' + 'line_too_long warning, and the next line is intact',
  async () => {
    const normalizer = createNormalizer({ harness: 'claude-code', strict: true });
    const events: HarnessEvent[] = [];
    normalizer.on('data', (event: HarnessEvent) => events.push(event));
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    const before = process.memoryUsage();
    let peak = 0;
    const head = '{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"';
    const tail = '"}]}}';
    normalizer.write(head);
    for (let i = 0; i < 200; i++) {
      if (!normalizer.write(chunk)) await new Promise((resolve) => normalizer.once('drain', resolve));
      const now = process.memoryUsage();
      peak = Math.max(peak, now.arrayBuffers - before.arrayBuffers + now.heapUsed - before.heapUsed);
    }
    normalizer.end(`${tail}\n{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"after"}]}}\n`);
    await new Promise((resolve) => normalizer.on('end', resolve));
    const length = head.length + 200 * 1024 * 1024 + tail.length;
    expect(bodies(events)).toEqual([
      {
        type: 'warning',
        code: 'line_too_long',
        message: `line 1 is ${length} bytes long (maxLineBytes is 67108864); its content was skipped`,
      },
      { type: 'agent', message: 'after' },
    ]);
    // Held up to the 64 MiB limit, then dropped: never the whole 200 MB.
    expect(peak).toBeLessThan(100 * 1024 * 1024);
  },
);

test(
  'invalid UTF-8, NUL bytes, lone surrogates and a ' + 'lone \\r: no crash, defined output, for every harness',
  async () => {
    const input = Buffer.concat([
      // (Not 0xff 0xfe first: that is UTF-16LE's byte-order mark, and the input would be decoded as UTF-16.)
      Buffer.from([0xff, 0x41, 0xfe, 0x0a]), // invalid UTF-8 -> U+FFFD A U+FFFD
      Buffer.from('\u0000\u0000\n'), // NUL bytes
      Buffer.from('{"type":"\\ud800","x":"\\udfff"}\n'), // lone surrogates, escaped in JSON
      // a surrogate encoded raw (invalid UTF-8) inside JSON
      Buffer.from([0x7b, 0x22, 0x74, 0xed, 0xa0, 0x80, 0x22, 0x7d, 0x0a]),
      Buffer.from('a\rb\n'), // a lone \r stays in the line
    ]);
    for (const harness of names) {
      const { events, rules } = await run(input, { harness });
      expect(rules.length, harness).toBe(5);
      const shown = bodies(events).map((event) => JSON.parse(JSON.stringify(event)));
      expect(shown[0], harness).toEqual({ type: 'warning', message: '\ufffdA\ufffd', code: 'not_json' });
      expect(shown[1], harness).toEqual({ type: 'warning', message: '\u0000\u0000', code: 'not_json' });
      expect(shown.at(-2), harness).toEqual({ type: 'warning', message: '{"t\ufffd\ufffd\ufffd"}', code: 'not_json' });
      expect(shown.at(-1), harness).toEqual({ type: 'warning', message: 'a\rb', code: 'not_json' });
      // The lone-surrogate record is JSON: an unknown (or gg) event carrying it, serializable.
      const middle = events.find((event) => event.type === 'unknown' || event.type === 'gg');
      expect(JSON.stringify(middle)).toContain('\\ud800');
    }
  },
);

test('__proto__, constructor and prototype keys pollute nothing and come out verbatim, for every harness', async () => {
  const lines = [
    '{"__proto__":{"polluted":"yes"},"type":"mystery"}',
    '{"type":"__proto__","constructor":{"prototype":{"polluted":"yes"}}}',
    '{"type":"constructor"}',
    '{"type":"prototype","__proto__":[]}',
  ];
  for (const harness of names) {
    const { events } = await run(lines.join('\n') + '\n', { harness });
    const raws = events.map((event) =>
      JSON.stringify((event as { raw?: unknown; event?: unknown }).raw ?? (event as { event?: unknown }).event),
    );
    expect(raws, harness).toEqual(lines);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  }
});

test('tool names and ids that are Object.prototype members find no table row', async () => {
  // The dialect Claude Code and Qwen Code share.
  const toolCall = (name: string, input: unknown) => [
    { type: 'assistant', message: { id: 'm', content: [{ type: 'tool_use', id: 'toString', name, input }] } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toString', content: 'x' }] } },
  ];
  const pi = (name: string) => [
    { type: 'tool_execution_start', toolCallId: 'toString', toolName: name, args: {} },
    { type: 'tool_execution_end', toolCallId: 'toString', toolName: name, result: { content: [] }, isError: false },
  ];
  const copilot = (name: string) => [
    { type: 'tool.execution_start', data: { toolCallId: 'toString', toolName: name, arguments: {} } },
    { type: 'tool.execution_complete', data: { toolCallId: 'toString', success: true } },
  ];
  const acp = (name: string) => [
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's',
        update: { sessionUpdate: 'tool_call', toolCallId: 'toString', kind: name, status: 'pending' },
      },
    },
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's',
        update: { sessionUpdate: 'tool_call_update', toolCallId: 'toString', status: 'completed' },
      },
    },
  ];
  const cline = (name: string) =>
    ['content_start', 'content_end'].map((type) => ({
      type: 'agent_event',
      event: { type, contentType: 'tool', toolName: name, toolCallId: 'toString', input: {}, output: {} },
    }));
  for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
    // Qwen's tool_call names the tool it wraps.
    const cases = [
      ['claude-code', toolCall(name, {})],
      ['qwen', toolCall(name, {})],
      ['qwen', toolCall('tool_call', { name, arguments: {} })],
      ['pi', pi(name)],
      ['copilot', copilot(name)],
      ['acp', acp(name)],
      ['cline', cline(name)],
    ] as const;
    for (const [harness, records] of cases) {
      const { events } = await run(records.map((r) => JSON.stringify(r)).join('\n') + '\n', { harness });
      expect(
        events.map((e) => e.type),
        `${harness} ${name} ${JSON.stringify(records[0])}`,
      ).toEqual(['unknown']);
    }
  }
});

test('Qwen Code subagent ids that are Object.prototype members are ids like any other', async () => {
  const lines = ['__proto__', 'constructor'].flatMap((id) => [
    { type: 'system', subtype: 'task_started', data: { tool_use_id: id, subagent_type: 'Explore' } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'launched' }] } },
    { type: 'system', subtype: 'task_notification', data: { tool_use_id: id, status: 'completed' } },
  ]);
  const { events } = await run(jsonl(...lines), { harness: 'qwen' });
  expect(bodies(events)).toEqual(
    ['__proto__', 'constructor'].flatMap((id) => [
      {
        type: 'orchestration',
        action: 'subagent_started',
        subagent_id: id,
        subagent_name: 'Explore',
        is_success: true,
      },
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: id,
        subagent_name: 'Explore',
        is_success: true,
      },
    ]),
  );
  expect(Object.prototype).not.toHaveProperty('Explore');
});

test(
  'Gemini: tool names and tool ids that are Object.prototype members find no table row and pair only with their ' +
    'own result',
  async () => {
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      const use = { type: 'tool_use', tool_name: name, tool_id: 'toString', parameters: {} };
      const result = { type: 'tool_result', tool_id: 'toString', status: 'success' };
      const stray = { type: 'tool_result', tool_id: '__proto__', status: 'success' };
      const { events } = await run([use, result, stray].map((r) => JSON.stringify(r)).join('\n') + '\n', {
        harness: 'gemini',
      });
      expect(bodies(events), name).toEqual([
        { type: 'unknown', raw: { tool_use: use, tool_result: result } },
        { type: 'unknown', raw: stray },
      ]);
    }
  },
);
