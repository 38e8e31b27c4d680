/**
 * Every stream the library returns is one of Node's own classes (`node:stream`), so `instanceof`
 * and `stream.isReadable` agree with the types (the JetStream sink and source are checked where a
 * server runs, test/interfaces/jetstream/roundtrip.test.ts); and a user's own through2 transform composes
 * with the stages in `stream.pipeline`.
 */
import { Duplex, Readable, Transform, Writable, isReadable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import through2 from 'through2';
import { expect, test } from 'vitest';
import { createNormalizer, createRunStream, harnesses, normalize, readEvents, spawnHarness } from '../lib/index.js';
import { classify, correlate, parseJson, serialize, splitLines, validate } from '../lib/transforms.js';
import { prettyPrint } from '../lib/interfaces/view/index.js';
import { bodies, jsonl } from './helpers.js';

test('the normalizer, every stage, readEvents and the pretty printer are node:stream Transforms', () => {
  const harness = harnesses.get('claude-code')!;
  const streams = [
    createNormalizer({ harness: 'claude-code' }),
    normalize(Readable.from([]), { harness: 'claude-code' }),
    splitLines(),
    parseJson(),
    correlate({ harness }),
    classify(),
    validate(),
    serialize(),
    readEvents(),
    prettyPrint(),
  ];
  for (const stream of streams) {
    expect(stream).toBeInstanceOf(Transform);
    expect(stream).toBeInstanceOf(Duplex);
    expect(stream).toBeInstanceOf(Readable);
    expect(isReadable(stream)).toBe(true);
    stream.destroy();
  }
});

test('a harness run and a run stream are node:stream Readables', async () => {
  const run = spawnHarness({ harness: 'claude-code', command: process.execPath, args: ['-e', ''] });
  const runs = createRunStream();
  for (const stream of [run, runs]) {
    expect(stream).toBeInstanceOf(Readable);
    expect(isReadable(stream)).toBe(true);
  }
  runs.end();
  for await (const _event of run);
  for await (const _event of runs);
});

test("a user's own through2 transform composes with the stages in stream.pipeline", async () => {
  const harness = harnesses.get('claude-code')!;
  const seen: string[] = [];
  const input = jsonl(
    {
      type: 'assistant',
      message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } }] },
    },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } },
  );
  const events: unknown[] = [];
  await pipeline(
    Readable.from([Buffer.from(input)]),
    splitLines(),
    parseJson(),
    correlate({ harness }),
    classify(),
    // The user's stage: tags every event, and counts them.
    through2.obj((event: { type: string }, _encoding: string, done: (error: null, event: unknown) => void) => {
      seen.push(event.type);
      done(null, { ...event, tagged: true });
    }),
    new Writable({ objectMode: true, write: (event, _e, done) => (events.push(event), done()) }),
  );
  expect(seen).toEqual(['read']);
  expect(bodies(events as never)).toEqual([{ type: 'read', path: '/a', is_success: true, tagged: true }]);
});
