/** gemini.md's "Tools" row for run_shell_command. */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/gemini/correlate.js';
import { harness, cwd, use, ok, failed, call } from './lines.js';

describe('tools', () => {
  describe('run_shell_command', () => {
    test(
      'a command that is not a file operation: command, working directory the cwd, success unset for status ' +
        'success',
      async () => {
        expect(
          await call('run_shell_command', { command: 'npm test', description: 'Run the tests.' }, (id) =>
            ok(id, 'all green'),
          ),
        ).toEqual([{ type: 'command', command: 'npm test', working_directory: '/ws' }]);
      },
    );

    test(
      'dir_path resolved against the cwd is the ' + 'working directory; recognized paths are joined onto it',
      async () => {
        expect(await call('run_shell_command', { command: 'make build', dir_path: 'packages/app' })).toEqual([
          { type: 'command', command: 'make build', working_directory: '/ws/packages/app' },
        ]);
        expect(await call('run_shell_command', { command: 'cat a.ts && ls lib', dir_path: 'src' })).toEqual([
          { type: 'read', path: '/ws/src/a.ts' },
          { type: 'list', path: '/ws/src/lib' },
        ]);
      },
    );

    test('without a cwd: dir_path as given, and no working directory when there is none', async () => {
      const { events: out } = await run(
        jsonl(
          use('run_shell_command', 'a', { command: 'make', dir_path: 'src' }),
          ok('a'),
          use('run_shell_command', 'b', { command: 'make' }),
          ok('b'),
        ),
        { harness },
      );
      expect(bodies(out)).toEqual([
        { type: 'command', command: 'make', working_directory: 'src' },
        { type: 'command', command: 'make' },
      ]);
    });

    test(
      'exit code only when the output is exactly ' + '`Command exited with code: N`; non-zero makes it a failure',
      async () => {
        expect(
          await call('run_shell_command', { command: 'false' }, (id) => ok(id, 'Command exited with code: 1')),
        ).toEqual([{ type: 'command', command: 'false', working_directory: '/ws', exit_code: 1, is_success: false }]);
        expect(
          await call('run_shell_command', { command: 'true' }, (id) => ok(id, 'Command exited with code: 0')),
        ).toEqual([{ type: 'command', command: 'true', working_directory: '/ws', exit_code: 0 }]);
        // Anything around it, or the model-facing `Exit Code: N` form: no exit code.
        for (const output of [
          'oops\nCommand exited with code: 2',
          'Command exited with code: 2\n',
          'Exit Code: 2',
          'Command exited with code: 99999999999999999999',
        ]) {
          expect(await call('run_shell_command', { command: 'make' }, (id) => ok(id, output)), output).toEqual([
            { type: 'command', command: 'make', working_directory: '/ws' },
          ]);
        }
      },
    );

    test('status error is a failure (a refused dir_path, a command that could not run)', async () => {
      expect(
        await call('run_shell_command', { command: 'make', dir_path: '/etc' }, (id) =>
          failed(id, 'invalid_tool_params', 'Path not in workspace'),
        ),
      ).toEqual([{ type: 'command', command: 'make', working_directory: '/etc', is_success: false }]);
    });

    test('a reclassified search that exited 1 completed without a match; a read that exited 1 failed', async () => {
      expect(
        await call('run_shell_command', { command: 'grep -rn zzz src' }, (id) => ok(id, 'Command exited with code: 1')),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: true }]);
      expect(
        await call('run_shell_command', { command: 'cat missing.txt' }, (id) => ok(id, 'Command exited with code: 1')),
      ).toEqual([{ type: 'read', path: '/ws/missing.txt', is_success: false }]);
    });

    test('without a command string it is unknown', async () => {
      expect((await call('run_shell_command', { command: ['ls'] })).map((e) => e.type)).toEqual(['unknown']);
    });
  });

  test('activate_skill: the directory named after `Resources loaded from` joined with SKILL.md', async () => {
    const output =
      'Skill **lab-notes** activated. Resources loaded from ' +
      '`/home/user/project/.gemini/skills/lab-notes`:\n\n' +
      '/home/user/project/.gemini/skills/lab-notes/\n└───SKILL.md';
    expect(await call('activate_skill', { name: 'lab-notes' }, (id) => ok(id, output))).toEqual([
      {
        type: 'skill',
        path: '/home/user/project/.gemini/skills/lab-notes/SKILL.md',
        skill_name: 'lab-notes',
        is_success: true,
      },
    ]);
  });

  test(
    'activate_skill without that directory: ' + 'skills/<name>/SKILL.md under the cwd; without a name: unknown',
    async () => {
      expect(
        await call('activate_skill', { name: 'review' }, (id) =>
          failed(id, 'invalid_tool_params', 'Skill "review" not found.'),
        ),
      ).toEqual([{ type: 'skill', path: '/ws/skills/review/SKILL.md', skill_name: 'review', is_success: false }]);
      expect((await call('activate_skill', {})).map((e) => e.type)).toEqual(['unknown']);
    },
  );

  test('write_todos, update_topic, enter_plan_mode, exit_plan_mode and tracker_*: consumed', async () => {
    const names = [
      'write_todos',
      'update_topic',
      'enter_plan_mode',
      'exit_plan_mode',
      'tracker_create_task',
      'tracker_update_task',
    ];
    const out = await run(jsonl(...names.flatMap((name, n) => [use(name, `t${n}`, {}), ok(`t${n}`)])), {
      harness,
      cwd,
    });
    expect(out.events).toEqual([]);
    expect(
      out.rules.every(
        (rule) => rule === records.tool_use.rules.recorded || rule === records.tool_result.rules.resolved,
      ),
    ).toBe(true);
  });
});
