/**
 * The stages joined by hand in stream.pipeline give what createNormalizer gives: the same events
 * and the same metrics (bytes, lines, rules, event counts), on every real capture of every
 * harness that has some, told by name and by `harness: 'auto'`.
 */
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, test } from 'vitest';
import { createNormalizer, harnessFrom, type HarnessEvent, type HarnessOption } from '../../lib/index.js';
import { classify, correlate, parseJson, splitLines, validate } from '../../lib/transforms.js';
import { fixtureFiles, fixturePath } from '../helpers.js';

const withoutTimes = (events: HarnessEvent[]) => events.map(({ timestamp: _timestamp, ...rest }) => rest);

async function byHand(bytes: Buffer, harness: HarnessOption) {
  const events: HarnessEvent[] = [];
  const correlation = correlate({ harness: harnessFrom(harness), cwd: '/ws' });
  await pipeline(
    Readable.from([bytes]),
    splitLines(),
    parseJson(),
    correlation,
    classify(),
    validate({ strict: true }),
    new Writable({ objectMode: true, write: (event, _e, done) => (events.push(event), done()) }),
  );
  return { events, metrics: correlation.metrics };
}

async function normalized(bytes: Buffer, harness: HarnessOption) {
  const events: HarnessEvent[] = [];
  const normalizer = createNormalizer({ harness, cwd: '/ws', strict: true });
  await pipeline(
    Readable.from([bytes]),
    normalizer,
    new Writable({ objectMode: true, write: (event, _e, done) => (events.push(event), done()) }),
  );
  return { events, metrics: normalizer.metrics };
}

const harnessNames = ['claude-code', 'codex', 'copilot', 'gemini', 'kilo', 'opencode', 'pi', 'qwen', 'acp'] as const;

describe.each(harnessNames)('%s captures: stages joined by hand = createNormalizer', (name) => {
  test.each(fixtureFiles(name))('%s', async (file) => {
    const bytes = readFileSync(fixturePath(file));
    for (const harness of [name, 'auto'] as const) {
      const hand = await byHand(bytes, harness);
      const fused = await normalized(bytes, harness);
      expect(withoutTimes(hand.events), String(harness)).toEqual(withoutTimes(fused.events));
      expect(hand.metrics, String(harness)).toEqual(fused.metrics);
      expect(hand.metrics.input.bytes).toBe(bytes.length);
      expect(Object.values(hand.metrics.events).reduce((a, b) => a + b, 0)).toBe(hand.events.length);
    }
  });
});
