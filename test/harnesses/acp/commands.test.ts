/** acp.md's commands (kind execute), and codex-acp's Codex commands (rawInput.parsed_cmd). */
import { describe, expect, test } from 'vitest';
import { tool } from './messages.js';

describe('commands (execute)', () => {
  test(
    'command: rawInput.command as a string; an array joined as a command line, quoted where needed, a bash -lc ' +
      'wrapper unwrapped',
    async () => {
      expect(await tool({ kind: 'execute', rawInput: { command: ['git', 'commit', '-m', "it's done"] } })).toEqual([
        { type: 'command', command: "git commit -m 'it'\\''s done'", is_success: true },
      ]);
      expect(
        await tool({ kind: 'execute', rawInput: { command: ['bash', '-lc', 'npm run build && npm test'] } }),
      ).toEqual([{ type: 'command', command: 'npm run build && npm test', is_success: true }]);
    },
  );

  test('command: with no rawInput.command, the title (Gemini); with neither, unknown', async () => {
    expect(await tool({ kind: 'execute', title: 'ls -la && echo done' })).toEqual([
      { type: 'command', command: 'ls -la && echo done', is_success: true },
    ]);
    expect(await tool({ kind: 'execute' })).toEqual([
      { type: 'unknown', raw: { toolCallId: 't1', kind: 'execute', status: 'completed' } },
    ]);
  });

  test(
    'working_directory: rawInput.cwd, workdir or dir_path, else rawOutput.directory, else the shell_exit ' +
      "entry's cwd",
    async () => {
      const directory = async (rawInput: Record<string, unknown>, rawOutput?: unknown) =>
        (await tool({ kind: 'execute', rawInput: { command: 'make', ...rawInput } }, { end: { rawOutput } }))[0]!
          .working_directory;
      expect(await directory({ cwd: '/a', workdir: '/b' })).toBe('/a');
      expect(await directory({ workdir: '/b', dir_path: '/c' })).toBe('/b');
      expect(await directory({ dir_path: '/c' }, { directory: '/d' })).toBe('/c');
      expect(await directory({}, { directory: '/d', contents: [{ type: 'shell_exit', exitCode: 0, cwd: '/e' }] })).toBe(
        '/d',
      );
      expect(await directory({}, { contents: [{ type: 'shell_exit', exitCode: 0, cwd: '/e' }] })).toBe('/e');
      expect(await directory({})).toBeUndefined();
    },
  );

  test(
    'exit code: rawOutput.exitCode, exit_code, metadata.exit, then a shell_exit entry; non-zero fails a ' +
      'completed command',
    async () => {
      const exit = async (rawOutput: unknown) =>
        (await tool({ kind: 'execute', rawInput: { command: 'make' } }, { end: { rawOutput } }))[0];
      const failed = (exit_code: number) => ({ type: 'command', command: 'make', exit_code, is_success: false });
      expect(await exit({ exitCode: 3, exit_code: 4, metadata: { exit: 5 } })).toEqual(failed(3));
      expect(await exit({ exit_code: 4, metadata: { exit: 5 } })).toEqual(failed(4));
      expect(await exit({ metadata: { exit: 5 }, contents: [{ type: 'shell_exit', exitCode: 6 }] })).toEqual(failed(5));
      expect(await exit({ contents: [{ type: 'text' }, { type: 'shell_exit', exitCode: 6 }] })).toEqual(failed(6));
      // No integer anywhere (Droid, claude-code-acp, Gemini): success from the status alone.
      expect(await exit({ exitCode: '3', output: 'Exit code 3' })).toEqual({
        type: 'command',
        command: 'make',
        is_success: true,
      });
    },
  );

  test(
    "exit code: Kilo's metadata.exit null (killed by the " + 'abort) is no exit code and a failure, though completed',
    async () => {
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'sleep 30' } },
          { end: { rawOutput: { output: 'User aborted the command', metadata: { exit: null } } } },
        ),
      ).toEqual([{ type: 'command', command: 'sleep 30', is_success: false }]);
    },
  );

  test(
    'a search reclassified from a command that exited 1 completed with no match; so did one whose whole ' +
      'rawOutput is `Exit code 1` (claude-code-acp)',
    async () => {
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn magic src' } },
          { end: { rawOutput: { exitCode: 1 } } },
        ),
      ).toEqual([{ type: 'search', query: 'magic', path: '/ws/src', is_success: true }]);
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn magic src' } },
          { status: 'failed', end: { rawOutput: 'Exit code 1' } },
        ),
      ).toEqual([{ type: 'search', query: 'magic', path: '/ws/src', is_success: true }]);
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn magic src' } },
          { status: 'failed', end: { rawOutput: 'Exit code 2' } },
        ),
      ).toEqual([{ type: 'search', query: 'magic', path: '/ws/src', is_success: false }]);
    },
  );

  test(
    'Gemini CLI (agentInfo.name gemini-cli): a completed execute record has success unset, a failed one stays ' +
      'false; its other kinds are not affected',
    async () => {
      expect(await tool({ kind: 'execute', title: "node -e 'process.exit(3)'" }, { agent: 'gemini-cli' })).toEqual([
        { type: 'command', command: "node -e 'process.exit(3)'" },
      ]);
      expect(await tool({ kind: 'execute', title: 'false' }, { agent: 'gemini-cli', status: 'failed' })).toEqual([
        { type: 'command', command: 'false', is_success: false },
      ]);
      expect(await tool({ kind: 'read', locations: [{ path: '/ws/a' }] }, { agent: 'gemini-cli' })).toEqual([
        { type: 'read', path: '/ws/a', is_success: true },
      ]);
    },
  );
});

