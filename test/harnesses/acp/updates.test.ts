/** acp.md's session/update kinds and text spans, one test per row. */
import { describe, expect, test } from 'vitest';
import { updates } from '../../../lib/harnesses/acp/records.js';
import { bodies } from '../../helpers.js';
import {
  rpc,
  initialize,
  sessionNew,
  answer,
  update,
  text,
  say,
  think,
  toolCall,
  toolUpdate,
  outcome,
  events,
  tool,
} from './messages.js';

describe('session/update kinds', () => {
  test('agent_message_chunk: text appended to the open agent span', async () => {
    expect(await events(say('The magic '), say('word is '), say('pineapple.'))).toEqual([
      { type: 'agent', message: 'The magic word is pineapple.' },
    ]);
  });

  test(
    'agent_thought_chunk: text appended to the open ' + "reasoning span, kept verbatim (Gemini's bold subject)",
    async () => {
      expect(await events(think('**Plan**\n'), think('Read it.'), say('Done.'))).toEqual([
        { type: 'reasoning', message: '**Plan**\nRead it.' },
        { type: 'agent', message: 'Done.' },
      ]);
    },
  );

  test('user_message_chunk: consumed, and it ends the open span', async () => {
    expect(await events(say('a'), text('user_message_chunk', 'the prompt'), say('b'))).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'agent', message: 'b' },
    ]);
  });

  test('tool_call and tool_call_update: the tool call record, by toolCallId; without one, unknown', async () => {
    const broken = update('tool_call', { title: 'x', kind: 'read' });
    const out = await outcome(
      toolCall({ kind: 'read', status: 'pending', rawInput: { path: 'a.ts' } }),
      toolUpdate({ status: 'completed' }),
      broken,
    );
    expect(bodies(out.events)).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'unknown', raw: broken },
    ]);
    expect(out.rules).toEqual([
      updates.tool_call.rules.open,
      updates.tool_call_update.rules.finished,
      updates.tool_call.rules.malformed,
    ]);
  });

  test('plan: consumed, and the span stays open', async () => {
    expect(
      await events(
        say('a'),
        update('plan', { entries: [{ content: 'x', priority: 'high', status: 'pending' }] }),
        say('b'),
      ),
    ).toEqual([{ type: 'agent', message: 'ab' }]);
  });

  test('usage_update: consumed, and the span stays open', async () => {
    expect(await events(say('a'), update('usage_update', { used: 1, size: 2 }), say('b'))).toEqual([
      { type: 'agent', message: 'ab' },
    ]);
  });

  test(
    'available_commands_update, current_mode_update, config_option_update, session_info_update: consumed, the ' +
      'span stays open',
    async () => {
      const kinds = [
        'available_commands_update',
        'current_mode_update',
        'config_option_update',
        'session_info_update',
      ] as const;
      const out = await outcome(say('a'), ...kinds.map((kind) => update(kind)), say('b'));
      expect(bodies(out.events)).toEqual([{ type: 'agent', message: 'ab' }]);
      expect(out.rules.slice(1, 5)).toEqual(kinds.map((kind) => updates[kind].rules.consumed));
    },
  );

  test(
    'compaction_update, compaction_summary_chunk: ' + "consumed; being no chunk of the span's kind, they end it",
    async () => {
      expect(
        await events(
          say('a'),
          update('compaction_update', { status: 'started' }),
          update('compaction_summary_chunk', { content: { type: 'text', text: 'sum' } }),
          say('b'),
        ),
      ).toEqual([
        { type: 'agent', message: 'a' },
        { type: 'agent', message: 'b' },
      ]);
    },
  );

  test(
    'notice: a warning, title then ": " and the description when present; severity error makes it an error; no ' +
      'title: unknown',
    async () => {
      const broken = update('notice', { severity: 'info', description: 'd' });
      expect(
        await events(
          update('notice', { severity: 'warning', title: 'Rate limited', description: 'retrying in 5 s' }),
          update('notice', { severity: 'info', title: 'Indexed' }),
          update('notice', { severity: 'error', title: 'Quota exceeded', description: '' }),
          broken,
        ),
      ).toEqual([
        { type: 'warning', message: 'Rate limited: retrying in 5 s' },
        { type: 'warning', message: 'Indexed' },
        { type: 'error', message: 'Quota exceeded' },
        { type: 'unknown', raw: broken },
      ]);
    },
  );

  test(
    'any other kind (subagent_update, session_message, plan_update, a future kind, `constructor`): unknown, ' +
      'with the whole notification',
    async () => {
      const lines = ['subagent_update', 'session_message', 'plan_update', 'next_year', 'constructor'].map((kind) =>
        update(kind, { x: 1 }),
      );
      const out = await outcome(...lines);
      expect(bodies(out.events)).toEqual(lines.map((raw) => ({ type: 'unknown', raw })));
      expect(new Set(out.rules)).toEqual(new Set([updates['any other kind'].rules.unknown]));
    },
  );
});

