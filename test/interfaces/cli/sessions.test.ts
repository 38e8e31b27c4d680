/**
 * Issue 38 items 5 and 8, on the built bin with real files: what `sessions` and a store's error print is inert, and
 * `follow --session` checks its path as `normalize --session` does (a FIFO, a directory, nothing: one line, exit 2),
 * and ends on SIGTERM and SIGHUP as the other commands do (143, 129).
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { harnessEvents, jsonLines, startCli } from '../../cli.js';
import { fixturePath } from '../../helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-cli-sessions-'));
const fifo = join(tmp, 'fifo');
execFileSync('mkfifo', [fifo]);
afterAll(() => {
  // Were open() still waiting on the FIFO (the defect), a writer lets it go, so no process outlives the test.
  closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
  rmSync(tmp, { recursive: true, force: true });
});

/** An escape sequence (window title, clear screen) and a line break that would forge a listing line. */
const hostile = '\u001b]0;pwned\u0007\u001b[2J\nclaude-code  forged';
const transcript = fixturePath(
  'claude-code/transcripts/bash/home/.claude/projects/-home-user-project/c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl',
);
const noControls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('issue 38 item 5: what sessions and a store error print is inert', { timeout: 30_000 }, () => {
  test(
    "sessions: a project directory's escape sequence and line break " + "shown as symbols, on the session's lines",
    async () => {
      const project = join(tmp, 'home', '.claude', 'projects', `-p${hostile}`);
      mkdirSync(project, { recursive: true });
      const file = join(project, 'c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl');
      writeFileSync(file, readFileSync(transcript, 'utf8').replaceAll('/home/user/project', `/w${hostile}`));
      const { code, stdout, stderr } = await harnessEvents(['sessions', '--home', join(tmp, 'home')]);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const lines = stdout.split('\n').slice(0, -1);
      expect(lines).toHaveLength(2);
      expect(lines.some((line) => noControls.test(line))).toBe(false);
      expect(lines[1]).toBe(`    ${file.replace('\u001b]0;pwned\u0007\u001b[2J\n', '␛]0;pwned␇␛[2J␤')}`);
    },
  );

  test("a store whose table definition holds an escape sequence: the reader's error on one inert line", async () => {
    const home = join(tmp, 'store');
    cpSync(fixturePath('opencode/transcripts/read/home'), home, { recursive: true });
    const db = join(home, '.local/share/opencode/opencode.db');
    // The table's definition in sqlite_master, as a damaged or hostile file may hold it (python3's sqlite3 writes it).
    execFileSync('python3', [
      '-c',
      'import sqlite3, sys\n' +
        'c = sqlite3.connect(sys.argv[1])\n' +
        'c.execute("PRAGMA writable_schema=ON")\n' +
        'c.execute("UPDATE sqlite_master SET sql=? WHERE name=\'session\'", (sys.argv[2],))\n' +
        'c.commit()\n',
      db,
      `CREATE TABLE \`session\` ${hostile}`,
    ]);
    const session = `${db}#ses_dcccd26b7ffeibGuMgmvjIBUgk`;
    for (const command of ['normalize', 'follow']) {
      const { code, stdout, stderr } = await harnessEvents([command, '--harness', 'opencode', '--session', session]);
      expect({ command, code, stdout }).toEqual({ command, code: 2, stdout: '' });
      expect(stderr).toMatch(/^harness-events: cannot read .*␛]0;pwned␇␛\[2J␤claude-code {2}forged\n$/);
      expect(noControls.test(stderr.slice(0, -1))).toBe(false);
    }
  });
});

describe('issue 38 item 8: follow --session checks its path', { timeout: 30_000 }, () => {
  test.each([
    ['a FIFO', () => fifo],
    ['a directory', () => tmp],
    ['nothing', () => join(tmp, 'missing.jsonl')],
  ])('%s: one line, exit 2, nothing opened', async (_what, path) => {
    expect(await harnessEvents(['follow', '--harness', 'claude-code', '--session', path()])).toEqual({
      code: 2,
      stdout: '',
      stderr: `harness-events: cannot read ${path()}: not a file\n`,
    });
  });

  test('a store that is not there, or a FIFO in its place: one line, exit 2', async () => {
    for (const db of [join(tmp, 'missing.db'), fifo]) {
      const session = `${db}#ses_x`;
      expect(await harnessEvents(['follow', '--harness', 'opencode', '--session', session])).toEqual({
        code: 2,
        stdout: '',
        stderr: `harness-events: cannot read ${session}: not a file\n`,
      });
    }
  });

  test.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s ends follow with the events read so far, exit %i', async (signal, exitCode) => {
    // The session without its last lines (no cost-state): following it waits for more.
    const session = join(tmp, `${signal}-c87769bd-e555-469c-9e50-6bbdc54002bf.jsonl`);
    writeFileSync(session, readFileSync(transcript, 'utf8').split('\n').slice(0, 31).join('\n') + '\n');
    const cli = startCli(['follow', '--harness', 'claude-code', '--session', session]);
    await cli.line((line) => line.path === '/home/user/project/notes.txt');
    cli.child.kill(signal);
    const { code, stdout, stderr } = await cli.closed;
    expect({ code, stderr }).toEqual({ code: exitCode, stderr: '' });
    expect(jsonLines(stdout).map((line) => [line.type, line.path])).toEqual([
      ['read', '/home/user/project/README.md'],
      ['read', '/home/user/project/notes.txt'],
    ]);
  });
});
