/** copilot.md's tool table, and bounded state (docs/contract.md). */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/copilot/correlate.js';
import { bodies, jsonl, run } from '../../helpers.js';
import { harness, cwd, event, start, complete, call, events } from './lines.js';

describe('tools (copilot.md "Tools")', () => {
  test(
    'view: read of arguments.path; no range, [a, b], and ' + '[a, -1] (only the start); a reversed range gives none',
    async () => {
      expect(
        await events(
          ...call('view', { path: '/ws/notes.txt' }, true, { toolTelemetry: { properties: { viewType: 'file' } } }),
          ...call('view', { path: 'README.md', view_range: [1, 2] }, true),
          ...call('view', { path: 'README.md', view_range: [5, -1] }, true),
          ...call('view', { path: 'README.md', view_range: [4, 2] }, true),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/notes.txt', is_success: true },
        { type: 'read', path: '/ws/README.md', start_line: 1, end_line: 2, is_success: true },
        { type: 'read', path: '/ws/README.md', start_line: 5, is_success: true },
        { type: 'read', path: '/ws/README.md', is_success: true },
      ]);
    },
  );

  test(
    'view of a directory (telemetry viewType directory) is a list; a failed view (viewType unknown) a failed ' + 'read',
    async () => {
      expect(
        await events(
          ...call('view', { path: '/ws/src' }, true, { toolTelemetry: { properties: { viewType: 'directory' } } }),
          ...call('view', { path: '/ws/missing.txt' }, false, {
            error: { message: 'Path does not exist', code: 'failure' },
            toolTelemetry: { properties: { viewType: 'unknown' } },
          }),
        ),
      ).toEqual([
        { type: 'list', path: '/ws/src', is_success: true },
        { type: 'read', path: '/ws/missing.txt', is_success: false },
      ]);
    },
  );

  test('create, edit: write of arguments.path', async () => {
    expect(
      await events(
        ...call('create', { path: 'docs/guide.md', file_text: '# Guide' }, false, {
          error: { message: 'Parent directory does not exist', code: 'failure' },
        }),
        ...call('edit', { path: '/ws/notes.txt', old_str: 'pineapple', new_str: 'mango' }, true, {
          fileEdits: [{ path: '/ws/notes.txt', kind: 'edit' }],
        }),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/docs/guide.md', is_success: false },
      { type: 'write', path: '/ws/notes.txt', is_success: true },
    ]);
  });

  test(
    'glob, grep: search of arguments.pattern; path from path when a string (glob takes path), else from paths when ' +
      'a string or an array of exactly one',
    async () => {
      expect(
        await events(
          ...call('glob', { pattern: '**/*.ts' }, true),
          ...call('glob', { pattern: '*.md', path: 'docs' }, true),
          ...call('grep', { pattern: 'greet', paths: 'src' }, true),
          ...call('grep', { pattern: 'greet', paths: ['/ws/lib'] }, true),
          ...call('grep', { pattern: 'greet', paths: ['src', 'lib'] }, true),
          ...call('grep', { pattern: 'zzz' }, true, { result: { content: 'No matches found.' } }),
        ),
      ).toEqual([
        { type: 'search', query: '**/*.ts', is_success: true },
        { type: 'search', query: '*.md', path: '/ws/docs', is_success: true },
        { type: 'search', query: 'greet', path: '/ws/src', is_success: true },
        { type: 'search', query: 'greet', path: '/ws/lib', is_success: true },
        { type: 'search', query: 'greet', is_success: true },
        { type: 'search', query: 'zzz', is_success: true },
      ]);
    },
  );

  test('glob or grep without a pattern is unknown, carrying both records', async () => {
    const [started, completed] = call('grep', { paths: 'src' }, true);
    expect(await events(started, completed)).toEqual([
      { type: 'unknown', raw: { execution_start: started, execution_complete: completed } },
    ]);
  });

  test(
    "bash: a command in the run's cwd with shellExecution.exitCode; success true with a non-zero exit is a " +
      'failure',
    async () => {
      expect(
        await events(
          ...call('bash', { command: "node -e 'process.exit(3)'", description: 'check' }, true, {
            shellExecution: { exitCode: 3 },
          }),
          ...call('bash', { command: 'npm test' }, true, { shellExecution: { exitCode: 0 } }),
          ...call('bash', { command: 'npm test' }, false),
        ),
      ).toEqual([
        {
          type: 'command',
          command: "node -e 'process.exit(3)'",
          working_directory: '/ws',
          exit_code: 3,
          is_success: false,
        },
        { type: 'command', command: 'npm test', working_directory: '/ws', exit_code: 0, is_success: true },
        { type: 'command', command: 'npm test', working_directory: '/ws', is_success: false },
      ]);
    },
  );

  test(
    'bash: recognized file operations (docs/contract.md); a search ending the command that exited 1 completed ' +
      'without a match',
    async () => {
      expect(
        await events(
          ...call('bash', { command: "sed -n '1,3p' notes.txt" }, true, { shellExecution: { exitCode: 0 } }),
          ...call('bash', { command: 'ls no-such-dir' }, true, { shellExecution: { exitCode: 2 } }),
          ...call('bash', { command: 'grep -rn zzz src' }, true, { shellExecution: { exitCode: 1 } }),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 3, is_success: true },
        { type: 'list', path: '/ws/no-such-dir', is_success: false },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
      ]);
    },
  );

  test('read_bash, write_bash, stop_bash, list_bash: consumed', async () => {
    expect(
      await events(
        ...call('read_bash', { shellId: '0' }, true),
        ...call('write_bash', { shellId: '0', input: 'y' }, true),
        ...call('stop_bash', { shellId: '0' }, true),
        ...call('list_bash', {}, true),
      ),
    ).toEqual([]);
  });

  test('task: consumed when a subagent.started named it; otherwise its completion is unknown', async () => {
    const subagentStarted = event('subagent.started', { toolCallId: 't1', agentName: 'explore' }, { agentId: 'a1' });
    const lone = call('task', { name: 'explorer', agent_type: 'explore', prompt: 'look' }, true);
    expect(
      await events(
        start('t1', 'task', { name: 'explorer', agent_type: 'explore', prompt: 'look' }),
        subagentStarted,
        complete('t1', true),
        ...lone,
      ),
    ).toEqual([
      { type: 'orchestration', action: 'subagent_started', subagent_id: 't1', subagent_name: 'explore' },
      { type: 'unknown', raw: { execution_start: lone[0], execution_complete: lone[1] } },
    ]);
  });

  test('read_agent, write_agent, list_agents: consumed', async () => {
    expect(
      await events(
        ...call('read_agent', { agent_id: 'a1' }, true),
        ...call('write_agent', { agent_id: 'a1', message: 'go' }, true),
        ...call('list_agents', {}, true),
      ),
    ).toEqual([]);
  });

  test(
    'skill: the path session.skills_loaded lists for its name; else the one skill.invoked gave; else ' +
      'skills/<name>/SKILL.md',
    async () => {
      const loaded = event('session.skills_loaded', {
        skills: [
          { name: 'release-notes', path: '/ws/.github/skills/release-notes/SKILL.md', source: 'project' },
          { name: 'no-path' },
          'not a skill',
        ],
      });
      const invoked = event('skill.invoked', {
        name: 'changelog',
        path: '/home/user/.copilot/skills/changelog/SKILL.md',
        content: '...',
      });
      const { events, rules } = await run(
        jsonl(
          loaded,
          invoked,
          ...call('skill', { skill: 'release-notes' }, true),
          ...call('skill', { skill: 'changelog' }, true),
          ...call('skill', { skill: 'no-such-skill' }, false, {
            error: { message: 'Skill not found: no-such-skill', code: 'failure' },
          }),
        ),
        { harness, cwd },
      );
      expect(bodies(events)).toEqual([
        {
          type: 'skill',
          path: '/ws/.github/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        {
          type: 'skill',
          path: '/home/user/.copilot/skills/changelog/SKILL.md',
          skill_name: 'changelog',
          is_success: true,
        },
        { type: 'skill', path: '/ws/skills/no-such-skill/SKILL.md', skill_name: 'no-such-skill', is_success: false },
      ]);
      expect(rules.slice(0, 2)).toEqual([
        records['session.skills_loaded'].rules.skills,
        records['skill.invoked'].rules.skills,
      ]);
    },
  );

  test("a subagent's calls (with parentToolCallId) map like the main agent's", async () => {
    const started = start('c7', 'view', { path: '/ws/src/a.ts' }, { agentId: 'a1' });
    const completed = event(
      'tool.execution_complete',
      {
        toolCallId: 'c7',
        success: true,
        parentToolCallId: 'call_0002',
        toolTelemetry: { properties: { viewType: 'file' } },
      },
      { agentId: 'a1' },
    );
    expect(await events(started, completed)).toEqual([{ type: 'read', path: '/ws/src/a.ts', is_success: true }]);
  });

  test(
    'any other tool (sql, web_fetch, an MCP ' + 'server/tool) is unknown, carrying both records of the call',
    async () => {
      const calls = [
        call('sql', { query: 'SELECT 1' }, true),
        call('web_fetch', { url: 'https://example.com' }, true),
        call('github-mcp-server/get_commit', { sha: 'abc' }, true),
      ];
      expect(await events(...calls.flat())).toEqual(
        calls.map(([execution_start, execution_complete]) => ({
          type: 'unknown',
          raw: { execution_start, execution_complete },
        })),
      );
    },
  );
});

