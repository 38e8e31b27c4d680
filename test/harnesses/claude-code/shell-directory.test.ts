/**
 * docs/harnesses/claude-code.md "Shell directory", one test per rule, on authored lines in Claude Code's real shapes
 * (test/fixtures/claude-code/lab/bash.jsonl): each Bash call's script, then a relative Read and a `pwd`, whose path
 * and `working_directory` say where the directory is.
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';

const harness = 'claude-code';
const init = { type: 'system', subtype: 'init', cwd: '/ws', session_id: 's', tools: ['Bash'] };
let ids = 0;

/** A call and its result; `parent` makes it a subagent's. */
function call(name: string, input: unknown, result: { is_error?: boolean; text?: string; parent?: string } = {}) {
  const id = `toolu_${++ids}`;
  const parent_tool_use_id = result.parent ?? null;
  return [
    {
      type: 'assistant',
      message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
      parent_tool_use_id,
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: result.text ?? 'ok', is_error: result.is_error }],
      },
      parent_tool_use_id,
    },
  ];
}
const bash = (command: string, result?: Parameters<typeof call>[2]) => call('Bash', { command }, result);

/** After the calls: a relative Read and a `pwd`, as the main agent (or `parent`'s subagent) makes them. */
async function where(calls: unknown[], options: { env?: NodeJS.ProcessEnv; parent?: string } = {}) {
  const probe = [...call('Read', { file_path: 'a.md' }, options), ...bash('pwd', options)];
  const events = bodies((await run(jsonl(init, ...calls, ...probe), { harness, env: options.env })).events);
  // The probe's events are the last read and command (a call left without its result is settled after them).
  const read = events.filter((e) => e.type === 'read').at(-1) as { path: string };
  const pwd = events.filter((e) => e.type === 'command').at(-1) as { working_directory?: string };
  return { read: read.path, pwd: pwd.working_directory };
}
const at = (dir: string) => ({ read: `${dir}/a.md`, pwd: dir });

