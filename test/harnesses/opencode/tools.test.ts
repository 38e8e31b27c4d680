/**
 * opencode.md's tool mapping for bash, background_process, task, agent_manager, skill, lsp, the todo tools and
 * any other tool.
 */
import { describe, expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';
import { records } from '../../../lib/harnesses/opencode/correlate.js';
import { harness, sessionID, cwd, toolPart, toolUse, events } from './lines.js';

describe('tool mapping', () => {
  test(
    'bash is a command with metadata.exit as its exit code; a non-zero exit fails a completed call; workdir ' +
      'resolved',
    async () => {
      expect(
        await events(
          toolUse(
            'bash',
            { command: 'make test', workdir: 'pkg' },
            { metadata: { output: '', exit: 2, truncated: false } },
            'prt_1',
          ),
          toolUse('bash', { command: 'make', description: 'Build' }, { metadata: { output: '', exit: 0 } }, 'prt_2'),
          toolUse(
            'bash',
            { command: 'sleep 100' },
            { status: 'error', error: 'Tool execution aborted', metadata: undefined },
            'prt_3',
          ),
          toolUse('bash', { command: 'make' }, { metadata: { exit: 1.5 } }, 'prt_4'),
          toolUse('bash', { description: 'no command' }, {}, 'prt_5'),
        ),
      ).toEqual([
        { type: 'command', command: 'make test', working_directory: '/ws/pkg', exit_code: 2, is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', exit_code: 0, is_success: true },
        { type: 'command', command: 'sleep 100', working_directory: '/ws', is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
        { type: 'unknown', raw: toolPart('bash', { description: 'no command' }, {}, 'prt_5') },
      ]);
    },
  );

  test(
    "bash that is recognizably a file operation is that operation: the command's success (a non-zero exit fails " +
      'it), no exit code, paths under workdir',
    async () => {
      expect(
        await events(
          toolUse('bash', { command: 'cat README.md' }, { metadata: { exit: 0 } }, 'prt_1'),
          toolUse('bash', { command: 'cat a.ts', workdir: 'pkg' }, { metadata: { exit: 0 } }, 'prt_2'),
          toolUse('bash', { command: 'grep -rn todo src' }, { metadata: { exit: 2 } }, 'prt_3'),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/README.md', is_success: true },
        { type: 'read', path: '/ws/pkg/a.ts', is_success: true },
        { type: 'search', query: 'todo', path: '/ws/src', is_success: false },
      ]);
    },
  );

  test(
    'bash: a search ending the command that exited 1 (state.metadata.exit) matched nothing and completed; 2 is ' +
      "a failure; a pipe or a mixed script only where the exit code is the search's",
    async () => {
      expect(
        await events(
          toolUse('bash', { command: 'grep -rn zzz src' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_1'),
          toolUse('bash', { command: 'git grep zzz' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_2'),
          toolUse('bash', { command: 'grep -rn zzz src' }, { status: 'completed', metadata: { exit: 2 } }, 'prt_3'),
          toolUse('bash', { command: 'rg zzz | head -n 2' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_4'),
          toolUse('bash', { command: 'cat a.ts; rg zzz' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_5'),
        ),
      ).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'search', query: 'zzz', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'search', query: 'zzz', is_success: false },
        { type: 'read', path: '/ws/a.ts', is_success: false },
        { type: 'search', query: 'zzz', is_success: true },
      ]);
    },
  );

  // OpenCode 1.18.33's bash tool: the output, then a <shell_metadata> block with its notes; exit null at a timeout.
  const timedOut = (ms: number) =>
    `Compiling...\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout ${ms} ms. If this ` +
    'command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value ' +
    'in milliseconds.\n</shell_metadata>';

  test(
    'bash (docs/contract.md "OpenCode"): exit null is no exit code, success from the status; a command the ' +
      'shell tool terminated at its timeout failed, no exit code, its file operations too',
    async () => {
      expect(
        await events(
          toolUse('bash', { command: 'make' }, { metadata: { output: '', exit: null } }, 'prt_1'),
          toolUse('bash', { command: 'make' }, { status: 'error', metadata: { exit: null } }, 'prt_2'),
          toolUse(
            'bash',
            { command: 'make', timeout: 2000 },
            { output: timedOut(2000), metadata: { exit: null } },
            'prt_3',
          ),
          toolUse('bash', { command: 'cat big.log' }, { output: timedOut(500), metadata: { exit: null } }, 'prt_4'),
          // The words alone, outside the block the tool appends, are the command's own output.
          toolUse(
            'bash',
            { command: 'echo shell tool terminated command after exceeding timeout 1 ms' },
            { output: 'shell tool terminated command after exceeding timeout 1 ms\n', metadata: { exit: 0 } },
            'prt_5',
          ),
        ),
      ).toEqual([
        { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
        { type: 'command', command: 'make', working_directory: '/ws', is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', is_success: false },
        { type: 'read', path: '/ws/big.log', is_success: false },
        {
          type: 'command',
          command: 'echo shell tool terminated command after exceeding timeout 1 ms',
          working_directory: '/ws',
          exit_code: 0,
          is_success: true,
        },
      ]);
    },
  );

  test('background_process is a command when its input carries a command line, otherwise consumed', async () => {
    const { events, rules } = await run(
      jsonl(
        toolUse('background_process', { command: 'npm run dev', workdir: 'web' }, {}, 'prt_1'),
        toolUse('background_process', { command: 'cat README.md' }, {}, 'prt_2'),
        toolUse('background_process', { action: 'list' }, {}, 'prt_3'),
      ),
      { harness, cwd },
    );
    expect(bodies(events)).toEqual([
      { type: 'command', command: 'npm run dev', working_directory: '/ws/web', is_success: true },
      { type: 'command', command: 'cat README.md', is_success: true },
    ]);
    expect(rules).toEqual([records.tool_use.rules.tool, records.tool_use.rules.tool, records.tool_use.rules.tool]);
  });

  test(
    'task: the child session id identifies the ' + 'subagent; completed, failed, or started when backgrounded',
    async () => {
      const input = { description: 'Find greet', prompt: 'find it', subagent_type: 'explore' };
      expect(
        await events(
          toolUse('task', input, { metadata: { parentSessionId: sessionID, sessionId: 'ses_child1' } }, 'prt_1'),
          toolUse('task', input, { status: 'error', error: 'boom', metadata: { sessionId: 'ses_child2' } }, 'prt_2'),
          toolUse('task', input, { metadata: { sessionId: 'ses_child3', background: true, jobId: 'job_1' } }, 'prt_3'),
          toolUse('task', { prompt: 'no type' }, { metadata: { sessionId: 'ses_child4' } }, 'prt_4'),
          toolUse('task', input, { status: 'running', metadata: { sessionId: 'ses_child5' } }, 'prt_5'),
        ),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'ses_child1',
          subagent_name: 'explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_failed',
          subagent_id: 'ses_child2',
          subagent_name: 'explore',
          is_success: false,
        },
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'ses_child3',
          subagent_name: 'explore',
          is_success: true,
        },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'ses_child4', is_success: true },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'ses_child5', subagent_name: 'explore' },
      ]);
    },
  );

  test('task without the child session id is unknown (the agent type alone does not identify it)', async () => {
    const noChild = toolUse(
      'task',
      { subagent_type: 'explore' },
      { status: 'error', error: 'denied', metadata: undefined },
    );
    expect(await events(noChild)).toEqual([{ type: 'unknown', raw: noChild.part }]);
  });

  test('agent_manager is orchestration on the same terms as task', async () => {
    const anonymous = toolUse('agent_manager', { action: 'list' }, {}, 'prt_2');
    expect(
      await events(
        toolUse('agent_manager', { subagent_type: 'oracle' }, { metadata: { sessionId: 'ses_child' } }, 'prt_1'),
        anonymous,
      ),
    ).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'ses_child',
        subagent_name: 'oracle',
        is_success: true,
      },
      { type: 'unknown', raw: anonymous.part },
    ]);
  });

  test(
    'skill: the SKILL.md in metadata.dir; without dir, skills/<name>/SKILL.md under the cwd; with neither name ' +
      'nor dir, unknown',
    async () => {
      const nameless = toolUse('skill', {}, {}, 'prt_3');
      expect(
        await events(
          toolUse(
            'skill',
            { name: 'release-notes' },
            { metadata: { name: 'release-notes', dir: '/ws/.opencode/skills/release-notes' } },
            'prt_1',
          ),
          toolUse('skill', { name: 'missing' }, { status: 'error', error: 'not found', metadata: undefined }, 'prt_2'),
          nameless,
        ),
      ).toEqual([
        {
          type: 'skill',
          path: '/ws/.opencode/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        { type: 'skill', path: '/ws/skills/missing/SKILL.md', skill_name: 'missing', is_success: false },
        { type: 'unknown', raw: nameless.part },
      ]);
    },
  );

  test('lsp is a search when it carries a query or a symbol (path from filePath), otherwise unknown', async () => {
    const byPosition = toolUse('lsp', { operation: 'hover', filePath: 'src/a.ts', line: 1, character: 5 }, {}, 'prt_3');
    expect(
      await events(
        toolUse(
          'lsp',
          { operation: 'workspaceSymbol', query: 'greet', filePath: 'src/a.ts', line: 1, character: 1 },
          {},
          'prt_1',
        ),
        toolUse('lsp', { operation: 'findReferences', symbol: 'greet' }, {}, 'prt_2'),
        byPosition,
      ),
    ).toEqual([
      { type: 'search', query: 'greet', path: '/ws/src/a.ts', is_success: true },
      { type: 'search', query: 'greet', is_success: true },
      { type: 'unknown', raw: byPosition.part },
    ]);
  });

  test("todo, todowrite and todoread are consumed: the agent's internal task list", async () => {
    const todos = [{ content: 'Read', status: 'pending', priority: 'high' }];
    const { events, rules } = await run(
      jsonl(
        toolUse('todo', { todos }, {}, 'prt_1'),
        toolUse('todowrite', { todos }, {}, 'prt_2'),
        toolUse('todoread', {}, {}, 'prt_3'),
      ),
      { harness, cwd },
    );
    expect(events).toEqual([]);
    expect(rules).toEqual([records.tool_use.rules.tool, records.tool_use.rules.tool, records.tool_use.rules.tool]);
  });

  test(
    'any other tool (invalid, webfetch, an MCP tool, a name like constructor) is unknown carrying the part ' +
      'verbatim',
    async () => {
      const tools = [
        toolUse('invalid', { tool: 'frobnicate', error: 'Model tried to call unavailable tool' }, {}, 'prt_1'),
        toolUse('webfetch', { url: 'https://example.com', format: 'markdown' }, {}, 'prt_2'),
        toolUse('github_search_issues', { query: 'bug' }, {}, 'prt_3'),
        toolUse('constructor', {}, {}, 'prt_4'),
        toolUse('__proto__', {}, {}, 'prt_5'),
      ];
      expect(await events(...tools)).toEqual(tools.map((tool) => ({ type: 'unknown', raw: tool.part })));
    },
  );
});
