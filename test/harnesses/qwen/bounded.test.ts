/** State is bounded and settled (docs/contract.md): pending tools, long spans. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, assistant, user, system, text, toolUse, toolResult } from './lines.js';

describe('state is bounded and settled (docs/contract.md)', () => {
  test(
    'past maxPendingTools the oldest waiting call is ' + 'emitted unresolved, and its late result is then unpaired',
    async () => {
      const records = [
        assistant([
          toolUse('a', 'read_file', { file_path: '/a' }),
          toolUse('b', 'read_file', { file_path: '/b' }),
          toolUse('c', 'read_file', { file_path: '/c' }),
        ]),
        user([toolResult('a')]),
        user([toolResult('c')]),
      ];
      expect(bodies((await run(jsonl(...records), { harness, maxPendingTools: 2 })).events)).toEqual([
        { type: 'read', path: '/a' },
        { type: 'unknown', raw: toolResult('a') },
        { type: 'read', path: '/c', is_success: true },
        { type: 'read', path: '/b' },
      ]);
    },
  );

  test(
    'background agents are held within maxPendingTools: past it the oldest is forgotten (its name, its ' +
      '"launched" result)',
    async () => {
      const started = (id: string) =>
        system('task_started', { task_id: `Explore-${id}`, tool_use_id: id, subagent_type: 'Explore' });
      const records = [
        started('a'),
        started('b'),
        user([toolResult('a', 'Background agent launched successfully.')]),
        system('task_notification', { tool_use_id: 'a', status: 'completed' }),
      ];
      expect(bodies((await run(jsonl(...records), { harness, maxPendingTools: 1 })).events)).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'a',
          subagent_name: 'Explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'b',
          subagent_name: 'Explore',
          is_success: true,
        },
        { type: 'unknown', raw: toolResult('a', 'Background agent launched successfully.') },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'a', is_success: true },
      ]);
    },
  );

  test("a record's text longer than maxSpanBytes is emitted in parts, with a warning", async () => {
    const { events: out } = await run(jsonl(assistant([text('a'.repeat(6)), text('b'.repeat(6)), text('c')])), {
      harness,
      maxSpanBytes: 10,
    });
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
