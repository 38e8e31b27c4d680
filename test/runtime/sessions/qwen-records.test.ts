/**
 * Qwen Code chat records the captures do not have, each written to a chat file of its own and read back: failed
 * results, unknown shapes, background agents past maxPendingTools.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { readSession } from '../../../lib/runtime/sessions/sessions.js';
import { signature } from './pairs.js';
import { bodies } from '../../helpers.js';

describe('records the captures do not have', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  async function read(
    records: unknown[],
    options: { maxPendingTools?: number } = {},
  ): Promise<{ events: HarnessEvent[]; rules: Record<string, number> }> {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-qwen-'));
    dirs.push(dir);
    const chats = join(dir, 'projects', 'p', 'chats');
    mkdirSync(chats, { recursive: true });
    const path = join(chats, '0f0e0d0c-0b0a-4998-8776-655443322110.jsonl');
    writeFileSync(path, records.map((record) => JSON.stringify(record) + '\n').join(''));
    const stream = readSession({ harness: 'qwen', path, ...options });
    const events: HarnessEvent[] = [];
    for await (const event of stream) events.push(event);
    return { events, rules: stream.metrics.input.rules };
  }

  const base = { sessionId: 's1', cwd: '/w', timestamp: '2026-12-01T20:00:00.000Z' };
  const uiEvent = (event: Record<string, unknown>) => ({
    ...base,
    type: 'system',
    subtype: 'ui_telemetry',
    systemPayload: { uiEvent: event },
  });

  test(
    "a result fails by its status, or by an error alone (a subagent's " + 'have no status); the error is its content',
    async () => {
      const call = (id: string, name: string, args: Record<string, unknown>) => ({ functionCall: { id, name, args } });
      const result = (id: string, response: Record<string, unknown>, status?: string) => ({
        ...base,
        type: 'tool_result',
        message: { role: 'user', parts: [{ functionResponse: { id, name: 'x', response } }] },
        ...(status === undefined ? {} : { toolCallResult: { callId: id, status } }),
      });
      const { events } = await read([
        {
          ...base,
          type: 'assistant',
          message: {
            role: 'model',
            parts: [
              call('c1', 'read_file', { file_path: '/w/a' }),
              call('c2', 'read_file', { file_path: '/w/b' }),
              call('c3', 'run_shell_command', { command: 'make' }),
            ],
          },
        },
        result('c1', { output: 'cancelled by the user' }, 'cancelled'),
        result('c2', { error: 'no such file' }),
        result('c3', { error: 'Command exited with code: 3' }),
      ]);
      expect(bodies(events.filter((event) => event.type !== 'usage'))).toEqual([
        { type: 'read', path: '/w/a', is_success: false },
        { type: 'read', path: '/w/b', is_success: false },
        // The exit code is read from the error, the result's content when it has no output.
        { type: 'command', command: 'make', working_directory: '/w', exit_code: 3, is_success: false },
      ]);
    },
  );

  test('unknown shapes are unknown events, an API error a warning, a monitor notice consumed', async () => {
    const { events, rules } = await read([
      { ...base, type: 'assistant', message: { role: 'model', parts: [{ inlineData: { mimeType: 'image/png' } }] } },
      { ...base, type: 'assistant', message: { role: 'model' } },
      { ...base, type: 'assistant', model: 'm', usageMetadata: { promptTokenCount: 1 } },
      { ...base, type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'x' } }] } },
      { ...base, type: 'tool_result' },
      { ...base, type: 'system', subtype: 'background_task_completed', systemPayload: {} },
      { ...base, type: 'system', subtype: 'chat_compression', systemPayload: {} },
      uiEvent({
        'event.name': 'qwen-code.api_error',
        error_message: 'Request failed with status 429',
        status_code: 429,
      }),
      uiEvent({ 'event.name': 'qwen-code.something_new' }),
      { ...base, type: 'user', subtype: 'cron', message: { role: 'user', parts: [{ text: 'tick' }] } },
      { ...base, type: 'user', subtype: 'notification', message: { role: 'user', parts: [{ text: 'hello' }] } },
      { ...base, type: 'user', subtype: 'shiny', message: { role: 'user', parts: [{ text: 'hello' }] } },
      {
        ...base,
        type: 'assistant',
        message: {
          role: 'model',
          parts: [{ functionCall: { id: 'm1', name: 'monitor', args: { command: 'tail x' } } }],
        },
      },
      {
        ...base,
        type: 'user',
        subtype: 'notification',
        message: {
          role: 'user',
          parts: [{ text: '<task-notification>\n<tool-use-id>m1</tool-use-id>\n<status>completed</status>' }],
        },
      },
      { ...base, type: 'assistant', message: { role: 'model', parts: [{ text: '[API Error: boom]' }] } },
      { ...base, type: 'gemini' },
    ]);
    // A part is shown as it is; a record by its type and subtype.
    const kinds = events.map((e) =>
      e.type === 'unknown' && !JSON.stringify(e.raw).includes('"type"')
        ? `part ${JSON.stringify(e.raw)}`
        : signature(e),
    );
    expect(kinds).toEqual([
      'part {"inlineData":{"mimeType":"image/png"}}',
      'unknown assistant/',
      'part {"functionResponse":{"id":"x"}}',
      'unknown tool_result/',
      'unknown system/background_task_completed',
      'warning | api_error',
      'unknown system/ui_telemetry',
      'unknown user/notification',
      'unknown user/shiny',
      // Difference 3, as on stdout.
      'error | [API Error: boom]',
      'unknown gemini/',
      // The monitor's call, whose result never came: settled at the end, its notice consumed.
      'command | tail x',
    ]);
    expect(events[5]).toMatchObject({ message: 'Qwen Code API error (HTTP 429): Request failed with status 429' });
    expect(rules).toEqual({
      'assistant:blocks': 3,
      'assistant:malformed': 1,
      'assistant:empty': 1,
      'tool_result:blocks': 1,
      'tool_result:malformed': 1,
      'system:other': 1,
      'system:bookkeeping': 1,
      'system:apiError': 1,
      'system:otherTelemetry': 1,
      'user:injected': 1,
      'user:other': 2,
      'user:monitor': 1,
      'any other type:unknown': 1,
    });
  });
  test('background agents wait within maxPendingTools: past it the oldest is forgotten, its end unnamed', async () => {
    const launched = (id: string) => ({
      ...base,
      type: 'tool_result',
      message: { role: 'user', parts: [{ functionResponse: { id, name: 'agent', response: { output: 'launched' } } }] },
      toolCallResult: {
        callId: id,
        status: 'success',
        resultDisplay: { type: 'task_execution', executionMode: 'background', subagentName: `helper-${id}` },
      },
    });
    const notified = (id: string, status: string) => ({
      ...base,
      type: 'user',
      subtype: 'notification',
      message: {
        role: 'user',
        parts: [{ text: `<task-notification>\n<tool-use-id>${id}</tool-use-id>\n<status>${status}</status>` }],
      },
    });
    const { events } = await read(
      [launched('a'), launched('b'), launched('c'), notified('a', 'completed'), notified('c', 'failed')],
      { maxPendingTools: 2 },
    );
    const ends = events.flatMap((e) =>
      e.type === 'orchestration' && e.action !== 'subagent_started' ? [[e.action, e.subagent_id, e.subagent_name]] : [],
    );
    expect(ends).toEqual([
      ['subagent_completed', 'a', undefined],
      ['subagent_failed', 'c', 'helper-c'],
    ]);
  });
});
