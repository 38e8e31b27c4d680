/**
 * Large synthetic streams shaped like the real captures in test/fixtures: for each harness, a
 * run cycle of its real record shapes (many small records, long tool results) repeated with
 * fresh ids until the size is reached, with a multi-megabyte line (an image read, a huge
 * command output) every 64 MB. Deterministic: the same size gives the same bytes.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { cycles, line } from './cycles.js';

export const harnessNames = ['claude-code', 'goose', 'opencode', 'codex'] as const;
export type BenchHarness = (typeof harnessNames)[number];

/** A small deterministic PRNG (mulberry32), so generated files are reproducible. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BIG_LINE_EVERY = 64 * 1024 * 1024;

const dataDir = new URL('./.data/', import.meta.url);

/** The path of a generated stream of about `megabytes` MB for the harness, written if missing. */
export async function generated(harness: BenchHarness, megabytes: number): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  const path = new URL(`${harness}-${megabytes}MB.jsonl`, dataDir).pathname;
  if (existsSync(path)) return path;
  const target = megabytes * 1024 * 1024;
  const next = random(megabytes);
  const partial = path + '.partial';
  const out = createWriteStream(partial);
  if (harness === 'codex')
    out.write(line({ type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' }));
  let written = 0;
  let nextBig = BIG_LINE_EVERY / 2;
  for (let n = 0; written < target; n++) {
    const big = written >= nextBig;
    if (big) nextBig += BIG_LINE_EVERY;
    for (const text of cycles[harness](n, next, big)) {
      written += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  renameSync(partial, path);
  return path;
}

export function sizeOf(path: string): number {
  return statSync(path).size;
}
