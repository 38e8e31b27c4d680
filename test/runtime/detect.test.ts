/**
 * `harness: 'auto'`: every real capture of every harness is told from its first records, and
 * normalizes exactly as it does with its harness named.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { harnesses } from '../../lib/index.js';
import { HarnessDetector } from '../../lib/runtime/detect.js';
import { signatures } from '../../lib/runtime/registry.js';
import { MAX_HELD_LINES } from '../../lib/transforms/correlate.js';
import { bodies, fixtureFiles, fixturePath, jsonl, run } from '../helpers.js';

/**
 * Captures that say nothing of which harness wrote them: Kilo's lone 401 `error` is OpenCode's
 * record to the byte (kilo.md), so it is read as OpenCode's, with the same events.
 */
const readAs: Record<string, string> = { 'kilo/lab/api-401.jsonl': 'opencode' };

describe('every real capture is detected as its own harness, with the same events', () => {
  // gg's stream has no shape of its own: it is never detected.
  for (const name of [...harnesses.keys()].filter((name) => name !== 'gg')) {
    test(name, async () => {
      const files = fixtureFiles(name);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const bytes = readFileSync(fixturePath(file));
        const named = await run(bytes, { harness: name, strict: true });
        const auto = await run(bytes, { harness: 'auto', strict: true });
        // An empty capture (a run that printed nothing) is no harness's: nothing to tell.
        expect(auto.metrics.harness, file).toBe(bytes.length === 0 ? 'auto' : (readAs[file] ?? name));
        if (readAs[file] === undefined) {
          expect(bodies(auto.events), file).toEqual(bodies(named.events));
          expect(auto.rules, file).toEqual(named.rules);
        }
      }
    });
  }
});

describe('the detector', () => {
  test('one row per harness that has a shape of its own', () => {
    expect(signatures.map(([harness]) => harness)).toEqual([
      'acp',
      'pi',
      'codex',
      'gemini',
      'qwen',
      'claude-code',
      'copilot',
      'goose',
      'cline',
      'opencode',
    ]);
  });

  test('lines no signature knows are read past: a banner, an unknown type, JSON that is not a record', () => {
    const detector = new HarnessDetector(signatures);
    expect(detector.read('starting session')).toBeUndefined();
    expect(detector.read({ type: 'banner' })).toBeUndefined();
    expect(detector.read([1])).toBeUndefined();
    expect(detector.read({ type: 'thread.started', thread_id: 't' })).toBe('codex');
    expect(detector.seen).toEqual(['a string', 'type "banner"', 'an array']);
  });

  test('OpenCode or Kilo: the first record that tells them apart decides; one that never does is OpenCode', () => {
    const step = { type: 'step_start', sessionID: 's', part: {} };
    const finish = (part: object) => ({ type: 'step_finish', sessionID: 's', part: { tokens: {}, ...part } });
    const tool = (name: string) => ({ type: 'tool_use', sessionID: 's', part: { tool: name, state: {} } });
    const told = (...records: object[]) => {
      const detector = new HarnessDetector(signatures);
      for (const record of records) if (detector.read(record) !== undefined) break;
      return detector.settle();
    };
    expect(told(step, finish({ metrics: { generation: 1, source: 'computed' } }))).toBe('kilo');
    expect(told(step, finish({}))).toBe('opencode');
    expect(told(step, tool('board_post'))).toBe('kilo');
    expect(told(step, tool('apply_patch'))).toBe('opencode');
    expect(told(step, { type: 'error', sessionID: 's', error: 'run ended with an auto-rejected permission' })).toBe(
      'kilo',
    );
    expect(told(step, tool('read'))).toBe('opencode');
  });
});

describe('a stream no harness wrote', () => {
  test(
    `after ${MAX_HELD_LINES} lines, an unknown_harness ` + `error naming what it saw; every record kept as unknown`,
    async () => {
      const records = Array.from({ length: MAX_HELD_LINES + 2 }, (_, i) => ({ type: i % 2 ? 'tick' : 'tock', n: i }));
      const { events, metrics } = await run(jsonl(...records), { harness: 'auto', strict: true });
      expect(bodies(events)[0]).toEqual({
        type: 'error',
        code: 'unknown_harness',
        message:
          'harness auto: no harness\'s stream begins like this one (it showed type "tock", type "tick"); its records ' +
          'are kept as unknown events',
      });
      expect(bodies(events).slice(1)).toEqual(records.map((raw) => ({ type: 'unknown', raw })));
      expect(metrics.harness).toBe('auto');
    },
  );

  test(
    `any number of banner lines before the first record (here ${MAX_HELD_LINES + 50}): ` +
      'detection reads records, not lines',
    async () => {
      const capture = readFileSync(fixturePath('claude-code/lab/parallel.jsonl'));
      const banner = Array.from({ length: MAX_HELD_LINES + 50 }, (_, i) => `starting agent, step ${i}\n`).join('');
      const named = await run(capture, { harness: 'claude-code', strict: true });
      const auto = await run(Buffer.concat([Buffer.from(banner), capture]), { harness: 'auto', strict: true });
      expect(auto.metrics.harness).toBe('claude-code');
      const warnings = Array.from({ length: MAX_HELD_LINES + 50 }, (_, i) => ({
        type: 'warning',
        code: 'not_json',
        message: `starting agent, step ${i}`,
      }));
      expect(bodies(auto.events)).toEqual([...warnings, ...bodies(named.events)]);
    },
  );

  test('an input with no record (empty, or text only) is no error: there is nothing to place', async () => {
    expect(bodies((await run('', { harness: 'auto' })).events)).toEqual([]);
    expect(bodies((await run('starting session\n', { harness: 'auto' })).events)).toEqual([
      { type: 'warning', code: 'not_json', message: 'starting session' },
    ]);
  });
});

const bin = new URL('../../bin/harness-events.js', import.meta.url).pathname;

test('the CLI: normalize --harness auto gives the events the named harness gives', async () => {
  const file = fixturePath('gemini/lab/shell.jsonl');
  const [auto, named] = await Promise.all(
    ['auto', 'gemini'].map((harness) =>
      promisify(execFile)(process.execPath, [bin, 'normalize', '--harness', harness, file]),
    ),
  );
  const events = (stdout: string) =>
    bodies(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    );
  expect(events(auto!.stdout)).toEqual(events(named!.stdout));
}, 60_000);

test('run --harness auto (spawnHarness with auto): a live child is told by its first record', async () => {
  const lines = [
    { type: 'thread.started', thread_id: 't' },
    { type: 'turn.completed', usage: { input_tokens: 3, cached_input_tokens: 0, output_tokens: 2 } },
  ];
  const script = `for (const line of ${JSON.stringify(lines.map((line) => JSON.stringify(line)))}) console.log(line);`;
  const { stdout } = await promisify(execFile)(process.execPath, [
    bin,
    'run',
    '--harness',
    'auto',
    '--',
    process.execPath,
    '-e',
    script,
  ]);
  expect(
    bodies(
      stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ),
  ).toEqual([{ type: 'usage', tokens: { input: 3, cache_read: 0, output: 2 } }]);
}, 60_000);
