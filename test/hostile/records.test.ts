/**
 * Hostile records: valid JSON that is merely unusual (nested thousands deep, numbers JSON reads
 * as Infinity, one tool id repeated thousands of times, lines of hundreds of megabytes) and
 * input that is not UTF-8 text. The stream runs to its last line, every event stays valid
 * against the schemas, and memory stays bounded by the design.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, test } from 'vitest';
import { createNormalizer, harnesses, type HarnessEvent, type HarnessName } from '../../lib/index.js';
import { classify, correlate, parseJson, splitLines, validate } from '../../lib/transforms.js';
import { metricsSchema } from '../../lib/kernel/contract.js';
import { records as claudeRecords } from '../../lib/harnesses/claude-code/correlate.js';
import { sharedRecords } from '../../lib/kernel/record-table.js';
import { bodies, capturedHarnesses, fixtureFiles, fixturePath, jsonl, run } from '../helpers.js';

const bin = new URL('../../bin/harness-events.js', import.meta.url).pathname;
const replay = new URL('../children/replay.mjs', import.meta.url).pathname;
const execFileP = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'harness-events-records-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const validMetrics = new Ajv2020().compile(metricsSchema());

/** `depth` arrays inside each other. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const text = (i: number) => ({
  type: 'assistant',
  message: { id: `m${i}`, content: [{ type: 'text', text: `line ${i}` }] },
  session_id: 's',
});

describe('a record nested thousands of levels deep', () => {
  // 50 lines, a 6,000-deep record (a type the harness does not know, so unknown would carry it), 50 lines.
  const deep = `{"type":"mystery","payload":${nested(6000)}}`;
  const sandwich = jsonl(
    ...Array.from({ length: 50 }, (_, i) => text(i)),
    deep,
    ...Array.from({ length: 50 }, (_, i) => text(50 + i)),
  );
  const expected = [
    ...Array.from({ length: 50 }, (_, i) => ({ type: 'agent', message: `line ${i}` })),
    {
      type: 'warning',
      code: 'too_deep',
      message:
        'a record nested more than 1000 levels deep cannot be carried as JSON (no consumer could serialize it): ' +
        'dropped from this unknown event',
    },
    ...Array.from({ length: 50 }, (_, i) => ({ type: 'agent', message: `line ${50 + i}` })),
  ];

  test("objects: the 100 lines' events and one too_deep warning, in order", async () => {
    const { events, rules } = await run(sandwich, { harness: 'claude-code' });
    expect(bodies(events)).toEqual(expected);
    expect(rules).toHaveLength(101);
  });

  test('JSONL output: the same, every line serializable', async () => {
    const normalizer = createNormalizer({ harness: 'claude-code', output: 'jsonl', strict: true });
    let out = '';
    await pipeline(
      Readable.from([Buffer.from(sandwich)]),
      normalizer,
      new Writable({ write: (chunk, _e, done) => ((out += chunk), done()) }),
    );
    expect(
      bodies(
        out
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ),
    ).toEqual(expected);
  });

  test('a deep tool input under a repeated tool_use id: no stack overflow, the ambiguity reported', async () => {
    const use = `{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a","x":${nested(6000)}}}]}}\n`;
    const { events } = await run(use + use + jsonl(text(1)), { harness: 'claude-code' });
    // Two uses that cannot be compared are two uses: ambiguous, so unknown; too deep to carry, so a warning.
    expect(bodies(events).map((e) => e.code ?? e.type)).toEqual(['agent', 'too_deep']);
  });

  test("the CLI, normalize and run: exit 0, the 100 lines' events and the warning", async () => {
    const file = join(tmp, 'deep.jsonl');
    writeFileSync(file, sandwich);
    const normalized = await execFileP(process.execPath, [bin, 'normalize', '--harness', 'claude-code', file]);
    expect(
      bodies(
        normalized.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ),
    ).toEqual(expected);
    const ran = await execFileP(process.execPath, [
      bin,
      'run',
      '--harness',
      'claude-code',
      '--',
      process.execPath,
      replay,
      file,
      '0',
    ]);
    const events = bodies(
      ran.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    );
    // The replay ends without Claude's `result`: the run says it is incomplete.
    expect(events.slice(0, -1)).toEqual(expected);
    expect(events.at(-1)).toMatchObject({ type: 'warning', code: 'incomplete' });
  }, 60000);
});

describe('numbers JSON reads as Infinity, negative costs, sums that would overflow', () => {
  // As Claude Code would write them: JSON numbers that parse to Infinity, and a count past 2^53.
  const result =
    '{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":1,"total_cost_usd":1e400,"duration_ms":1e400,"usage":{"input_tokens":1e308,"output_tokens":5}}\n';

  for (const strict of [true, false]) {
    test(
      `Claude Code: an infinite cost, duration or token count is dropped; the metrics stay valid (strict: ` +
        `${strict})`,
      async () => {
        const { events, metrics } = await run(result, { harness: 'claude-code', strict });
        expect(events).toEqual([]);
        expect(metrics).toMatchObject({ tokens: { output: 5 }, turns: 1, final_output: 'done' });
        expect(metrics).not.toHaveProperty('cost');
        expect(metrics).not.toHaveProperty('duration_ms');
        expect(validMetrics(JSON.parse(JSON.stringify(metrics))), JSON.stringify(validMetrics.errors)).toBe(true);
      },
    );

    test(
      `OpenCode: cost 1e400 or negative is dropped from the usage event and the sum; 1e308 tokens are no count ` +
        `(strict: ${strict})`,
      async () => {
        const step = (cost: string, input: string) =>
          `{"type":"step_finish","sessionID":"s","part":{"cost":${cost},"tokens":{"input":${input},"output":3,"reasoning":0,"cache":{"read":0,"write":0}}}}\n`;
        const { events, metrics } = await run(step('1e400', '1e308') + step('-2', '1e308') + step('0.5', '7'), {
          harness: 'opencode',
          strict,
        });
        expect(bodies(events)).toEqual([
          { type: 'usage', tokens: { output: 3, reasoning: 0, cache_read: 0, cache_write: 0 } },
          { type: 'usage', tokens: { output: 3, reasoning: 0, cache_read: 0, cache_write: 0 } },
          { type: 'usage', tokens: { input: 7, output: 3, reasoning: 0, cache_read: 0, cache_write: 0 }, cost: 0.5 },
        ]);
        expect(metrics).toMatchObject({ cost: 0.5, tokens: { input: 7, output: 9 } });
        expect(validMetrics(JSON.parse(JSON.stringify(metrics))), JSON.stringify(validMetrics.errors)).toBe(true);
      },
    );
  }

  test('the largest exact counts still add up to finite, valid metrics', async () => {
    const big = Number.MAX_SAFE_INTEGER;
    const step = `{"type":"step_finish","sessionID":"s","part":{"cost":${big},"tokens":{"input":${big},"output":${big}}}}\n`;
    const { metrics } = await run(step.repeat(3), { harness: 'opencode', strict: true });
    expect(Number.isFinite(metrics.tokens.input)).toBe(true);
    expect(Number.isFinite(metrics.cost)).toBe(true);
    expect(validMetrics(JSON.parse(JSON.stringify(metrics)))).toBe(true);
  });

  test('the CLI writes a metrics file that is valid JSON against the schema', async () => {
    const file = join(tmp, 'infinite.jsonl');
    const metricsFile = join(tmp, 'infinite-metrics.json');
    writeFileSync(
      file,
      '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":1e400,"duration_ms":1e400,"usage":{"input_tokens":2}}\n',
    );
    await execFileP(process.execPath, [
      bin,
      'normalize',
      '--harness',
      'claude-code',
      '--strict',
      '--metrics',
      metricsFile,
      file,
    ]);
    expect(validMetrics(JSON.parse(readFileSync(metricsFile, 'utf8')))).toBe(true);
  }, 60000);
});

describe('one tool_use id repeated with different inputs', () => {
  const use = (i: number) => ({
    type: 'assistant',
    message: { id: `m${i}`, content: [{ type: 'tool_use', id: 'same', name: 'Read', input: { file_path: `/f${i}` } }] },
  });

  test('the uses count against maxPendingTools: held at most that many, each use carried once, none lost', async () => {
    const result = {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 'same', content: 'ok' }] },
    };
    const { events } = await run(jsonl(...Array.from({ length: 250 }, (_, i) => use(i)), result), {
      harness: 'claude-code',
      maxPendingTools: 100,
    });
    const carried = events.map((event) =>
      (event as { raw: { tool_use: { input: { file_path: string } }[] } }).raw.tool_use.map((u) => u.input.file_path),
    );
    // 101 uses make the 101st held call: the oldest (all 101, one id) is given up on, and so on.
    expect(carried.map((uses) => uses.length)).toEqual([101, 101, 48]);
    expect(carried.flat()).toEqual(Array.from({ length: 250 }, (_, i) => `/f${i}`));
    expect(events.every((event) => event.type === 'unknown')).toBe(true);
  });

  test(
    '20,000 uses of one id normalize (one Set lookup ' + 'per use, not a comparison with every earlier one)',
    async () => {
      const { events } = await run(jsonl(...Array.from({ length: 20_000 }, (_, i) => use(i))), {
        harness: 'claude-code',
      });
      expect(events.map((event) => (event as { raw: { tool_use: unknown[] } }).raw.tool_use.length)).toEqual([
        10_001, 9_999,
      ]);
    },
    60000,
  );
});

describe('limits that are not positive integers are refused', () => {
  for (const option of ['maxLineBytes', 'maxPendingTools', 'maxSpanBytes', 'streamLinesAbove', 'idleFlushMs']) {
    test(option, () => {
      for (const value of [NaN, 0, -1, 1.5, Infinity]) {
        expect(() => createNormalizer({ harness: 'claude-code', [option]: value }), `${option}: ${value}`).toThrow(
          new RangeError(`${option} must be a positive integer, got ${value}`),
        );
      }
    });
  }

  test('the stages alone refuse them too', () => {
    expect(() => splitLines({ maxLineBytes: NaN })).toThrow(RangeError);
    expect(() => correlate({ harness: harnesses.get('codex')!, maxPendingTools: 0 })).toThrow(RangeError);
  });
});

describe('input that is not UTF-8 text', () => {
  const capture = readFileSync(fixturePath('claude-code/lab/read.jsonl'));
  const encoding = (message: string) => ({ type: 'warning', code: 'encoding', message });
  let plain: Record<string, unknown>[];

  test(
    "UTF-16LE with a byte-order mark (Windows PowerShell 5.1's >): decoded, one encoding warning, the same " + 'events',
    async () => {
      plain = bodies((await run(capture, { harness: 'claude-code' })).events);
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(capture.toString('utf8'), 'utf16le')]);
      const { events } = await run(utf16, { harness: 'claude-code' });
      expect(bodies(events)).toEqual([
        encoding("the input is UTF-16LE, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded"),
        ...plain,
      ]);
    },
  );

  test('UTF-16LE without a mark, UTF-16BE with one, cut into one-byte chunks: decoded all the same', async () => {
    const le = Buffer.from(capture.toString('utf8'), 'utf16le');
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
    const oneByte = (bytes: Buffer) => [...bytes].map((byte) => Buffer.from([byte]));
    expect(bodies((await run(oneByte(le.subarray(0, 4000)), { harness: 'claude-code' })).events)[0]).toEqual(
      encoding("the input is UTF-16LE, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded"),
    );
    expect(bodies((await run(le, { harness: 'claude-code' })).events).slice(1)).toEqual(plain);
    expect(bodies((await run(be, { harness: 'claude-code' })).events)).toEqual([
      encoding("the input is UTF-16BE, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded"),
      ...plain,
    ]);
  });

  test('gzip: one warning saying so, not a warning per line', async () => {
    const gz = gzipSync(capture);
    const { events, metrics } = await run(gz, { harness: 'claude-code' });
    expect(bodies(events)).toEqual([
      encoding(
        `the input is gzip-compressed (it starts with 1f 8b): ${gz.length} bytes skipped; decompress it first ` +
          `(zcat FILE | harness-events ...)`,
      ),
    ]);
    expect(metrics.input).toEqual({ bytes: gz.length, lines: 0, rules: {} });
  });

  test('two captures concatenated, each with a byte-order mark: both read whole', async () => {
    const bom = Buffer.from('\ufeff');
    const { events } = await run(Buffer.concat([bom, capture, bom, capture]), { harness: 'claude-code' });
    expect(bodies(events)).toEqual([...plain, ...plain]);
  });

  test('two records glued together without a newline: both, in input order', async () => {
    const { events, rules } = await run(JSON.stringify(text(1)) + JSON.stringify(text(2)) + '\n', {
      harness: 'claude-code',
    });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'line 1' },
      { type: 'agent', message: 'line 2' },
    ]);
    expect(rules).toEqual([claudeRecords.assistant.rules.blocks]);
  });
});

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
          /^line 1 \(\d+ bytes\) was read incrementally and kept within its budget: 1 string cut short by \d+ characters \(at message\.content\[0\]\.text\)$/,
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
    const line = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"tool_use_result":{"data":[${'{"a":1},'.repeat(200_000)}{"a":1}]},"session_id":"s"}`;
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
          /^line 2 \(\d+ bytes\) was read incrementally and kept within its budget: \d+ array elements or object members dropped \(at tool_use_result\.data\[\d+\]\)$/,
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
    return new Promise<{ peakMB: number; stdout: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `
        const { main } = await import(${JSON.stringify(new URL('../../dist/lib/interfaces/cli/cli.js', import.meta.url).pathname)});
        const { Writable } = await import('node:stream');
        let out = '';
        const sink = new Writable({ write(chunk, _e, done) { out += chunk; done(); } });
        const code = await main(['normalize', '--harness', 'claude-code', ...${JSON.stringify(extra)}, ${JSON.stringify(file)}], process.stdin, sink);
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
    '{"type":"assistant","message":{"id":"m0","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/a"}}]}}\n';

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
        '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"tool_use_result":{"data":[',
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
