/** claude-code.md's normalized mapping, and bounded, settled state (docs/contract.md). */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, session, assistant, user, toolUse, toolResult, events } from './lines.js';

describe('normalized mapping', () => {
  test('text blocks of one message, arriving as several lines, are joined into one agent message', async () => {
    expect(
      await events(
        assistant('m1', { type: 'text', text: 'Part one, ' }),
        assistant('m1', { type: 'text', text: 'part two.' }),
        assistant('m2', { type: 'text', text: 'Next message.' }),
      ),
    ).toEqual([
      { type: 'agent', message: 'Part one, part two.' },
      { type: 'agent', message: 'Next message.' },
    ]);
  });

  test(
    'thinking blocks are joined per message into ' + 'reasoning; empty (signature-only) thinking says nothing',
    async () => {
      expect(
        await events(
          assistant('m1', { type: 'thinking', thinking: '', signature: 'sig' }),
          assistant(
            'm1',
            { type: 'thinking', thinking: 'First, ', signature: 'sig' },
            { type: 'thinking', thinking: 'then.', signature: 'sig' },
          ),
          assistant('m1', { type: 'text', text: 'Answer.' }),
        ),
      ).toEqual([
        { type: 'reasoning', message: 'First, then.' },
        { type: 'agent', message: 'Answer.' },
      ]);
    },
  );

  test('a tool use between two text blocks splits them, in order', async () => {
    expect(
      await events(
        assistant('m1', { type: 'text', text: 'Reading.' }, toolUse('t1', 'Read', { file_path: '/a' }), {
          type: 'text',
          text: 'Meanwhile.',
        }),
        user([toolResult('t1')]),
      ),
    ).toEqual([
      { type: 'agent', message: 'Reading.' },
      { type: 'agent', message: 'Meanwhile.' },
      { type: 'read', path: '/a', is_success: true },
    ]);
  });

  test('redacted_thinking is consumed', async () => {
    expect(await events(assistant('m1', { type: 'redacted_thinking', data: 'EmwK...' }))).toEqual([]);
  });

  test('an unrecognized assistant block, a malformed tool use, or a malformed message is unknown', async () => {
    const server = { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} };
    const noId = { type: 'tool_use', name: 'Read', input: {} };
    const badText = { type: 'text', text: 42 };
    const malformed = { type: 'assistant', message: { content: 'a string' }, session_id: session };
    expect(await events(assistant('m1', server, noId, badText), malformed)).toEqual([
      { type: 'unknown', raw: server },
      { type: 'unknown', raw: noId },
      { type: 'unknown', raw: badText },
      { type: 'unknown', raw: malformed },
    ]);
  });

  test('an unrecognized user block, or a user line without content, is unknown', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } };
    const empty = { type: 'user', session_id: session };
    expect(await events(user([image]), empty)).toEqual([
      { type: 'unknown', raw: image },
      { type: 'unknown', raw: empty },
    ]);
  });
});

describe('state is bounded and settled (docs/contract.md)', () => {
  test('calls still waiting at the end of input are emitted with is_success unset, oldest first', async () => {
    expect(
      await events(assistant('m', toolUse('a', 'Read', { file_path: '/a' }), toolUse('b', 'Glob', { pattern: '*' }))),
    ).toEqual([
      { type: 'read', path: '/a' },
      { type: 'search', query: '*' },
    ]);
  });

  test(
    'past maxPendingTools the oldest waiting call is ' + 'emitted unresolved, and its late result is then unpaired',
    async () => {
      const records = [
        assistant(
          'm',
          toolUse('a', 'Read', { file_path: '/a' }),
          toolUse('b', 'Read', { file_path: '/b' }),
          toolUse('c', 'Read', { file_path: '/c' }),
        ),
        user([toolResult('a')]),
        user([toolResult('c')]),
      ];
      const { events: out } = await run(jsonl(...records), { harness, maxPendingTools: 2 });
      expect(bodies(out)).toEqual([
        { type: 'read', path: '/a' },
        { type: 'unknown', raw: toolResult('a') },
        { type: 'read', path: '/c', is_success: true },
        { type: 'read', path: '/b' },
      ]);
    },
  );

  test('an agent message longer than maxSpanBytes is emitted in parts, with a warning', async () => {
    const { events: out } = await run(
      jsonl(
        assistant('m', { type: 'text', text: 'a'.repeat(6) }),
        assistant('m', { type: 'text', text: 'b'.repeat(6) }),
        assistant('m', { type: 'text', text: 'c' }),
      ),
      { harness, maxSpanBytes: 10 },
    );
    expect(bodies(out)).toEqual([
      { type: 'agent', message: 'aaaaaabbbbbb' },
      {
        type: 'warning',
        code: 'span_too_long',
        message: 'agent text reached 12 bytes (maxSpanBytes is 10); emitted in parts',
      },
      { type: 'agent', message: 'c' },
    ]);
  });
});
