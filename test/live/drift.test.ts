/**
 * The live suite's drift report (live/drift.ts), on events written here: what a newer CLI's run
 * is reported as when it differs from the pinned version's expected events.
 */
import { describe, expect, test } from 'vitest';
import type { EventBody, HarnessEvent } from '../../lib/kernel/events.js';
import { comparable, describeUnknown, driftOf } from '../../live/drift.js';
import { compareVersions } from '../../live/install.js';

const read: EventBody = { type: 'read', path: '/w/README.md', is_success: true };
const agent: EventBody = { type: 'agent', message: 'Done.' };

describe('driftOf', () => {
  test('the same events are no drift', () => {
    expect(driftOf([read, agent], [read, agent])).toBeUndefined();
  });

  test('a read that became unknown: the record and tool named, the changed lines in stream order', () => {
    const unknownRead: EventBody = {
      type: 'unknown',
      raw: { tool_use: { type: 'tool_use', name: 'ReadFile' }, tool_result: { is_error: false } },
    };
    expect(driftOf([read, agent], [unknownRead, agent])).toEqual({
      newUnknown: ['(untyped) (tool ReadFile)'],
      changed: [`+ ${JSON.stringify(unknownRead)}`, `- ${JSON.stringify(read)}`],
    });
  });

  test('an unknown the pinned version also gave is not new', () => {
    const record: EventBody = { type: 'unknown', raw: { type: 'system', subtype: 'hook' } };
    const extra: EventBody = { type: 'unknown', raw: { type: 'session.new_thing' } };
    expect(driftOf([record, agent], [record, extra, agent])).toEqual({
      newUnknown: ['record session.new_thing'],
      changed: [`+ ${JSON.stringify(extra)}`],
    });
  });
});

describe('describeUnknown', () => {
  test('a record type, a JSON-RPC method, a tool carried in part, item or a tool_name field', () => {
    expect(describeUnknown({ type: 'rate_limit_event' })).toBe('record rate_limit_event');
    expect(describeUnknown({ jsonrpc: '2.0', method: 'session/update' })).toBe('record session/update');
    expect(describeUnknown({ type: 'tool_use', part: { tool: 'lsp' } })).toBe('tool_use (tool lsp)');
    expect(describeUnknown({ type: 'item.completed', item: { type: 'mcp_tool_call', name: 'search' } })).toBe(
      'item.completed (tool search)',
    );
    expect(describeUnknown({ type: 'tool_use', tool_name: 'google_web_search' })).toBe(
      'tool_use (tool google_web_search)',
    );
    expect(describeUnknown('text')).toBe('record (untyped)');
  });

  test(
    'Cline: a wrapped event by its record and event type; a tool call ' + 'pair by the tool its content_start names',
    () => {
      expect(describeUnknown({ type: 'agent_event', event: { type: 'checkpoint' } })).toBe(
        'record agent_event/checkpoint',
      );
      expect(describeUnknown({ type: 'team_event', event: { type: 'team_disbanded' } })).toBe(
        'record team_event/team_disbanded',
      );
      const start = { type: 'agent_event', event: { type: 'content_start', contentType: 'tool', toolName: 'lab__x' } };
      expect(describeUnknown({ content_start: start, content_end: start })).toBe('(untyped) (tool lab__x)');
    },
  );
});

describe('comparable', () => {
  test('drops timestamps, session ids and stderr warnings; keeps every other warning', () => {
    const events = [
      {
        type: 'warning',
        timestamp: '2026-01-01T00:00:00.000Z',
        code: 'stderr',
        message: 'Reading additional input from stdin...',
      },
      { type: 'warning', timestamp: '2026-01-01T00:00:00.000Z', session_id: 's', code: 'not_json', message: 'hello' },
      { type: 'agent', timestamp: '2026-01-01T00:00:00.000Z', session_id: 's', message: 'Done.' },
    ] as HarnessEvent[];
    expect(comparable(events)).toEqual([{ type: 'warning', code: 'not_json', message: 'hello' }, agent]);
  });
});

test('compareVersions orders release versions numerically', () => {
  expect(['7.7.9', '7.10.0', '7.7.7', '0.169.0'].sort(compareVersions)).toEqual([
    '0.169.0',
    '7.7.7',
    '7.7.9',
    '7.10.0',
  ]);
});
