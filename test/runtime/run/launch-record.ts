/**
 * Starting a harness on a stand-in program (test/children/record-launch.mjs) that records its
 * argv, its environment and its stdin: what the real CLI would be started with.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnHarness, type SpawnHarnessOptions } from '../../../lib/index.js';

const child = fileURLToPath(new URL('../../children/record-launch.mjs', import.meta.url));

export interface LaunchRecord {
  argv: string[];
  env: Record<string, string>;
  stdin: string;
}

/** Runs the options with the stand-in as the command (in a temporary working directory) and returns its record. */
export async function launchRecord(options: Omit<SpawnHarnessOptions, 'command'>): Promise<LaunchRecord> {
  const dir = mkdtempSync(join(tmpdir(), 'he-launch-'));
  try {
    const program = join(dir, 'agent');
    // An absolute interpreter: with extendEnv false the child may have no PATH.
    writeFileSync(program, `#!${process.execPath}\nimport(${JSON.stringify(child)});\n`);
    chmodSync(program, 0o755);
    const run = spawnHarness({ ...options, command: program, cwd: dir, reject: false } as SpawnHarnessOptions);
    run.resume();
    await run.done;
    return JSON.parse(readFileSync(join(dir, 'launch-record.json'), 'utf8')) as LaunchRecord;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
