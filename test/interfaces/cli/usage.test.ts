/**
 * `harness-events usage` (docs/usage.md) on the paired captures' homes (each alone: usage-captures.test.ts): homes
 * merged give one row per harness and model, days are the records' own in the zone asked for, the table is inert,
 * the ledger keeps calls once across invocations and after the agent's files are gone, a store or file in a layout
 * the reader does not know is a warning, and --watch follows the sessions until a stop signal. Expected figures
 * checked by hand against the files (test/runtime/usage/dedup.test.ts says how).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fixturePath } from '../../helpers.js';
import { inProcess, startCli } from '../../cli.js';
import { claudeBash, claudeProject, homeOf, removeHomes } from '../../runtime/usage/homes.js';

afterEach(removeHomes);

describe('usage --json on capture homes together', () => {
  test('exact rows: Claude Code, pi, Kilo and Copilot', async () => {
    const home = homeOf('claude-code/bash', 'pi/files', 'kilo/shell', 'copilot/resume');
    const { lines } = await inProcess(['usage', '--home', home, '--json', '--by', 'harness,model']);
    const rows = lines.map((line) => JSON.parse(line));
    const tokens = (input: number, output: number, cache_read = 0) => ({
      input,
      output,
      cache_read,
      cache_write: 0,
      reasoning: 0,
    });
    expect(rows.map(({ group, calls, tokens, cost }) => ({ group, calls, tokens, cost }))).toEqual([
      // Claude Code reports no per-call cost: priced from the table, or unknown.
      {
        group: { harness: 'claude-code', model: 'claude-opus-5-5' },
        calls: 11,
        tokens: tokens(1320, 275),
        cost: rows[0].cost,
      },
      // Copilot reports 0 for tokens spent: not a cost.
      {
        group: { harness: 'copilot', model: 'fake-model' },
        calls: 2,
        tokens: tokens(1500, 10),
        cost: { source: 'unknown' },
      },
      {
        group: { harness: 'kilo', model: 'fake-model' },
        calls: 4,
        tokens: tokens(2300, 110, 4900),
        cost: { usd: expect.closeTo(0.01002, 12), source: 'reported' },
      },
      {
        group: { harness: 'pi', model: 'fake-model' },
        calls: 5,
        tokens: tokens(4600, 380, 13000),
        cost: { usd: 0.00666, source: 'reported' },
      },
    ]);
    expect(rows[0].cost.source).not.toBe('reported');
  });
});

describe('usage --by day', () => {
  test("days are the records' own, in --tz", async () => {
    // codex/read ran at 2026-12-01T20:01Z, codex/workdir at 2026-12-05T05:48Z.
    const home = homeOf('codex/read', 'codex/workdir');
    const days = async (tz: string) =>
      (await inProcess(['usage', '--home', home, '--json', '--tz', tz])).lines.map((line) => {
        const row = JSON.parse(line);
        return [row.group.day, row.calls];
      });
    expect(await days('UTC')).toEqual([
      ['2026-12-01', 5],
      ['2026-12-05', 8],
    ]);
    expect(await days('Asia/Tokyo')).toEqual([
      ['2026-12-02', 5],
      ['2026-12-05', 8],
    ]);
    expect(await days('America/Los_Angeles')).toEqual([
      ['2026-12-01', 5],
      ['2026-12-04', 8],
    ]);
    // --since and --until dates are days in the zone too: 2026-12-02 in Tokyo holds the read run alone.
    const tokyo = ['--tz', 'Asia/Tokyo', '--since', '2026-12-02', '--until', '2026-12-02'];
    expect((await inProcess(['usage', '--home', home, '--json', ...tokyo])).lines.length).toBe(1);
  });
});

describe('usage: the table and CSV are inert', () => {
  const withCwd = (cwd: string) => {
    const home = homeOf('claude-code/bash');
    const file = join(home, claudeProject, `${claudeBash}.jsonl`);
    const text = readFileSync(file, 'utf8').replaceAll('"cwd":"/home/user/project"', `"cwd":${JSON.stringify(cwd)}`);
    writeFileSync(file, text);
    return home;
  };

  test('a working directory with an escape sequence and a line break is shown as symbols', async () => {
    const home = withCwd('\u001b[31mred\ntotal');
    const { lines } = await inProcess(['usage', '--home', home, '--by', 'project']);
    expect(lines[0]).toMatch(/^project {9}calls {2}input {2}output {2}cache read {2}cache write {2}reasoning {2}/);
    expect(lines[2]).toMatch(/^␛\[31mred␤total {5}11 {2}1,320 {5}275 /);
    expect(lines.join('\n')).not.toMatch(/[\u001b\r]/);
  });

  test('CSV: a value a spreadsheet would run as a formula is text', async () => {
    const home = withCwd('=HYPERLINK("http://x","y")');
    const { lines } = await inProcess(['usage', '--home', home, '--by', 'project', '--csv']);
    // CSV's line ends are CRLF (RFC 4180).
    expect(lines[0]).toBe(
      'project,calls,input,output,cache_read,cache_write,reasoning,unitemized,' +
        'cost_usd,cost_source,prices_date,unpriced,subscription_usd,first,last\r',
    );
    expect(lines[1]!.startsWith(`"'=HYPERLINK(""http://x"",""y"")",11,1320,275,0,0,0,0,`)).toBe(true);
  });
});

describe('usage --ledger', () => {
  test('calls are kept once across invocations, and after the agent deleted its file', async () => {
    const home = homeOf('claude-code/bash');
    const ledger = join(home, 'ledger.jsonl');
    const total = async () =>
      JSON.parse(
        (await inProcess(['usage', '--home', home, '--ledger', ledger, '--json', '--by', 'harness'])).lines[0]!,
      );
    expect((await total()).calls).toBe(11);
    expect((await total()).calls).toBe(11);
    expect(readFileSync(ledger, 'utf8').split('\n').filter(Boolean)).toHaveLength(11);
    rmSync(join(home, claudeProject, `${claudeBash}.jsonl`));
    const kept = await total();
    expect([kept.calls, kept.tokens.input, kept.tokens.output]).toEqual([11, 1320, 275]);
    appendFileSync(ledger, 'not a call\n');
    const { errors } = await inProcess(['usage', '--home', home, '--ledger', ledger, '--json']);
    expect(errors).toContain('line 12 is not a call: left out');
  });
});

describe('usage: a format the reader does not know is a warning, never a silent zero', () => {
  test('an OpenCode store whose sessions moved to session_v2 (2.x) is named with its last migration', async () => {
    const home = homeOf('opencode/read');
    const db = join(home, '.local/share/opencode/opencode.db');
    execFileSync('python3', [
      '-c',
      'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); ' +
        'c.execute("ALTER TABLE session RENAME TO session_v2"); c.commit()',
      db,
    ]);
    const { code, lines, errors } = await inProcess(['usage', '--home', home, '--json']);
    expect({ code, lines }).toEqual({ code: 0, lines: [] });
    expect(errors).toBe(
      `harness-events: opencode store ${JSON.stringify(db)} has a session_v2 table (the 2.x layout), migration ` +
        '20260622202450_simplify_session_input: a layout this reader does not read, its sessions are not listed\n',
    );
  });

  test('a session file whose records the reader does not know names them and the CLI version', async () => {
    const home = homeOf('claude-code/bash');
    const dir = join(home, claudeProject);
    const future = 'f0f0f0f0-0000-4000-8000-00000000000f';
    const record = (n: number) =>
      JSON.stringify({
        type: 'turn_v3',
        sessionId: future,
        version: '3.0.0',
        timestamp: `2026-12-01T10:00:0${n}.000Z`,
        cwd: '/p',
        usage: { in: 5 },
      });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${future}.jsonl`), `${record(1)}\n${record(2)}\n`);
    const { lines, errors } = await inProcess(['usage', '--home', home, '--json', '--by', 'harness']);
    expect(JSON.parse(lines[0]!).calls).toBe(11);
    expect(errors).toBe(
      `harness-events: claude-code session ${JSON.stringify(join(dir, `${future}.jsonl`))} (version 3.0.0): ` +
        'no model call ' +
        'read, and records this reader does not know ("turn_v3" x2): a session format it does not read, not a ' +
        'session without usage\n',
    );
  });
});

describe('usage --watch', { timeout: 60_000 }, () => {
  test('shows the account again when a session changes; Ctrl-C ends it (130), nothing left running', async () => {
    const home = homeOf('claude-code/bash');
    const cli = startCli(['usage', '--watch', '--home', home, '--json', '--by', 'harness']);
    await cli.line((row) => row.calls === 11);
    // A second session appears: pi's capture.
    const pi = fixturePath('pi/transcripts/files/home/.pi');
    execFileSync('cp', ['-r', pi, join(home, '.pi')]);
    await cli.line((row) => (row.group as { harness: string }).harness === 'pi' && row.calls === 5);
    cli.child.kill('SIGINT');
    const { code, stderr } = await cli.closed;
    expect({ code, stderr }).toEqual({ code: 130, stderr: '' });
  });
});
