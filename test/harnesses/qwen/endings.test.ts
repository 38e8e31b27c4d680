/** Differences 8 to 10 from claude-code.md: shell exit codes, the end of a run, monitors. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/runtime/run/spawn.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, fixturePath, jsonl, run, settled } from '../../helpers.js';
import { records } from '../../../lib/harnesses/qwen/correlate.js';
import {
  harness,
  init,
  assistant,
  user,
  system,
  text,
  toolUse,
  toolResult,
  result,
  shellBlock,
  events,
} from './lines.js';

describe('differences from claude-code.md', () => {
  describe('8. shell exit codes', () => {
    const shell = (id: string, command: string, content: unknown, is_error: boolean) => [
      assistant([toolUse(id, 'run_shell_command', { command, description: 'd', is_background: false })]),
      user([toolResult(id, content, is_error)]),
    ];

    test("the summary block's `Exit Code: N` is the command event's exit code; non-zero is a failure", async () => {
      expect(
        await events(
          init,
          ...shell('c1', 'npm test', shellBlock('npm test', '1', 'FAIL src/a.test.ts'), true),
          ...shell('c2', 'make', shellBlock('make', '0'), false),
          ...shell('c3', 'sleep 100', shellBlock('sleep 100', '(none)').replace('Signal: (none)', 'Signal: 15'), true),
          ...shell('c4', 'npm ci', [{ type: 'text', text: shellBlock('npm ci', '0') }], false),
        ),
      ).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 1, is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', exit_code: 0, is_success: true },
        { type: 'command', command: 'sleep 100', working_directory: '/ws', is_success: false },
        { type: 'command', command: 'npm ci', working_directory: '/ws', exit_code: 0, is_success: true },
      ]);
    });

    test(
      'a result that is the output itself says no exit code, even when the output has such a line; the last ' +
        'line of the block counts',
      async () => {
        const printed = 'build log\nExit Code: 7\ndone';
        expect(
          await events(
            init,
            ...shell('c1', 'node build.js', printed, false),
            ...shell('c2', 'node build.js', shellBlock('node build.js', '3', `step\nExit Code: 0\nstep`), true),
          ),
        ).toEqual([
          { type: 'command', command: 'node build.js', working_directory: '/ws', is_success: true },
          { type: 'command', command: 'node build.js', working_directory: '/ws', exit_code: 3, is_success: false },
        ]);
      },
    );

    test(
      'a reclassified read keeps the success but not the exit code; a search that exited 1 completed ' +
        '(docs/contract.md)',
      async () => {
        expect(
          await events(
            init,
            ...shell('c1', 'cat missing.txt', shellBlock('cat missing.txt', '1'), true),
            ...shell('c2', 'grep -rn zzz src', shellBlock('grep -rn zzz src', '1'), true),
            ...shell('c3', 'grep -rn zzz nowhere', shellBlock('grep -rn zzz nowhere', '2'), true),
            ...shell('c4', 'npm test', shellBlock('npm test', '1'), true),
          ),
        ).toEqual([
          { type: 'read', path: '/ws/missing.txt', is_success: false },
          { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
          { type: 'search', query: 'zzz', path: '/ws/nowhere', is_success: false },
          { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 1, is_success: false },
        ]);
      },
    );

    test(
      'a last line `Command exited with code: N` gives exit code N even with is_error false; non-zero fails, ' +
        'except the exit-1 search (difference 8, revision 2026-12-01b)',
      async () => {
        expect(
          await events(
            init,
            ...shell('c1', 'test -e missing.txt', 'Command exited with code: 1', false),
            ...shell('c2', 'grep -rn zzz src', 'Command exited with code: 1', false),
            ...shell('c3', 'node check.js', 'checking\nCommand exited with code: 0', false),
            ...shell('c4', 'cat missing.txt', 'Command exited with code: 1', false),
          ),
        ).toEqual([
          {
            type: 'command',
            command: 'test -e missing.txt',
            working_directory: '/ws',
            exit_code: 1,
            is_success: false,
          },
          { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
          { type: 'command', command: 'node check.js', working_directory: '/ws', exit_code: 0, is_success: true },
          { type: 'read', path: '/ws/missing.txt', is_success: false },
        ]);
      },
    );

    test(
      'a result far over streamLinesAbove keeps its head: the `Exit Code:` line at its end is cut, success ' +
        'comes from is_error alone',
      async () => {
        const { events: out } = await run(
          jsonl(init, ...shell('c1', 'npm test', shellBlock('npm test', '1', 'x'.repeat(200_000)), true)),
          { harness, streamLinesAbove: 64 * 1024 },
        );
        expect(bodies(out).map((e) => e.type)).toEqual(['warning', 'command']);
        expect(bodies(out)[1]).toEqual({
          type: 'command',
          command: 'npm test',
          working_directory: '/ws',
          is_success: false,
        });
      },
    );
  });

  describe('9. the end of a run', () => {
    const children = new URL('../../children/', import.meta.url).pathname;

    async function spawned(steps: unknown[]) {
      const child = spawnHarness({
        harness,
        command: process.execPath,
        args: [join(children, 'script.mjs'), JSON.stringify(steps)],
      });
      const out: HarnessEvent[] = [];
      for await (const event of child) out.push(event);
      return { events: bodies(out), done: await settled(child) };
    }

    test(
      'a stream without a result: calls still waiting are emitted with their outcome unset; the run has not ' + 'ended',
      async () => {
        const { events: out, metrics } = await run(
          jsonl(init, assistant([toolUse('c1', 'read_file', { file_path: 'notes.txt', offset: 2, limit: 1 })])),
          { harness },
        );
        expect(bodies(out)).toEqual([{ type: 'read', path: '/ws/notes.txt', start_line: 3, end_line: 3 }]);
        expect(metrics).toMatchObject({ ended: false, tokens: {} });
      },
    );

    test(
      'spawnHarness: the real turn-limit stop (exit 53, no result): its stderr and the exit code say why; not ' +
        'reported incomplete',
      async () => {
        const stdout = readFileSync(fixturePath('qwen/lab/turn-limit.jsonl'), 'utf8');
        const stderr = readFileSync(fixturePath('qwen/lab/turn-limit.stderr.txt'), 'utf8');
        const { events: out, done } = await spawned([{ out: stdout }, { err: stderr }, { exit: 53 }]);
        const [yolo, reason] = stderr.trimEnd().split('\n');
        // stdout and stderr are two pipes: each in its order, the ending last.
        expect(out.filter((e) => e.type !== 'warning')).toEqual([
          { type: 'read', path: '/home/user/project/notes.txt', is_success: true },
          {
            type: 'error',
            code: 'exit_code',
            message: `${process.execPath} exited with code 53 (session turn limit reached)`,
          },
        ]);
        expect(out.filter((e) => e.type === 'warning')).toEqual([
          { type: 'warning', code: 'stderr', message: yolo },
          { type: 'warning', code: 'stderr', message: reason },
        ]);
        expect(done.metrics).toMatchObject({ ended: false, exit_code: 53 });
      },
    );

    test(
      "spawnHarness: an exit that is not one of Qwen's stops, without a result, is an incomplete run; an error " +
        'result ends it',
      async () => {
        const line = (record: unknown) => JSON.stringify(record) + '\n';
        const crashed = await spawned([{ out: line(init) + line(assistant([text('Working.')])) }, { exit: 1 }]);
        expect(crashed.events).toEqual([
          { type: 'agent', message: 'Working.' },
          {
            type: 'warning',
            code: 'incomplete',
            message: 'qwen ended without its terminal record (result): the run is incomplete',
          },
          { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
        ]);
        const failed = result({
          subtype: 'error_during_execution',
          is_error: true,
          result: undefined,
          error: { message: 'boom' },
        });
        const ended = await spawned([{ out: line(init) + line(failed) }, { exit: 1 }]);
        expect(ended.events).toEqual([
          { type: 'error', message: 'boom', code: 'error_during_execution' },
          { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 1` },
        ]);
      },
    );
  });

  describe('10. monitors (revision 2026-12-01b)', () => {
    const monitorUse = (id: string) =>
      assistant([toolUse(id, 'monitor', { command: 'tail -f build.log', description: 'build log' })]);
    const task = (subtype: string, data: Record<string, unknown>) =>
      system(subtype, { description: 'build log', ...data });

    test(
      'a monitor call is a command event at its result (success !is_error, no exit code); its task records and ' +
        'injected user texts are consumed',
      async () => {
        const out = await run(
          jsonl(
            init,
            monitorUse('call_m'),
            task('task_started', { task_id: 'mon_1a2b', tool_use_id: 'call_m' }),
            user([toolResult('call_m', 'Monitor "build log" started (task mon_1a2b).')]),
            user([text('Monitor "build log" event #1: error TS2304 in src/a.ts')]),
            user('Monitor "build log" was cancelled by the user.'),
            task('task_notification', { task_id: 'mon_1a2b', tool_use_id: 'call_m', status: 'cancelled' }),
            monitorUse('call_n'),
            user([toolResult('call_n', 'Monitor failed to start: no such file', true)]),
          ),
          { harness },
        );
        expect(bodies(out.events)).toEqual([
          { type: 'command', command: 'tail -f build.log', working_directory: '/ws', is_success: true },
          { type: 'command', command: 'tail -f build.log', working_directory: '/ws', is_success: false },
        ]);
        expect(out.rules.slice(1)).toEqual([
          records.assistant.rules.blocks,
          records.system.rules.monitorTask,
          records.user.rules.blocks,
          records.user.rules.blocks,
          records.user.rules.text,
          records.system.rules.monitorTask,
          records.assistant.rules.blocks,
          records.user.rules.blocks,
        ]);
      },
    );

    test("task records for an id never seen: a `mon_` task id is a monitor's, any other a subagent's", async () => {
      expect(
        await events(
          task('task_started', { task_id: 'mon_9', tool_use_id: 'call_x' }),
          task('task_notification', { task_id: 'mon_9', tool_use_id: 'call_x', status: 'completed' }),
          task('task_notification', { task_id: 'general-purpose-call_y', tool_use_id: 'call_y', status: 'completed' }),
        ),
      ).toEqual([{ type: 'orchestration', action: 'subagent_completed', subagent_id: 'call_y', is_success: true }]);
    });

    test("an agent call's task records stay a subagent's whatever their task id", async () => {
      const agentUse = assistant([
        toolUse('call_a', 'agent', { description: 'd', prompt: 'p', run_in_background: true }),
      ]);
      expect(
        await events(
          agentUse,
          task('task_started', { task_id: 'mon_looks_like_one', tool_use_id: 'call_a', subagent_type: 'Explore' }),
          user([toolResult('call_a', 'Launched.')]),
          task('task_notification', { task_id: 'mon_looks_like_one', tool_use_id: 'call_a', status: 'completed' }),
        ),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'call_a',
          subagent_name: 'Explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'call_a',
          subagent_name: 'Explore',
          is_success: true,
        },
      ]);
    });
  });
});