describe('state is bounded (docs/contract.md)', () => {
  test(
    'past maxPendingTools waiting calls, the oldest is emitted with its outcome unset; its late completion is ' +
      'unpaired',
    async () => {
      const late = complete('c1', true);
      const { events } = await run(
        jsonl(
          start('c1', 'view', { path: 'a.ts' }),
          start('c2', 'view', { path: 'b.ts' }),
          start('c3', 'view', { path: 'c.ts' }),
          late,
          complete('c2', true),
          complete('c3', true),
        ),
        { harness, cwd, maxPendingTools: 2 },
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/ws/a.ts' },
        { type: 'unknown', raw: late },
        { type: 'read', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/c.ts', is_success: true },
      ]);
    },
  );

  test('the skill paths kept are bounded by maxPendingTools: the oldest name is forgotten', async () => {
    const loaded = event('session.skills_loaded', {
      skills: [
        { name: 'one', path: '/ws/.github/skills/one/SKILL.md' },
        { name: 'two', path: '/ws/.github/skills/two/SKILL.md' },
      ],
    });
    expect(
      await run(jsonl(loaded, ...call('skill', { skill: 'one' }, true), ...call('skill', { skill: 'two' }, true)), {
        harness,
        cwd,
        maxPendingTools: 1,
      }).then((r) => bodies(r.events)),
    ).toEqual([
      { type: 'skill', path: '/ws/skills/one/SKILL.md', skill_name: 'one', is_success: true },
      { type: 'skill', path: '/ws/.github/skills/two/SKILL.md', skill_name: 'two', is_success: true },
    ]);
  });
});
