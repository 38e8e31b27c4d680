/**
 * `harness-events run --permissions ask`: on a real pseudo-terminal (util-linux `script` gives the CLI one) the
 * person is asked and answers; without a terminal, a usage error before anything starts. The agent is the test peer
 * (test/children/acp-agent.mjs, `turn`: it asks before `rm -rf build`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, onTestFinished, test } from 'vitest';
import { bin, harnessEvents } from '../../cli.js';
import { children } from './commands.js';

const agent = join(children, 'acp-agent.mjs');
const hasScript = spawnSync('script', ['--version']).status === 0;
const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ask-terminal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const args = ['run', '--harness', 'acp', '--permissions', 'ask', '--prompt', 'Clean the build.', '--'];

describe('run --permissions ask', { timeout: 30_000 }, () => {
  test('without a terminal: a usage error, exit 2, nothing started', async () => {
    const log = join(dir, 'agent.log');
    const env = { ...process.env, ACP_AGENT_SCENARIO: 'turn', ACP_AGENT_LOG: log };
    expect(await harnessEvents([...args, process.execPath, agent], { env, stdin: 'y\n' })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'harness-events: --permissions ask asks you at the terminal: stdin and stderr must be one (a program passes ' +
        'onPermission to spawnHarness)\n',
    });
    expect(() => readFileSync(log)).toThrow(/ENOENT/);
  });

  test.skipIf(!hasScript)('on a pseudo-terminal: the question, y, the call allowed once, exit 0', async () => {
    const log = join(dir, 'agent.log');
    const line = [process.execPath, bin, ...args, process.execPath, agent].map(quote).join(' ');
    const child = spawn('script', ['-qfec', line, '/dev/null'], {
      cwd: dir,
      env: { ...process.env, ACP_AGENT_SCENARIO: 'turn', ACP_AGENT_LOG: log, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // A question that never shows fails the test by its timeout: the terminal's processes go with it.
    onTestFinished(() => void child.kill('SIGKILL'));
    let screen = '';
    const question = 'rm -rf build asks to command\r\n  command: rm -rf build\r\nAllow? [y]es once, [n]o: ';
    child.stdout.on('data', (data: Buffer) => {
      const before = screen;
      screen += data;
      // Answered once the question shows: a line typed before it is not its answer.
      if (!before.includes(question) && screen.includes(question)) child.stdin.write('y\n');
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    child.stdin.end();
    expect(code).toBe(0);
    expect(screen).toContain(question);
    const received = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((entry) => JSON.parse(entry) as { received?: { id?: number; result?: unknown } });
    expect(received.find((entry) => entry.received?.id === 100 && entry.received.result)?.received).toEqual({
      jsonrpc: '2.0',
      id: 100,
      result: { outcome: { outcome: 'selected', optionId: 'once' } },
    });
    expect(screen).toContain('"type":"command"');
    expect(screen).toMatch(/"command":"rm -rf build","exit_code":0,"is_success":true/);
  });
});
