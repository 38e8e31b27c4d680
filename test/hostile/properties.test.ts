/**
 * Hostile input, as property tests over every harness and every real fixture: however the
 * input is cut into chunks, the events are the same; whatever garbage, truncated records and
 * interleaved fragments are inserted, nothing throws, the stream runs to its end, and every
 * input line is accounted for by a named rule. The counts feed the README's RELIABILITY table.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { harnesses, type HarnessName } from '../../lib/index.js';
import { bodies, capturedHarnesses, fixtureFiles, fixturePath, run } from '../helpers.js';

/** Big fixtures get fewer runs, so the suite stays fast. */
const runsFor = (bytes: number) => (bytes > 200_000 ? 3 : 12);

const tally = { inputs: 0, lines: 0, accounted: 0, crashes: 0 };
afterAll(() => {
  console.info(
    `hostile input: ${tally.inputs} inputs, ${tally.lines} lines fed, ${tally.accounted} accounted, ` +
      `${tally.crashes} crashes`,
  );
});

function physicalLines(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

/** Normalizes, counting what went in and what was accounted; a throw is a crash (and fails the test). */
async function tallied(input: string | Buffer[], harness: HarnessName, cwd?: string) {
  const text = typeof input === 'string' ? input : Buffer.concat(input).toString('utf8');
  tally.inputs++;
  tally.lines += physicalLines(text);
  try {
    const result = await run(input, { harness, cwd });
    tally.accounted += result.rules.filter((rule) => rule !== undefined).length;
    return result;
  } catch (error) {
    tally.crashes++;
    throw error;
  }
}

/** Cut points in `length` bytes, as chunks. */
function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

/** Lines a hostile world inserts: garbage, control bytes, records cut short, one record inside another. */
function hostileLine(lines: string[]) {
  const real = fc.constantFrom(...lines.filter((line) => line.trim() !== ''));
  return fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ unit: 'binary', maxLength: 80 }),
    fc.constantFrom(
      '\u0000\u0000',
      '\r',
      '{',
      '}',
      '[]',
      'null',
      '"\\ud800"',
      '{"type":null}',
      '{"type":"__proto__"}',
      '{"__proto__":{"polluted":1}}',
      '\ufeff{"type":"x"}',
    ),
    real.chain((line) => fc.nat(line.length).map((at) => line.slice(0, at))),
    fc
      .tuple(real, real)
      .chain(([outer, inner]) => fc.nat(outer.length).map((at) => `${outer.slice(0, at)}${inner}\n${outer.slice(at)}`)),
    fc.json({ maxDepth: 3 }),
  );
}

/**
 * Insertions that carry a tool call, whole or glued into another line, change the call by the harness's own rules:
 * an ACP tool call is a record each message updates field by field, closed once it has finished (acp.md: an early
 * `completed` closes it before its input came); a Claude Code `tool_use` is resolved by its id, the first one waiting
 * under it, and takes the shell directory of its time (claude-code.md: a copy of a later Bash call put before the
 * `cd` it follows is the call its result resolves, in the directory it was made in). Such inputs keep every check
 * but the one on the clean run's file operations.
 */
const toolCallMarks: Readonly<Record<string, string>> = { acp: '"toolCallId"', 'claude-code': '"type":"tool_use"' };

function carriesAToolCall(harness: string, insertions: [number, string][]): boolean {
  const mark = toolCallMarks[harness];
  return mark !== undefined && insertions.some(([, inserted]) => inserted.includes(mark));
}

describe('hostile input, every harness, every real fixture', () => {
  for (const harness of capturedHarnesses()) {
    for (const file of fixtureFiles(harness)) {
      const bytes = readFileSync(fixturePath(file));
      if (bytes.length === 0) continue;
      const text = bytes.toString('utf8');
      const lines = text.split('\n');

      test(`${file}: any split into chunks gives the same events`, async () => {
        const whole = bodies((await tallied(text, harness, '/ws')).events);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
            expect(bodies((await tallied(chunked(bytes, cuts), harness, '/ws')).events)).toEqual(whole);
          }),
          { numRuns: runsFor(bytes.length) },
        );
      });

      test(
        `${file}: garbage, truncated and interleaved lines anywhere: no throw, runs to the end, every line ` +
          `accounted`,
        async () => {
          const clean = await tallied(text, harness, '/ws');
          await fc.assert(
            fc.asyncProperty(
              fc.array(fc.tuple(fc.nat(), hostileLine(lines)), { minLength: 1, maxLength: 6 }),
              async (insertions) => {
                const dirty = [...lines];
                for (const [at, line] of insertions) dirty.splice(at % (dirty.length + 1), 0, line);
                const input = dirty.join('\n');
                const result = await tallied(input, harness, '/ws');
                // Every line, to the last, handled by some rule: the stream did not end early.
                expect(result.rules.length).toBe(physicalLines(input));
                expect(result.rules.every((rule) => typeof rule === 'string' && rule !== '')).toBe(true);
                expect(result.metrics.input.bytes).toBe(Buffer.byteLength(input));
                // The clean run's file operations are all still there (insertions may add events, or split a message).
                for (const event of carriesAToolCall(harness, insertions) ? [] : clean.events) {
                  if (event.type === 'read' || event.type === 'write')
                    expect(result.events.some((e) => 'path' in e && e.path === event.path)).toBe(true);
                }
                expect(Object.prototype).not.toHaveProperty('polluted');
              },
            ),
            { numRuns: runsFor(bytes.length) },
          );
        },
      );
    }
  }
});

test('every harness but gg has real captures for these tests', () => {
  expect([...capturedHarnesses(), 'gg'].sort()).toEqual([...harnesses.keys()].sort());
});