describe('Shell directory', () => {
  test('call:paths, call:workingDirectory: the directory starts at the init cwd; commands carry it', async () => {
    expect(await where([])).toEqual(at('/ws'));
  });

  test('bash:cd: a top-level cd of a successful call moves every later relative path, of every tool', async () => {
    expect(await where(bash('cd docs && cat "l\'été.md"'))).toEqual(at('/ws/docs'));
    const events = bodies(
      (
        await run(
          jsonl(
            init,
            ...bash('cd docs'),
            ...call('Write', { file_path: 'w.md', content: 'x' }),
            ...call('Edit', { file_path: 'e.md', old_string: 'a', new_string: 'b' }),
            ...call('Glob', { pattern: '*.md', path: 'sub' }),
            ...call('Grep', { pattern: 'x', path: '.' }),
            ...call('LS', { path: 'sub' }),
            ...bash('cat "naïve résumé.md"'),
          ),
          { harness },
        )
      ).events,
    );
    expect(events).toEqual([
      { type: 'command', command: 'cd docs', working_directory: '/ws', is_success: true },
      { type: 'write', path: '/ws/docs/w.md', is_success: true },
      { type: 'write', path: '/ws/docs/e.md', is_success: true },
      { type: 'search', query: '*.md', path: '/ws/docs/sub', is_success: true },
      { type: 'search', query: 'x', path: '/ws/docs', is_success: true },
      { type: 'list', path: '/ws/docs/sub', is_success: true },
      { type: 'read', path: '/ws/docs/naïve résumé.md', is_success: true },
    ]);
  });

  test('a cd joined with the operation resolves it against the directory the script starts in', async () => {
    const events = bodies(
      (await run(jsonl(init, ...bash('cd docs'), ...bash('cd sub && cat b.md')), { harness })).events,
    );
    expect(events.at(-1)).toEqual({ type: 'read', path: '/ws/docs/sub/b.md', is_success: true });
  });

  test('bash:success: a failed call keeps nothing', async () => {
    expect(await where(bash('cd docs; false', { is_error: true }))).toEqual(at('/ws'));
  });

  test('bash:subshell: a cd in parentheses, a substitution or a function body is never kept', async () => {
    expect(await where(bash('(cd docs && make)'))).toEqual(at('/ws'));
    expect(await where(bash('echo $(cd docs && pwd)'))).toEqual(at('/ws'));
    expect(await where(bash('f() { cd docs; }; f'))).toEqual(at('/ws'));
  });

  test('bash:pipeline: a cd in a pipeline or a background job is never kept', async () => {
    expect(await where(bash('cd docs | cat'))).toEqual(at('/ws'));
    expect(await where(bash('cd docs & wait'))).toEqual(at('/ws'));
  });

  test('bash:pushd: pushd is kept; popd returns to its pushd; popd without one fails', async () => {
    expect(await where(bash('pushd docs'))).toEqual(at('/ws/docs'));
    expect(await where(bash('pushd docs && pushd sub && popd'))).toEqual(at('/ws/docs'));
    // popd and cd - do not outlive a call: the stack and OLDPWD are the script's.
    expect(await where([...bash('pushd docs'), ...bash('popd')])).toEqual(at('/ws/docs'));
  });

  test(
    'bash:cd: cd - is the directory before the previous move ' + 'of the same script, and fails without one',
    async () => {
      expect(await where(bash('cd docs && cd ../src && cd -'))).toEqual(at('/ws/docs'));
      expect(await where([...bash('cd docs'), ...bash('cd -')])).toEqual(at('/ws/docs'));
    },
  );

  test('bash:cd: cd alone and cd ~ are the home directory (the env option HOME)', async () => {
    expect(await where(bash('cd'), { env: { HOME: '/home/u' } })).toEqual(at('/home/u'));
    expect(await where(bash('cd ~/proj'), { env: { HOME: '/home/u' } })).toEqual(at('/home/u/proj'));
  });

  test('bash:unknown: a target the script does not say makes the directory unknown, until a known move', async () => {
    const unknown = { read: 'a.md', pwd: undefined };
    expect(await where(bash('cd "$DIR"'))).toEqual(unknown);
    expect(await where(bash('cd src*'))).toEqual(unknown);
    expect(await where(bash('if test -d docs; then cd docs; fi'))).toEqual(unknown);
    // A relative move from an unknown directory is still unknown; an absolute one is known again.
    expect(await where([...bash('cd "$DIR"'), ...bash('cd sub')])).toEqual(unknown);
    expect(await where([...bash('cd $(mktemp -d)'), ...bash('cd /opt/x')])).toEqual(at('/opt/x'));
  });

  test('bash:reset: "Shell cwd was reset to DIR" in a result sets the directory to DIR', async () => {
    const text = 'done\nShell cwd was reset to /ws';
    expect(await where([...bash('cd docs'), ...bash('cd /etc', { text })])).toEqual(at('/ws'));
  });

  test("subagent:start, subagent:keeps: a subagent starts in its parent's directory and keeps no cd", async () => {
    const agent = call('Agent', { prompt: 'p', subagent_type: 'general-purpose' });
    const [agentUse, agentResult] = agent;
    const parent = `toolu_${ids}`;
    const calls = [...bash('cd docs'), agentUse, ...bash('cd sub', { parent })];
    // Its own next call is where it started, not in sub.
    expect(await where(calls, { parent })).toEqual(at('/ws/docs'));
    // Its parent did not move either.
    expect(await where([...calls, agentResult])).toEqual(at('/ws/docs'));
    // It started where its parent was when the Agent call was made, whatever the parent did since.
    expect(await where([...bash('cd docs'), agentUse, ...bash('cd /opt')], { parent })).toEqual(at('/ws/docs'));
  });

  test('environment:maintain: CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR true keeps nothing', async () => {
    expect(await where(bash('cd docs'), { env: { CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: '1' } })).toEqual(at('/ws'));
    expect(await where(bash('cd docs'), { env: { CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: '0' } })).toEqual(
      at('/ws/docs'),
    );
  });
});
