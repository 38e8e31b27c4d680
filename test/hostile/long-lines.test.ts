/**
 * Lines too long to parse whole: read incrementally (stream-json) within a budget, the same events as parsed whole
 * for every real capture, and lines of tens of megabytes in memory bounded by the design (a child process measures
 * its own peak).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import { harnesses, type HarnessEvent, type HarnessName } from '../../lib/index.js';
import { classify, correlate, parseJson, splitLines, validate } from '../../lib/transforms.js';
import { sharedRecords } from '../../lib/kernel/record-table.js';
import { bodies, capturedHarnesses, fixtureFiles, fixturePath, jsonl, run } from '../helpers.js';
import { text } from './claude-text.js';

const tmp = mkdtempSync(join(tmpdir(), 'harness-events-long-lines-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('lines too long to parse whole (stream-json, incrementally, within a budget)', () => {
  /**
   * Every event of a capture, through the separate stages, with every line longer than one byte read incrementally, and
   * a budget nothing real reaches.
   */
  async function incrementally(file: string, harness: HarnessName) {
    const events: HarnessEvent[] = [];
    const h = harnesses.get(harness)!;
    await pipeline(
      Readable.from([readFileSync(fixturePath(file))]),
      splitLines({ streamLinesAbove: 1 }),
      parseJson({ longLineBudget: 64 * 1024 * 1024 }),
      correlate({ harness: h }),
      classify(),
      validate({ strict: true }),
      new Writable({ objectMode: true, write: (event, _e, done) => (events.push(event), done()) }),
    );
    return events;
  }

  for (const harness of capturedHarnesses()) {
    test(`${harness}: every real capture gives the same events read incrementally as parsed whole`, async () => {
      for (const file of fixtureFiles(harness)) {
        const whole = bodies((await run(readFileSync(fixturePath(file)), { harness })).events);
        expect(bodies(await incrementally(file, harness)), file).toEqual(whole);
      }
    }, 60_000);
  }

  const budget = 64 * 1024;

  test(
    "a text block far over the budget: the agent event keeps the budget's worth, and a truncated warning names " +
      'the cut',
    async () => {
      const long = 'x'.repeat(1_000_000);
      const { events } = await run(
        jsonl({ type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: long }] }, session_id: 's' }),
        { harness: 'claude-code', streamLinesAbove: budget },
      );
      const [warning, agent] = bodies(events) as [{ message: string; code: string }, { type: string; message: string }];
      expect(warning).toEqual({
        type: 'warning',
        code: 'truncated',
        message: expect.stringMatching(
          new RegExp(
            String.raw`^line 1 \(\d+ bytes\) was read incrementally and kept within its budget: 1 string cut short ` +
              String.raw`by \d+ characters \(at message\.content\[0\]\.text\)$`,
          ),
        ),
      });
      expect(agent.type).toBe('agent');
      expect(long.startsWith(agent.message)).toBe(true);
      expect(agent.message.length).toBeLessThanOrEqual(budget);
      expect(agent.message.length).toBeGreaterThan(budget / 2);
    },
  );

  test(
    'a Read result whose file contents are far over the budget: the read event, with its line range, and its ' +
      'session id',
    async () => {
      const contents = 'line\n'.repeat(400_000);
      const records = [
        {
          type: 'assistant',
          message: {
            id: 'm',
            content: [
              {
                type: 'tool_use',
                id: 't1',
                name: 'Read',
                input: { file_path: '/ws/big.txt', offset: 1, limit: 400000 },
              },
            ],
          },
          session_id: 's',
        },
        {
          type: 'user',
          message: {
            content: [
              { type: 'tool_result', tool_use_id: 't1', content: contents },
              { type: 'text', text: 'after' },
            ],
          },
          tool_use_result: {
            type: 'text',
            file: { filePath: '/ws/big.txt', content: contents, numLines: 400000, startLine: 1, totalLines: 400000 },
          },
          session_id: 's',
        },
      ];
      const { events } = await run(jsonl(...records), { harness: 'claude-code', streamLinesAbove: budget });
      expect(bodies(events)).toEqual([
        { type: 'warning', code: 'truncated', message: expect.stringContaining('2 strings cut short') },
        { type: 'read', path: '/ws/big.txt', start_line: 1, end_line: 400000, is_success: true },
      ]);
      expect(events[1]!.session_id).toBe('s');
    },
    60000,
  );

  test('a line of 200,000 small objects: classified, the bulk dropped, the fields after it kept', async () => {
    const line =
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},' +
      `"tool_use_result":{"data":[${'{"a":1},'.repeat(200_000)}{"a":1}]},"session_id":"s"}`;
    const use = {
      type: 'assistant',
      message: { id: 'm', content: [{ type: 'tool_use', id: 't1', name: 'LS', input: { path: '/ws' } }] },
    };
    const { events } = await run(jsonl(use) + line + '\n', { harness: 'claude-code', streamLinesAbove: budget });
    expect(bodies(events)).toEqual([
      {
        type: 'warning',
        code: 'truncated',
        message: expect.stringMatching(
          new RegExp(
            String.raw`^line 2 \(\d+ bytes\) was read incrementally and kept within its budget: \d+ array elements ` +
              String.raw`or object members dropped \(at tool_use_result\.data\[\d+\]\)$`,
          ),
        ),
      },
      { type: 'list', path: '/ws', is_success: true },
    ]);
    expect(events[1]!.session_id).toBe('s');
  }, 60000);

  test(
    'a long line that is not JSON: one not_json ' + 'warning with its beginning and size; the next line intact',
    async () => {
      const broken = `{"type":"assistant","message":${'x'.repeat(200_000)}`;
      const { events } = await run(broken + '\n' + JSON.stringify(text(1)) + '\n', {
        harness: 'claude-code',
        streamLinesAbove: budget,
      });
      const [warning, agent] = bodies(events) as [{ message: string; code: string }, unknown];
      expect(warning.code).toBe('not_json');
      expect(warning.message.startsWith(broken.slice(0, 1024) + '… (a line of 200030 bytes that is not JSON')).toBe(
        true,
      );
      expect(agent).toEqual({ type: 'agent', message: 'line 1' });
    },
  );

  test('a long blank line is a blank line; a long line over maxLineBytes is still line_too_long', async () => {
    const { events, rules } = await run(' '.repeat(200_000) + '\n' + 'y'.repeat(300_000) + '\n', {
      harness: 'claude-code',
      streamLinesAbove: budget,
      maxLineBytes: 250_000,
    });
    expect(rules).toEqual([sharedRecords['blank line'].rules.blank, sharedRecords['too long'].rules.warning]);
    expect(bodies(events)).toEqual([
      {
        type: 'warning',
        code: 'line_too_long',
        message: 'line 2 is 300000 bytes long (maxLineBytes is 250000); its content was skipped',
      },
    ]);
  });
});

