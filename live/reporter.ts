/**
 * Prints what the live suite did: how many scenarios ran per row, the CLIs it skipped and why,
 * the processes CLIs left running, and with
 * `LIVE_VERSIONS=latest` the drift report: per scenario, the records and tools that came out
 * `unknown` and the events that differ from the pinned version's.
 */
import type { Reporter, TestModule } from 'vitest/node';

export interface Skipped {
  id: string;
  reason: string;
}

export class LiveReporter implements Reporter {
  constructor(
    private readonly skipped: readonly Skipped[],
    private readonly versions: Readonly<Record<string, string>>,
    private readonly latest: boolean,
  ) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const rows = new Map<string, { passed: number; failed: number }>();
    const drift: string[] = [];
    const leftovers: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const live = test.meta().live;
        const state = test.result().state;
        if (!live || (state !== 'passed' && state !== 'failed')) continue;
        const row = rows.get(live.row) ?? { passed: 0, failed: 0 };
        row[state]++;
        rows.set(live.row, row);
        for (const process of live.leftovers)
          leftovers.push(`  ${live.row} / ${test.name}: ${process.split('\n')[0]!.slice(0, 160)}`);
        if (live.drift) {
          drift.push(`${live.row} / ${test.name}:`);
          for (const what of live.drift.newUnknown) drift.push(`  now unknown: ${what}`);
          for (const line of live.drift.changed) drift.push(`  ${line}`);
        }
      }
    }
    const total = [...rows.values()].reduce((sum, row) => sum + row.passed + row.failed, 0);
    const lines = [`live: ${total} scenarios ran${this.latest ? ' against the newest versions' : ''}`];
    for (const [id, row] of rows) {
      lines.push(
        `  ${id.padEnd(12)} ${this.versions[id]?.padEnd(40) ?? ''} ${row.passed} passed, ${row.failed} failed`,
      );
    }
    for (const { id, reason } of this.skipped) lines.push(`  ${id.padEnd(12)} skipped: ${reason}`);
    if (leftovers.length)
      lines.push('processes a CLI left running after it exited (killed by the suite):', ...leftovers);
    if (this.latest)
      lines.push(
        drift.length ? 'drift report:' : 'drift report: no scenario differs from the pinned versions',
        ...drift,
      );
    console.log(`\n${lines.join('\n')}\n`);
  }
}
