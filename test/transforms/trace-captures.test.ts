/**
 * The trace stream on every real capture of every harness, stdout and session files alike (docs/contract.md "Trace
 * stream"): the events it wraps are the plain stream's, in order; every call and every agent starts once and ends
 * once, in that order; times run forward within a call where the harness gave both. Each harness's own records are
 * checked by hand in test/harnesses/<name>/trace.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createNormalizer, type HarnessEvent, type HarnessName, type NormalizeOptions } from '../../lib/index.js';
import type { TraceRecord } from '../../lib/kernel/trace.js';
import { findSessions, readSession } from '../../lib/runtime/sessions/sessions.js';
import { capturedHarnesses, fixtureFiles, fixturePath } from '../helpers.js';
import { checkTrace, collect } from './trace-check.js';

async function traceOf(bytes: Buffer, options: NormalizeOptions) {
  const input = () => Readable.from([bytes], { objectMode: false });
  const plain = createNormalizer({ ...options, trace: false });
  input().pipe(plain);
  const traced = createNormalizer({ ...options, trace: true });
  input().pipe(traced);
  return {
    plain: (await collect(plain)) as HarnessEvent[],
    records: (await collect(traced)) as TraceRecord[],
  };
}

// The harnesses' folders only (not test/fixtures/vectors/ nor trace/, the views' saved traces).
const withCaptures: string[] = capturedHarnesses();

describe.each(withCaptures)('%s stdout captures', (harness) => {
  test.each(fixtureFiles(harness))('%s', async (file) => {
    const { plain, records } = await traceOf(readFileSync(fixturePath(file)), {
      harness: harness as HarnessName,
      cwd: '/ws',
    });
    checkTrace(records, plain);
  });
});

/** Every session the finder lists under each paired capture's home. */
async function sessionFiles(): Promise<[string, string, string][]> {
  const found: [string, string, string][] = [];
  for (const harness of withCaptures) {
    const dir = fixturePath(`${harness}/transcripts/`);
    let scenarios: string[];
    try {
      scenarios = readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [e.name] : []));
    } catch {
      continue;
    }
    for (const scenario of scenarios) {
      const home = join(dir, scenario, 'home');
      for await (const entry of findSessions({ home, harness, onWarning() {} }))
        found.push([`${harness} ${scenario} ${entry.id}`, harness, entry.path]);
    }
  }
  return found;
}

describe('session files', async () => {
  const sessions = await sessionFiles();
  test('the paired captures have sessions to read', () => expect(sessions.length).toBeGreaterThan(20));
  test.each(sessions)('%s', async (_name, harness, path) => {
    const plain = await collect(readSession({ harness, path }));
    const records = await collect(readSession({ harness, path, trace: true }));
    checkTrace(records, plain);
  });
});
