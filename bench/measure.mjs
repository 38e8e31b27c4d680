/**
 * One measurement, in a plain node process of its own so its peak RSS is its own (no
 * TypeScript loader in it): node bench/measure.mjs <floor|stream-json|api|stages|session> <harness> <file>
 * prints {seconds, maxRssMb}. The CLI case is timed from outside (bench/run.ts).
 */
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import split2 from 'split2';
import streamJsonl from 'stream-json/jsonl/parser.js';
import { createNormalizer, harnesses, readSession } from '../dist/lib/index.js';
import { classify, correlate, parseJson, serialize, splitLines, validate } from '../dist/lib/transforms.js';

const [which, harness, file] = process.argv.slice(2);

/** A sink that takes everything and keeps nothing. */
function discard(objectMode) {
  return new Writable({ objectMode, write: (_chunk, _encoding, done) => done(), writev: (_chunks, done) => done() });
}

const cases = {
  // The floor: split lines, JSON.parse each, serialize one small object per line, write it.
  floor: () =>
    pipeline(
      createReadStream(file),
      split2((line) => JSON.stringify({ type: JSON.parse(line).type }) + '\n'),
      discard(false),
    ),
  // stream-json's JSONL parser alone.
  'stream-json': () => pipeline(createReadStream(file), streamJsonl.asStream(), discard(true)),
  // The full pipeline through the public API: split, parse, correlate, classify, validate, serialize.
  api: () => pipeline(createReadStream(file), createNormalizer({ harness, output: 'jsonl' }), discard(false)),
  // A session file read by its harness's session reader (the file as `readSession` takes it).
  session: () => pipeline(readSession({ harness, path: file, output: 'jsonl' }), discard(false)),
  // The same stages as six separate Transforms, one stream hop per item between each: what fusing them saves.
  stages: () =>
    pipeline(
      createReadStream(file),
      splitLines(),
      parseJson(),
      correlate({ harness: harnesses.get(harness) }),
      classify(),
      validate(),
      serialize(),
      discard(false),
    ),
};

const started = performance.now();
await cases[which]();
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
