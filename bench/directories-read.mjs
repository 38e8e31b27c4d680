/**
 * One read of a Claude Code stream, in a process of its own: node bench/directories-read.mjs
 * <floor|tracked|bypassed> <file> prints {cpuMs, seconds}. `floor`: split2 + JSON.parse + one small object
 * stringified per line, as bench/measure.mjs's; `tracked`: the normalizer, the shell directory tracked per call;
 * `bypassed`: the same with `CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR=1` in its `env` option, under which the
 * directory never moves, so no script is read for its `cd`s (docs/harnesses/claude-code.md "Shell directory").
 */
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import split2 from 'split2';
import { createNormalizer } from '../dist/lib/index.js';

const [which, file] = process.argv.slice(2);
const discard = new Writable({ write: (_chunk, _encoding, done) => done(), writev: (_chunks, done) => done() });
const env = which === 'bypassed' ? { CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR: '1' } : {};
const cpu = process.cpuUsage();
const started = performance.now();
await pipeline(
  createReadStream(file),
  which === 'floor'
    ? split2((line) => JSON.stringify({ type: JSON.parse(line).type }) + '\n')
    : createNormalizer({ harness: 'claude-code', output: 'jsonl', env }),
  discard,
);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, seconds: (performance.now() - started) / 1000 }));
