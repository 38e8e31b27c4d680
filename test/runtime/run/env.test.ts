/**
 * spawnHarness gives the normalizer the child's environment (docs/contract.md "Paths"): the rules that depend on it
 * see what the child saw, here Claude Code's CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR. The child is a real process
 * printing Claude Code's lines.
 */
import { expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/index.js';
import { jsonl } from '../../helpers.js';

const lines = jsonl(
  { type: 'system', subtype: 'init', cwd: '/ws' },
  {
    type: 'assistant',
    message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cd docs' } }] },
  },
  { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } },
  {
    type: 'assistant',
    message: { id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Read', input: { file_path: 'a.md' } }] },
  },
  { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }] } },
);

async function readPath(env: NodeJS.ProcessEnv): Promise<unknown> {
  const run = spawnHarness({
    harness: 'claude-code',
    command: process.execPath,
    args: ['-e', `process.stdout.write(${JSON.stringify(lines)})`],
    env,
  });
  const { events } = await run.done;
  return events?.find((event) => event.type === 'read');
}

test(
  "the child's environment reaches the rules: " + 'CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR keeps the directory',
  async () => {
    expect(await readPath({ CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: '1' })).toMatchObject({ path: '/ws/a.md' });
    expect(await readPath({ CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: '' })).toMatchObject({ path: '/ws/docs/a.md' });
  },
);