describe('memory bounded by the design (a child process measures its own peak)', () => {
  /** Peak RSS in MB of `harness-events normalize` on `file`, and its output. */
  async function measured(file: string, extra: string[] = []) {
    const cli = JSON.stringify(new URL('../../dist/lib/interfaces/cli/cli.js', import.meta.url).pathname);
    const args = JSON.stringify(['normalize', '--harness', 'claude-code', ...extra, file]);
    return new Promise<{ peakMB: number; stdout: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `
        const { main } = await import(${cli});
        const { Writable } = await import('node:stream');
        let out = '';
        const sink = new Writable({ write(chunk, _e, done) { out += chunk; done(); } });
        const code = await main(${args}, process.stdin, sink);
        process.stdout.write(JSON.stringify({ code, peakMB: process.resourceUsage().maxRSS / 1024, out }));
      `,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let stdout = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.on('error', reject);
      child.on('close', () => {
        const { code, peakMB, out } = JSON.parse(stdout);
        expect(code).toBe(0);
        resolve({ peakMB, stdout: out });
      });
    });
  }

  /** A file of `head`, `megabytes` MB of `unit` repeated, `tail`, one line. */
  function oneLine(name: string, head: string, unit: string, megabytes: number, tail: string): string {
    const file = join(tmp, name);
    const fd = openSync(file, 'w');
    writeSync(fd, head);
    const block = Buffer.from(unit.repeat(Math.floor((1024 * 1024) / unit.length)));
    for (let i = 0; i < megabytes; i++) writeSync(fd, block);
    writeSync(fd, tail);
    closeSync(fd);
    return file;
  }

  const readCall =
    '{"type":"assistant","message":{"id":"m0","content":[{"type":"tool_use","id":"t1","name":"Read",' +
    '"input":{"file_path":"/a"}}]}}\n';

  test('a 60 MB text line: at most 100 MB + 1.5x the line, and the record classified', async () => {
    const file = oneLine(
      'text60.jsonl',
      '{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"',
      'x',
      60,
      '"}]},"session_id":"s"}\n',
    );
    const { peakMB, stdout } = await measured(file);
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['warning', 'agent']);
    expect(peakMB).toBeLessThan(100 + 1.5 * 60);
  }, 300000);

  test('a 60 MB line of 7.5 M small objects: at most 100 MB + 1.5x the line, and the record classified', async () => {
    const file = oneLine(
      'objects60.jsonl',
      readCall +
        '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},' +
        '"tool_use_result":{"data":[',
      '{"a":1},',
      60,
      '{"a":1}]},"session_id":"s"}\n',
    );
    const { peakMB, stdout } = await measured(file);
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['warning', 'read']);
    expect(peakMB).toBeLessThan(100 + 1.5 * 60);
  }, 300000);
});
