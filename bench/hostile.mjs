/**
 * Hostile records, measured through the CLI as a user runs it (each case a fresh process, its
 * peak RSS its own): node bench/hostile.mjs prints one JSON object of figures.
 *
 * - long lines: a 60 MB text line and a 60 MB line of 7.5 M small objects (bound: 100 MB +
 *   1.5x the line), and a 500 MB Claude Code `user` line carrying a Read result, with
 *   --max-line-bytes 1 GiB (bound: 300 MB);
 * - the deep-nesting sandwich: 50 lines, one 6,000-deep line, 50 lines;
 * - one tool_use id repeated 10,000 and 20,000 times: linear time means about twice as long.
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const bin = join(here, '..', 'bin', 'harness-events.js');
const data = join(here, '.data');
mkdirSync(data, { recursive: true });

/** `harness-events normalize` on `file`: seconds, peak RSS, and the types of the events it wrote. */
function normalize(file, extra = []) {
  const rssFile = join(data, 'hostile-rss');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      ['--require', join(here, 'rss-on-exit.cjs'), bin, 'normalize', '--harness', 'claude-code', ...extra, file],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, BENCH_RSS_FILE: rssFile },
      },
    );
    const types = {};
    let rest = '';
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        const { type, code } = JSON.parse(line);
        const key = code ? `${type}/${code}` : type;
        types[key] = (types[key] ?? 0) + 1;
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({
        exit: code,
        seconds: (performance.now() - started) / 1000,
        peakRssMb: Math.round(Number(readFileSync(rssFile, 'utf8'))),
        events: types,
      });
    });
  });
}

/** A file made once (kept in bench/.data between runs): `head`, `megabytes` MB of `unit`, `tail`. */
function generated(name, parts) {
  const file = join(data, name);
  if (existsSync(file)) return file;
  const fd = openSync(`${file}.tmp`, 'w');
  for (const [text, megabytes] of parts) {
    if (megabytes === undefined) writeSync(fd, text);
    else {
      const block = Buffer.from(text.repeat(Math.floor((1024 * 1024) / text.length)));
      for (let i = 0; i < megabytes; i++) writeSync(fd, block);
    }
  }
  closeSync(fd);
  renameSync(`${file}.tmp`, file);
  return file;
}

const readCall = (id, path) =>
  `{"type":"assistant","message":{"id":"m0","content":[{"type":"tool_use","id":"${id}","name":"Read",` +
  `"input":{"file_path":"${path}"}}]},"session_id":"s"}\n`;

const text60 = generated('text-60mb.jsonl', [
  ['{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"'],
  ['x', 60],
  ['"}]},"session_id":"s"}\n'],
]);
const objects60 = generated('objects-60mb.jsonl', [
  [
    readCall('t1', '/a') +
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},' +
      '"tool_use_result":{"data":[',
  ],
  ['{"a":1},', 60],
  ['{"a":1}]},"session_id":"s"}\n'],
]);
// A Read of a 250 MB file: its contents twice on the line, as Claude Code writes them (tool_result and
// tool_use_result).
const fileLine = 'const value = compute(42); // a line of the file read\\n';
const read500 = generated('read-500mb.jsonl', [
  [
    readCall('t1', '/ws/huge.ts') +
      '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"',
  ],
  [fileLine, 250],
  ['"}]},"session_id":"s","tool_use_result":{"type":"text","file":{"filePath":"/ws/huge.ts","content":"'],
  [fileLine, 250],
  ['","numLines":5000000,"startLine":1,"totalLines":5000000}}}\n'],
]);

const textLine = (i) =>
  `{"type":"assistant","message":{"id":"m${i}","content":[{"type":"text","text":"line ${i}"}]},"session_id":"s"}\n`;
const deep = join(data, 'deep.jsonl');
writeFileSync(
  deep,
  [
    ...Array.from({ length: 50 }, (_, i) => textLine(i)),
    `{"type":"mystery","payload":${'['.repeat(6000)}${']'.repeat(6000)}}\n`,
    ...Array.from({ length: 50 }, (_, i) => textLine(50 + i)),
  ].join(''),
);

const repeated = (uses) => {
  const file = join(data, `repeated-${uses}.jsonl`);
  let text = '';
  for (let i = 0; i < uses; i++)
    text +=
      `{"type":"assistant","message":{"id":"m${i}","content":[{"type":"tool_use","id":"same","name":"Read",` +
      `"input":{"file_path":"/f${i}","pad":"${'p'.repeat(40)}"}}]}}\n`;
  writeFileSync(file, text);
  return file;
};

const results = {
  text60: await normalize(text60),
  objects60: await normalize(objects60),
  read500: await normalize(read500, ['--max-line-bytes', String(1024 * 1024 * 1024)]),
  deepSandwich: await normalize(deep),
  repeatedId10k: await normalize(repeated(10_000)),
  repeatedId20k: await normalize(repeated(20_000)),
};
console.log(JSON.stringify(results));
