/**
 * `normalize --env NAME=VALUE` (repeatable): the harness process's environment, for the rules that depend on it
 * (docs/contract.md "Paths"): here Claude Code's CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR and HOME for `cd ~`.
 */
import { execFile } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { jsonl } from '../../helpers.js';

const bin = new URL('../../../bin/harness-events.js', import.meta.url).pathname;

function cli(args: string[], stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin);
  });
}

/** A Bash call of Claude Code and its result. */
function bash(id: string, command: string) {
  return [
    {
      type: 'assistant',
      message: { id: `m${id}`, content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
    },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } },
  ];
}

const input = jsonl({ type: 'system', subtype: 'init', cwd: '/ws' }, ...bash('t1', 'cd ~/docs'), ...bash('t2', 'make'));
const directories = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { working_directory?: string }).working_directory);

describe('normalize --env', () => {
  test("each NAME=VALUE is a variable of the harness's environment", async () => {
    const args = ['normalize', '--harness', 'claude-code'];
    expect(directories((await cli([...args, '--env', 'HOME=/home/u'], input)).stdout)).toEqual(['/ws', '/home/u/docs']);
    const kept = await cli(
      [...args, '--env', 'HOME=/home/u', '--env', 'CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR=1'],
      input,
    );
    expect(directories(kept.stdout)).toEqual(['/ws', '/ws']);
  });

  test('anything but NAME=VALUE is a usage error', async () => {
    expect(await cli(['normalize', '--harness', 'claude-code', '--env', 'HOME'], '')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'harness-events: --env takes NAME=VALUE, got "HOME"\n',
    });
  });
});