describe('revision 2026-12-01b', () => {
  describe("codex-acp's Codex commands (rawInput.parsed_cmd; shapes of test/fixtures/acp/codex-acp/)", () => {
    const exec = (script: string, parsed_cmd: unknown[], cwd = '/ws') => ({
      command: ['/bin/bash', '-lc', script],
      cwd,
      parsed_cmd,
      source: 'unified_exec_startup',
    });
    const ended = (exit_code: number) => ({ rawOutput: { exit_code, stdout: '', stderr: '' } });
    const codex = (kind: string, title: string, rawInput: unknown, status: string, exit_code: number) =>
      tool({ kind, title, rawInput }, { status, end: ended(exit_code), agent: 'codex-acp' });

    test('a search that matched nothing ends failed with exit code 1: is_success true', async () => {
      expect(
        await codex(
          'search',
          'Search zzz',
          exec('rg -n zzz', [{ type: 'search', cmd: 'rg -n zzz', query: 'zzz', path: null }]),
          'failed',
          1,
        ),
      ).toEqual([{ type: 'search', query: 'zzz', is_success: true }]);
      // Exit 2 is an error.
      expect(
        await codex(
          'search',
          'Search zzz in src',
          exec('rg -n zzz src', [{ type: 'search', cmd: 'rg -n zzz src', query: 'zzz', path: 'src' }]),
          'failed',
          2,
        ),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: false }]);
    });

    test(
      "paths from the script joined onto its cd, not Codex's " + 'shortened display path; lines from the cmd',
      async () => {
        expect(
          await codex(
            'search',
            'Search greet in webview',
            exec('cd pkg && rg -n greet webview/src', [
              { type: 'search', cmd: 'rg -n greet webview/src', query: 'greet', path: 'webview' },
            ]),
            'completed',
            0,
          ),
        ).toEqual([{ type: 'search', query: 'greet', path: '/ws/pkg/webview/src', is_success: true }]);
        expect(
          await codex(
            'read',
            'Read a.ts',
            exec("sed -n '1,5p' src/a.ts", [
              { type: 'read', cmd: "sed -n '1,5p' src/a.ts", name: 'a.ts', path: 'src/a.ts' },
            ]),
            'completed',
            0,
          ),
        ).toEqual([{ type: 'read', path: '/ws/src/a.ts', start_line: 1, end_line: 5, is_success: true }]);
        expect(
          await codex(
            'search',
            'List files',
            exec('ls -la', [{ type: 'list_files', cmd: 'ls -la', path: null }], '/ws/./pkg/'),
            'completed',
            0,
          ),
        ).toEqual([{ type: 'list', is_success: true }]);
      },
    );

    test('one event per entry, in order; an unknown entry makes the whole call one command', async () => {
      expect(
        await codex(
          'read',
          'Read a.ts, b.ts',
          exec('cat a.ts && cat b.ts', [
            { type: 'read', cmd: 'cat a.ts', name: 'a.ts', path: 'a.ts' },
            { type: 'read', cmd: 'cat b.ts', name: 'b.ts', path: 'b.ts' },
          ]),
          'completed',
          1,
        ),
      ).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: false },
        { type: 'read', path: '/ws/b.ts', is_success: false },
      ]);
      expect(
        await codex(
          'execute',
          'npm test',
          exec('npm test', [{ type: 'unknown', cmd: 'npm test' }], '/ws/pkg/'),
          'completed',
          3,
        ),
      ).toEqual([
        { type: 'command', command: 'npm test', working_directory: '/ws/pkg', exit_code: 3, is_success: false },
      ]);
    });
  });

  test('an argv [SHELL, -c | -lc, SCRIPT] is its SCRIPT, even one the shell rules cannot read', async () => {
    expect(await tool({ kind: 'execute', rawInput: { command: ['/bin/bash', '-lc', 'echo $(date) # now'] } })).toEqual([
      { type: 'command', command: 'echo $(date) # now', is_success: true },
    ]);
    // Not one of Codex's shell names: joined as a command line.
    expect(await tool({ kind: 'execute', rawInput: { command: ['fish', '-c', 'ls'] } })).toEqual([
      { type: 'command', command: 'fish -c ls', is_success: true },
    ]);
  });

  test('a search exiting 1 succeeds whatever the status, for every agent (Kilo, OpenCode: metadata.exit)', async () => {
    for (const agent of ['Kilo', 'OpenCode', 'test-agent']) {
      expect(
        await tool(
          { kind: 'execute', rawInput: { command: 'grep -rn zzz src', cwd: '/ws' } },
          { status: 'failed', end: { rawOutput: { output: '', metadata: { exit: 1 } } }, agent },
        ),
      ).toEqual([{ type: 'search', query: 'zzz', path: '/ws/src', is_success: true }]);
    }
  });
});
