/**
 * docs/harnesses/claude-code.md "Orchestration", the rules no real capture covers alone, on authored lines in the
 * shapes of test/fixtures/claude-code/lab/subagent.jsonl (the captures themselves: fixtures.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';

const harness = 'claude-code';

function agentCall(id: string, name = 'Agent') {
  const input = { description: 'd', prompt: 'p', subagent_type: 'reviewer' };
  return { type: 'assistant', message: { id: `m_${id}`, content: [{ type: 'tool_use', id, name, input }] } };
}
function agentResult(id: string) {
  return { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'done' }] } };
}
const task = (subtype: string, fields: Record<string, unknown>) => ({ type: 'system', subtype, ...fields });

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness })).events);
}

describe('Orchestration', () => {
  test('a task_started naming a Task call is a subagent, whatever its task_type; its end by its status', async () => {
    const started = task('task_started', { task_id: 't1', tool_use_id: 'c1', subagent_type: 'reviewer' });
    expect(
      await events(
        agentCall('c1', 'Task'),
        started,
        task('task_progress', { task_id: 't1', tool_use_id: 'c1' }),
        task('task_updated', { task_id: 't1', patch: { status: 'failed' } }),
        task('task_notification', { task_id: 't1', tool_use_id: 'c1', status: 'failed' }),
        agentResult('c1'),
      ),
    ).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_started',
        subagent_id: 'c1',
        subagent_name: 'reviewer',
        is_success: true,
      },
      {
        type: 'orchestration',
        action: 'subagent_failed',
        subagent_id: 'c1',
        subagent_name: 'reviewer',
        is_success: false,
      },
    ]);
  });

  test("another task's records are unknown, and so is an Agent call no task names", async () => {
    const bashTask = task('task_started', { task_id: 'b1', tool_use_id: 'x1', task_type: 'local_bash' });
    const updated = task('task_updated', { task_id: 'b1', patch: { status: 'completed' } });
    const ended = task('task_notification', { task_id: 'b1', tool_use_id: 'x1', status: 'completed' });
    expect(await events(bashTask, updated, ended, agentCall('c2'), agentResult('c2'))).toEqual([
      { type: 'unknown', raw: bashTask },
      { type: 'unknown', raw: updated },
      { type: 'unknown', raw: ended },
      {
        type: 'unknown',
        raw: { tool_use: agentCall('c2').message.content[0], tool_result: agentResult('c2').message.content[0] },
      },
    ]);
  });
});
