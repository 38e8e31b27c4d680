/**
 * What the trace stream costs (issue 41: off, nothing measurable; on, measured), in CPU time: each generated stream
 * (bench/generate.ts) read by the floor, by the normalizer with the trace off, and with it on (bench/trace-read.mjs),
 * interleaved so drift on a shared machine hits every case alike. BENCH_TRACE_MB sets each stream's size (100).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { generated, type BenchHarness } from './generate.js';

export interface TraceRow {
  harness: string;
  mb: number;
  floorCpuMs: number;
  offCpuMs: number;
  onCpuMs: number;
  /** The floor's CPU time over the normalizer's with the trace off (1 is the floor's speed). */
  offRatioToFloor: number;
  /** The same with the trace on. */
  onRatioToFloor: number;
  /** The trace-on CPU time over the trace-off one, run by run (each pair back to back), the median. */
  onOverOff: number;
  /** The trace's bytes over the plain JSON lines' bytes. */
  bytesOnOverOff: number;
}

interface Read {
  cpuMs: number;
  bytesOut: number;
}

export async function traceBench(harnesses: readonly BenchHarness[], runs: number): Promise<TraceRow[]> {
  const mb = Number(process.env.BENCH_TRACE_MB ?? 100);
  const here = new URL('.', import.meta.url).pathname;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rows: TraceRow[] = [];
  for (const harness of harnesses) {
    const file = await generated(harness, mb);
    const read = (which: string): Read =>
      JSON.parse(
        execFileSync(process.execPath, [join(here, 'trace-read.mjs'), which, harness, file], { encoding: 'utf8' }),
      ) as Read;
    const floor: number[] = [];
    const off: Read[] = [];
    const on: Read[] = [];
    for (let run = 0; run < runs; run++) {
      floor.push(read('floor').cpuMs);
      off.push(read('off'));
      on.push(read('on'));
    }
    const offMs = median(off.map((r) => r.cpuMs));
    const onMs = median(on.map((r) => r.cpuMs));
    const row: TraceRow = {
      harness,
      mb,
      floorCpuMs: median(floor),
      offCpuMs: offMs,
      onCpuMs: onMs,
      offRatioToFloor: median(floor) / offMs,
      onRatioToFloor: median(floor) / onMs,
      onOverOff: median(on.map((r, i) => r.cpuMs / off[i]!.cpuMs)),
      bytesOnOverOff: on[0]!.bytesOut / off[0]!.bytesOut,
    };
    rows.push(row);
    console.error(
      `trace: ${harness} ${mb} MB: floor ${row.floorCpuMs.toFixed(0)} ms CPU, off ${offMs.toFixed(0)} ms ` +
        `(${row.offRatioToFloor.toFixed(2)}x floor), on ${onMs.toFixed(0)} ms (${row.onRatioToFloor.toFixed(2)}x ` +
        `floor); on over off ${row.onOverOff.toFixed(3)}, ${row.bytesOnOverOff.toFixed(2)}x the bytes`,
    );
  }
  return rows;
}
