/**
 * Hostile records: valid JSON that is merely unusual (nested thousands deep, numbers JSON reads as Infinity, one
 * tool id repeated thousands of times) and limits that are no limits. The stream runs to its last line and every
 * event stays valid against the schemas. Input that is not UTF-8 text: encoding.test.ts; lines of hundreds of
 * megabytes: long-lines.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, test } from 'vitest';
import { createNormalizer, harnesses } from '../../lib/index.js';
import { correlate, splitLines } from '../../lib/transforms.js';
import { metricsSchema } from '../../lib/kernel/contract.js';
import { bodies, jsonl, run } from '../helpers.js';
import { text } from './claude-text.js';

const bin = new URL('../../bin/harness-events.js', import.meta.url).pathname;
const replay = new URL('../children/replay.mjs', import.meta.url).pathname;
const execFileP = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'harness-events-records-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const validMetrics = new Ajv2020().compile(metricsSchema());

/** `depth` arrays inside each other. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

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
    const use =
      '{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t1","name":"Read",' +
      `"input":{"file_path":"/a","x":${nested(6000)}}}]}}\n`;
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
    '{"type":"result","subtype":"success","is_error":false,"result":"done","num_turns":1,"total_cost_usd":1e400,' +
    '"duration_ms":1e400,"usage":{"input_tokens":1e308,"output_tokens":5}}\n';

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
          `{"type":"step_finish","sessionID":"s","part":{"cost":${cost},"tokens":{"input":${input},"output":3,` +
          '"reasoning":0,"cache":{"read":0,"write":0}}}}\n';
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
    const step =
      `{"type":"step_finish","sessionID":"s","part":{"cost":${big},` + `"tokens":{"input":${big},"output":${big}}}}\n`;
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
      '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":1e400,"duration_ms":1e400,' +
        '"usage":{"input_tokens":2}}\n',
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
