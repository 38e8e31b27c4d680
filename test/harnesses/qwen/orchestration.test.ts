/** Difference 5 from claude-code.md: orchestration (subagents), read as qwen and as claude-code. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/qwen/correlate.js';
import {
  harness,
  assistant,
  user,
  system,
  text,
  toolUse,
  toolResult,
  call,
  unknownCall,
  events,
  claudeEvents,
} from './lines.js';

describe('differences from claude-code.md', () => {
  describe('5. orchestration', () => {
    test(
      'task_notification: completed, or failed for any other status; its name from the task_started with that ' +
        'id, when seen',
      async () => {
        const started = system('task_started', {
          task_id: 'general-purpose-call_1',
          tool_use_id: 'call_1',
          description: 'd',
          subagent_type: 'general-purpose',
        });
        const done = (id: string, status: string) =>
          system('task_notification', { task_id: `x-${id}`, tool_use_id: id, status });
        expect(
          await events(started, done('call_1', 'failed'), done('call_2', 'cancelled'), done('call_3', 'completed')),
        ).toEqual([
          {
            type: 'orchestration',
            action: 'subagent_started',
            subagent_id: 'call_1',
            subagent_name: 'general-purpose',
            is_success: true,
          },
          {
            type: 'orchestration',
            action: 'subagent_failed',
            subagent_id: 'call_1',
            subagent_name: 'general-purpose',
            is_success: false,
          },
          { type: 'orchestration', action: 'subagent_failed', subagent_id: 'call_2', is_success: false },
          { type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_3', is_success: true },
        ]);
      },
    );

    test(
      'a foreground agent: its result is subagent_completed, subagent_failed when is_error; name subagent_type, ' +
        'else general-purpose',
      async () => {
        expect(
          await events(
            ...call(
              'agent',
              { description: 'd', prompt: 'p', subagent_type: 'Explore', run_in_background: false },
              'Found it.',
              false,
              'call_a',
            ),
            ...call(
              'agent',
              { description: 'd', prompt: 'p', run_in_background: false },
              'Subagent failed: boom',
              true,
              'call_b',
            ),
          ),
        ).toEqual([
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'call_a',
            subagent_name: 'Explore',
            is_success: true,
          },
          {
            type: 'orchestration',
            action: 'subagent_failed',
            subagent_id: 'call_b',
            subagent_name: 'general-purpose',
            is_success: false,
          },
        ]);
      },
    );

    test(
      "a foreground subagent's own calls (parent_tool_use_id set) map as the main agent's; its echoed prompt is " +
        'consumed',
      async () => {
        expect(
          await events(
            assistant([
              toolUse('call_a', 'agent', {
                description: 'd',
                prompt: 'Summarize',
                subagent_type: 'general-purpose',
                run_in_background: false,
              }),
            ]),
            user([text('Summarize')], 'call_a'),
            assistant([toolUse('call_s', 'grep_search', { pattern: 'TODO', path: '/ws' })], { parent: 'call_a' }),
            user([toolResult('call_s', 'Found 2 matches')], 'call_a'),
            user([toolResult('call_a', 'Two TODOs.')]),
          ),
        ).toEqual([
          { type: 'search', query: 'TODO', path: '/ws', is_success: true },
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'call_a',
            subagent_name: 'general-purpose',
            is_success: true,
          },
        ]);
      },
    );

    test(
      'a background agent: task_started seen before its result, so the call and its "launched" result are ' +
        'consumed',
      async () => {
        const launched = toolResult('call_bg', 'Background agent launched successfully.\ntask_id: Explore-call_bg');
        const { events: out, rules } = await run(
          jsonl(
            assistant([toolUse('call_bg', 'agent', { description: 'd', prompt: 'p', subagent_type: 'Explore' })]),
            system('task_started', {
              task_id: 'Explore-call_bg',
              tool_use_id: 'call_bg',
              description: 'd',
              subagent_type: 'Explore',
            }),
            user([launched]),
            user([text('Background agent "Explore: d" completed.')]),
            system('task_notification', { task_id: 'Explore-call_bg', tool_use_id: 'call_bg', status: 'completed' }),
            // A second "launched" result for it is not accounted for.
            user([launched]),
          ),
          { harness },
        );
        expect(bodies(out)).toEqual([
          {
            type: 'orchestration',
            action: 'subagent_started',
            subagent_id: 'call_bg',
            subagent_name: 'Explore',
            is_success: true,
          },
          {
            type: 'orchestration',
            action: 'subagent_completed',
            subagent_id: 'call_bg',
            subagent_name: 'Explore',
            is_success: true,
          },
          { type: 'unknown', raw: launched },
        ]);
        expect(rules).toEqual([
          records.assistant.rules.blocks,
          records.system.rules.taskStarted,
          records.user.rules.blocks,
          records.user.rules.blocks,
          records.system.rules.taskNotification,
          records.user.rules.blocks,
        ]);
      },
    );

    test(
      'an agent call whose result never came (the run ' + 'stopped) happened: subagent_started, success unset',
      async () => {
        expect(
          await events(
            assistant([
              toolUse('call_a', 'agent', {
                description: 'd',
                prompt: 'p',
                subagent_type: 'Explore',
                run_in_background: false,
              }),
            ]),
          ),
        ).toEqual([
          { type: 'orchestration', action: 'subagent_started', subagent_id: 'call_a', subagent_name: 'Explore' },
        ]);
      },
    );

    test('Claude Code has no orchestration source: the same lines are unknown there', async () => {
      const records = [
        ...call('agent', { description: 'd', prompt: 'p', run_in_background: false }),
        system('task_started', { tool_use_id: 'call_x' }),
      ];
      expect(await claudeEvents(...records)).toEqual([
        unknownCall('agent', { description: 'd', prompt: 'p', run_in_background: false }),
        { type: 'unknown', raw: records[2] },
      ]);
    });
  });
});
