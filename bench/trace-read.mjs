/**
 * One read of a generated stream, in a process of its own: node bench/trace-read.mjs <floor|off|on> <harness> <file>
 * prints {cpuMs, seconds, bytesOut}. `floor`: split2 + JSON.parse + one small object stringified per line, as
 * bench/measure.mjs's; `off`: the normalizer as the CLI runs it (JSON lines); `on`: the same with `trace: true`.
 */
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import split2 from 'split2';
import { createNormalizer } from '../dist/lib/index.js';

const [which, harness, file] = process.argv.slice(2);
let bytesOut = 0;
const count = (chunk) => (bytesOut += chunk.length);
const discard = new Writable({
  write: (chunk, _encoding, done) => (count(chunk), done()),
  writev: (chunks, done) => (chunks.forEach(({ chunk }) => count(chunk)), done()),
});
const cpu = process.cpuUsage();
const started = performance.now();
await pipeline(
  createReadStream(file),
  which === 'floor'
    ? split2((line) => JSON.stringify({ type: JSON.parse(line).type }) + '\n')
    : createNormalizer({ harness, output: 'jsonl', trace: which === 'on' }),
  discard,
);
const used = process.cpuUsage(cpu);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, seconds, bytesOut }));