describe('text spans', () => {
  test(
    'the same messageId extends the span; another one, or ' + 'a chunk without one after one with, starts a new span',
    async () => {
      expect(
        await events(
          say('a', { messageId: 'm1' }),
          say('b', { messageId: 'm1' }),
          say('c', { messageId: 'm2' }),
          say('d'),
          say('e'),
        ),
      ).toEqual([
        { type: 'agent', message: 'ab' },
        { type: 'agent', message: 'c' },
        { type: 'agent', message: 'de' },
      ]);
    },
  );

  test(
    'the open span is flushed before anything else ' + 'produces an event, and by a chunk of the other kind',
    async () => {
      expect(await events(think('hmm'), say('a'), rpc({ id: 1, error: { code: 1, message: 'e' } }), say('b'))).toEqual([
        { type: 'reasoning', message: 'hmm' },
        { type: 'agent', message: 'a' },
        { type: 'error', message: 'e', code: '1' },
        { type: 'agent', message: 'b' },
      ]);
    },
  );

  test('a tool_call or tool_call_update flushes it, even one that produces no event yet', async () => {
    expect(
      await events(
        say('a'),
        toolCall({ kind: 'read', status: 'pending', rawInput: { path: 'x' } }),
        say('b'),
        toolUpdate({ status: 'in_progress' }),
        say('c'),
      ),
    ).toEqual([
      { type: 'agent', message: 'a' },
      { type: 'agent', message: 'b' },
      { type: 'agent', message: 'c' },
      { type: 'read', path: '/ws/x' },
    ]);
  });

  test('the end of input flushes it; chunks are joined exactly as sent (no trimming)', async () => {
    expect(await events(say('  two '), say(' spaces\n'))).toEqual([{ type: 'agent', message: '  two  spaces\n' }]);
  });

  test("a span whose text is empty produces no event (claude-code-acp's empty chunk before each message)", async () => {
    expect(await events(think(''), say(''), say('hi'), think(''))).toEqual([{ type: 'agent', message: 'hi' }]);
  });

  test(
    'a chunk whose content is not text (image, audio, ' + 'resource, resource_link) flushes the span and is unknown',
    async () => {
      const image = update('agent_message_chunk', { content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } });
      const link = update('agent_thought_chunk', {
        content: { type: 'resource_link', uri: 'file:///ws/a', name: 'a' },
      });
      expect(await events(say('a'), image, link)).toEqual([
        { type: 'agent', message: 'a' },
        { type: 'unknown', raw: image },
        { type: 'unknown', raw: link },
      ]);
    },
  );
});

describe('revision 2026-12-01b', () => {
  test(
    'a span of only whitespace emits nothing; any other keeps ' + 'its whitespace as sent (acp.md Text spans)',
    async () => {
      expect(await events(think('\n\n'), say(' '), think(' \t'), say('\n\nhi '))).toEqual([
        { type: 'agent', message: '\n\nhi ' },
      ]);
    },
  );

  test("plan: claude-agent-acp's TodoWrite arrives as one; consumed, no event", async () => {
    const plan = update('plan', {
      entries: [{ content: 'Read the notes', status: 'in_progress', priority: 'medium' }],
    });
    const out = await outcome(initialize('@zed-industries/claude-agent-acp'), sessionNew, plan, answer());
    expect(out.events).toEqual([]);
    expect(out.rules[2]).toBe(updates.plan.rules.consumed);
  });

  test(
    "OpenCode's and Kilo's todowrite (kind other, " + 'rawInput.todos) is consumed; from another agent unknown',
    async () => {
      const todos = { todos: [{ content: 'Read the notes', status: 'pending', priority: 'high' }] };
      const fields = { kind: 'other', title: 'todowrite', rawInput: todos };
      expect(await tool(fields, { agent: 'OpenCode' })).toEqual([]);
      expect(await tool(fields, { agent: 'Kilo' })).toEqual([]);
      expect((await tool(fields, { agent: 'test-agent' })).map((event) => event.type)).toEqual(['unknown']);
    },
  );
});
