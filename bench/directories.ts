/**
 * What tracking Claude Code's shell directory costs (issue 44: no slowdown from it), in CPU time: a stream of
 * BENCH_DIRECTORY_CALLS Bash calls and relative Reads in the CLI's record shapes (test/fixtures/claude-code/lab/
 * bash.jsonl), the scripts moving the directory every way the tracker reads (a kept `cd`, a failed one, `pushd`,
 * a subshell, a pipeline, an absolute `cd`), read by the floor, by the normalizer, and by the normalizer with the
 * tracking bypassed (bench/directories-read.mjs), interleaved.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const session_id = '340fec0a-7678-4804-ab9b-ba01b4a4a826';
const cwd = '/home/user/project';

/** One call of the cycle: its tool, input, result text and whether it failed. */
const cycle: [name: string, input: object, result: string, failed?: boolean][] = [
  ['Bash', { command: `cd docs && cat "l'été.md"`, description: 'Show the notes' }, 'Summer notes.'],
  ['Bash', { command: 'cat "naïve résumé.md"', description: 'Show the summary' }, 'A naive summary.'],
  ['Bash', { command: 'ls', description: 'List the folder' }, "l'été.md\nnaïve résumé.md"],
  ['Read', { file_path: 'naïve résumé.md' }, '     1\tA naive summary.'],
  ['Bash', { command: 'cd ..', description: 'Back up' }, ''],
  ['Bash', { command: 'cd docs; false', description: 'Fail' }, 'Exit code 1', true],
  ['Bash', { command: 'pushd src && grep -rn hello . && popd', description: 'Search' }, './a.ts:1:hello'],
  ['Bash', { command: '(cd docs && make)', description: 'Build the docs' }, 'make: Nothing to be done.'],
  ['Bash', { command: 'cd src && npm test 2>&1 | tail -n 20', description: 'Test' }, 'ok 1 - greets\n# pass 1'],
  ['Write', { file_path: 'c.ts', content: 'export const answer = 42;\n' }, 'File created successfully'],
  ['Bash', { command: `cd ${cwd}`, description: 'Back to the project' }, ''],
];

function records(n: number): string[] {
  const id = `toolu_01${String(n).padStart(14, '0')}`;
  const [name, input, text, failed] = cycle[n % cycle.length]!;
  const common = { parent_tool_use_id: null, session_id, timestamp: '2026-11-30T02:06:48.043Z' };
  const use = {
    type: 'assistant',
    message: {
      id: `msg_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [{ type: 'tool_use', id, name, input }],
      stop_reason: null,
      usage: { input_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
    uuid: `00000000-0000-4000-8000-${String(2 * n).padStart(12, '0')}`,
    ...common,
  };
  const result = {
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: text, is_error: !!failed }] },
    uuid: `00000000-0000-4000-8000-${String(2 * n + 1).padStart(12, '0')}`,
    ...common,
    tool_use_result: failed
      ? `Error: ${text}`
      : { stdout: text, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
  };
  return [JSON.stringify(use), JSON.stringify(result)];
}

export interface DirectoriesRow {
  calls: number;
  mb: number;
  floorCpuMs: number;
  trackedCpuMs: number;
  bypassedCpuMs: number;
  /** The floor's CPU time over the normalizer's, tracking (1 is the floor's speed). */
  trackedRatioToFloor: number;
  /** The same with the tracking bypassed. */
  bypassedRatioToFloor: number;
  /** The tracking normalizer's CPU time over the bypassed one's, run by run (each pair back to back), the median. */
  trackedOverBypassed: number;
}

export function directoriesBench(tmp: string, runs: number): DirectoriesRow {
  const calls = Number(process.env.BENCH_DIRECTORY_CALLS ?? 100_000);
  const file = join(tmp, 'directories.jsonl');
  const lines = [JSON.stringify({ type: 'system', subtype: 'init', cwd, session_id, tools: ['Bash', 'Read'] })];
  for (let n = 0; n < calls; n++) lines.push(...records(n));
  const text = lines.join('\n') + '\n';
  writeFileSync(file, text);
  const here = new URL('.', import.meta.url).pathname;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const cpuOf = (which: string) =>
    (
      JSON.parse(
        execFileSync(process.execPath, [join(here, 'directories-read.mjs'), which, file], { encoding: 'utf8' }),
      ) as { cpuMs: number }
    ).cpuMs;
  const floor: number[] = [];
  const tracked: number[] = [];
  const bypassed: number[] = [];
  // Interleaved, so drift on a shared machine hits every case alike.
  for (let run = 0; run < runs; run++) {
    floor.push(cpuOf('floor'));
    tracked.push(cpuOf('tracked'));
    bypassed.push(cpuOf('bypassed'));
  }
  const row: DirectoriesRow = {
    calls,
    mb: Buffer.byteLength(text) / 1024 / 1024,
    floorCpuMs: median(floor),
    trackedCpuMs: median(tracked),
    bypassedCpuMs: median(bypassed),
    trackedRatioToFloor: median(floor) / median(tracked),
    bypassedRatioToFloor: median(floor) / median(bypassed),
    trackedOverBypassed: median(tracked.map((ms, run) => ms / bypassed[run]!)),
  };
  rmSync(file);
  console.error(
    `directories: ${calls} calls, ${row.mb.toFixed(0)} MB: floor ${row.floorCpuMs.toFixed(0)} ms CPU, tracked ` +
      `${row.trackedCpuMs.toFixed(0)} ms (${row.trackedRatioToFloor.toFixed(2)}x floor), bypassed ` +
      `${row.bypassedCpuMs.toFixed(0)} ms (${row.bypassedRatioToFloor.toFixed(2)}x floor); tracked over bypassed ` +
      `${row.trackedOverBypassed.toFixed(3)}`,
  );
  return row;
}
